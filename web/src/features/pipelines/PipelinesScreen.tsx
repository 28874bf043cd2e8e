import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function PipelinesScreen() {
  return <PlaceholderScreen title="Pipelines" />;
}
