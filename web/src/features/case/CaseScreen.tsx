import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function CaseScreen() {
  return <PlaceholderScreen title="Case" />;
}
