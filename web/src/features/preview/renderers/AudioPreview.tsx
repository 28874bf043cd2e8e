import { testIds } from '../../../test-ids.ts';
import type { RendererProps } from './types.ts';

/** Audio from its /files URL; the server answers ranges, so seeking works. */
export default function AudioPreview({ url, name }: RendererProps) {
  return (
    <audio
      data-testid={testIds.audioPreview}
      aria-label={name}
      src={url}
      controls
      preload="metadata"
      style={{ width: '100%' }}
    />
  );
}
