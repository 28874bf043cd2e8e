import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function SetupScreen() {
  return <PlaceholderScreen title="Setup" />;
}
