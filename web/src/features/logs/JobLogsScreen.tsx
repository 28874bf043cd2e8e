import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function JobLogsScreen() {
  return <PlaceholderScreen title="Job Logs" />;
}
