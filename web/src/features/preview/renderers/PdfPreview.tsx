import { Alert, Spin, Typography } from 'antd';
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { testIds } from '../../../test-ids.ts';
import type { RendererProps } from './types.ts';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Pages drawn to canvas: the first few only. */
export const PDF_MAX_PAGES = 3;

/** A PDF's first pages drawn by pdf.js (its worker loads from the app's own assets). */
export default function PdfPreview({ url }: RendererProps) {
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ pages: number; total: number; error: string | null }>({
    pages: 0,
    total: 0,
    error: null,
  });

  useEffect(() => {
    const task = getDocument({ url, isEvalSupported: false });
    let cancelled = false;
    void (async () => {
      try {
        const pdf = await task.promise;
        const count = Math.min(pdf.numPages, PDF_MAX_PAGES);
        for (let number = 1; number <= count && !cancelled; number++) {
          const page = await pdf.getPage(number);
          const viewport = page.getViewport({ scale: 1.25 });
          const canvas = document.createElement('canvas');
          canvas.width = Math.ceil(viewport.width);
          canvas.height = Math.ceil(viewport.height);
          canvas.dataset.testid = testIds.pdfPage;
          canvas.style.maxWidth = '100%';
          canvas.style.display = 'block';
          canvas.style.marginBottom = '8px';
          await page.render({ canvas, viewport }).promise;
          if (cancelled) return;
          canvas.dataset.rendered = 'true';
          container.current?.append(canvas);
          setState({ pages: number, total: pdf.numPages, error: null });
        }
      } catch (error) {
        if (!cancelled)
          setState({
            pages: 0,
            total: 0,
            error: error instanceof Error ? error.message : String(error),
          });
      }
    })();
    const node = container.current;
    return () => {
      cancelled = true;
      void task.destroy();
      node?.replaceChildren();
    };
  }, [url]);

  return (
    <div data-testid={testIds.pdfPreview} style={{ maxHeight: 560, overflow: 'auto' }}>
      {state.error ? <Alert type="error" showIcon message={state.error} /> : null}
      {!state.error && state.pages === 0 ? <Spin /> : null}
      <div ref={container} />
      {state.total > state.pages ? (
        <Typography.Text type="secondary">
          First {state.pages} of {state.total} pages; download the file for the rest.
        </Typography.Text>
      ) : null}
    </div>
  );
}
