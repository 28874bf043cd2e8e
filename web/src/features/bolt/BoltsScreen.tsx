import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function BoltsScreen() {
  return <PlaceholderScreen title="Bolts" />;
}
