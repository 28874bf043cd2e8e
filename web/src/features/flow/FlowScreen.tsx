import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function FlowScreen() {
  return <PlaceholderScreen title="Flow" />;
}
