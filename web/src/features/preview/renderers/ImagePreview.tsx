import { testIds } from '../../../test-ids.ts';
import type { RendererProps } from './types.ts';

/** An image (SVG included: scripts in an SVG never run inside <img>). */
export default function ImagePreview({ url, name }: RendererProps) {
  return (
    <img
      data-testid={testIds.imagePreview}
      src={url}
      alt={name}
      style={{ maxWidth: '100%', maxHeight: 520 }}
    />
  );
}
