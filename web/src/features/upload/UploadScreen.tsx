import { PlaceholderScreen } from '../../app/PlaceholderScreen.tsx';

export function UploadScreen() {
  return <PlaceholderScreen title="Upload Files" />;
}
