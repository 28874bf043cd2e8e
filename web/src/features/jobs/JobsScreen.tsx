import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function JobsScreen() {
  return <PlaceholderScreen title="Jobs" />;
}
