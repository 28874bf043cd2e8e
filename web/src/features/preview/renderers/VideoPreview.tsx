import { testIds } from '../../../test-ids.ts';
import type { RendererProps } from './types.ts';

/** A video from its /files URL; the server answers ranges, so seeking works. */
export default function VideoPreview({ url, name }: RendererProps) {
  return (
    <video
      data-testid={testIds.videoPreview}
      aria-label={name}
      src={url}
      controls
      preload="metadata"
      style={{ maxWidth: '100%', maxHeight: 520 }}
    />
  );
}
