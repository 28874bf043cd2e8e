import ReactMarkdown from 'react-markdown';
import { testIds } from '../../../test-ids.ts';
import { Loading } from './Loading.tsx';
import type { RendererProps } from './types.ts';
import { useText } from './useText.ts';

export { prefetchText as prefetch } from './useText.ts';

/**
 * Markdown as HTML elements. Raw HTML in the file is dropped (`skipHtml`), and react-markdown's
 * default URL transform removes `javascript:` and other unsafe link targets.
 */
export default function MarkdownPreview({ url }: RendererProps) {
  const text = useText(url);
  return (
    <Loading pending={text.isPending} error={text.error}>
      {() => (
        <article data-testid={testIds.markdownPreview} style={{ maxHeight: 560, overflow: 'auto' }}>
          <ReactMarkdown skipHtml>{text.data ?? ''}</ReactMarkdown>
        </article>
      )}
    </Loading>
  );
}
