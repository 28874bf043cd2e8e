import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function PipelineScreen() {
  return <PlaceholderScreen title="Pipeline" />;
}
