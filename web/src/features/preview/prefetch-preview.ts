import type { QueryClient } from '@tanstack/react-query';
import type { FileInfo } from '@ivory/api';
import { filePrefixQuery, PREFIX_BYTES } from './file-prefix.ts';
import { previewDecision, previewKindOf } from './registry.ts';
import { rendererProps } from './renderer-props.ts';
import { rendererQuery } from './renderers/index.ts';

/**
 * Starts loading a file's preview before the preview pane renders: its renderer's code, then
 * what the renderer shows first (the renderer's own query, so it is fetched once). Never fails:
 * the pane shows any error itself.
 */
export async function prefetchPreview(
  queryClient: QueryClient,
  info: FileInfo,
  urls: { url: string; downloadUrl: string },
): Promise<void> {
  const decision = previewDecision({ path: info.file.path, sizeBytes: info.sizeBytes });
  if (decision.show !== 'preview') return;
  try {
    const renderer = await queryClient.ensureQueryData(rendererQuery(decision.kind.renderer));
    await renderer.prefetch?.(queryClient, rendererProps(info, urls.url, urls.downloadUrl));
  } catch {
    // The preview pane loads (and reports) it again.
  }
}

/**
 * Starts, from a path's name alone (before InspectFile has said it is a file), the renderer code
 * the name calls for and, for a renderer that shows a file of any size from its first bytes (csv,
 * gz), those bytes: they need nothing InspectFile answers. A wrong guess (a folder named like a
 * file) costs one unused chunk and at most one prefix read.
 */
export function preloadPreviewOf(queryClient: QueryClient, path: string, url: string): void {
  const kind = previewKindOf(path);
  if (!kind.previewable || kind.renderer === 'unknown') return;
  void queryClient.prefetchQuery(rendererQuery(kind.renderer));
  const bytes = PREFIX_BYTES[kind.renderer];
  if (bytes) void queryClient.prefetchQuery(filePrefixQuery(url, bytes));
}
