import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function PipelineLogsScreen() {
  return <PlaceholderScreen title="Pipeline Logs" />;
}
