import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function SubJobsScreen() {
  return <PlaceholderScreen title="Sub-jobs" />;
}
