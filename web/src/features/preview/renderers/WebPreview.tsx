import { testIds } from '../../../test-ids.ts';
import { Loading } from './Loading.tsx';
import type { RendererProps } from './types.ts';
import { useText } from './useText.ts';

export { prefetchText as prefetch } from './useText.ts';

/**
 * An HTML page in a fully sandboxed iframe (`sandbox=""`: no scripts, no forms, an opaque origin),
 * so nothing in the file can reach the console.
 */
export default function WebPreview({ url, name }: RendererProps) {
  const text = useText(url);
  return (
    <Loading pending={text.isPending} error={text.error}>
      {() => (
        <iframe
          data-testid={testIds.webPreview}
          title={name}
          sandbox=""
          referrerPolicy="no-referrer"
          srcDoc={text.data ?? ''}
          style={{ width: '100%', height: 520, border: '1px solid var(--ivory-border-secondary)' }}
        />
      )}
    </Loading>
  );
}
