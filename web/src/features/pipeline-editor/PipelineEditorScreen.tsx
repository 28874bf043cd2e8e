import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function PipelineEditorScreen() {
  return <PlaceholderScreen title="Pipeline Editor" />;
}
