import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function LineageScreen() {
  return <PlaceholderScreen title="Lineage" />;
}
