import ReactMarkdown from 'react-markdown';
import { useLocation } from 'react-router';
import remarkGfm from 'remark-gfm';
import { testIds } from '../../../test-ids.ts';
import { Loading } from './Loading.tsx';
import type { RendererProps } from './types.ts';
import { useText } from './useText.ts';
import { commitUrlTransform } from './markdown-urls.ts';
import styles from './MarkdownPreview.module.css';

export { prefetchText as prefetch } from './useText.ts';

/**
 * Markdown as HTML elements, GitHub-flavoured (tables, task lists, strikethrough). Raw HTML in
 * the file is dropped (`skipHtml`); unsafe link targets are removed and relative links and images
 * resolve inside the same commit (markdown-urls.ts).
 */
export default function MarkdownPreview({ url }: RendererProps) {
  const text = useText(url);
  const { pathname } = useLocation();
  return (
    <Loading pending={text.isPending} error={text.error}>
      {() => (
        <article data-testid={testIds.markdownPreview} className={styles.markdown}>
          <ReactMarkdown
            skipHtml
            remarkPlugins={[remarkGfm]}
            urlTransform={commitUrlTransform(url, pathname)}
          >
            {text.data ?? ''}
          </ReactMarkdown>
        </article>
      )}
    </Loading>
  );
}
