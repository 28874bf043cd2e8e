import { testIds } from '../../../test-ids.ts';
import type { RendererProps } from './types.ts';

/**
 * The file as the browser shows it, from its /files URL in a fully sandboxed iframe; the server
 * also sends `Content-Security-Policy: sandbox` for it.
 */
export default function IframePreview({ url, name }: RendererProps) {
  return (
    <iframe
      data-testid={testIds.iframePreview}
      title={name}
      sandbox=""
      referrerPolicy="no-referrer"
      src={url}
      style={{ width: '100%', height: 520, border: '1px solid var(--ivory-border-secondary)' }}
    />
  );
}
