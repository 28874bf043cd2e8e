import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function ProjectDefaultsScreen() {
  return <PlaceholderScreen title="Project Defaults" />;
}
