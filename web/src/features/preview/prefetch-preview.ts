import type { QueryClient } from '@tanstack/react-query';
import type { FileInfo } from '@ivory/api';
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
 * Starts loading the renderer code that a path's name calls for, before InspectFile has said
 * it is a file, so that its preview data can be fetched as soon as it has. Code only: a wrong
 * guess (a folder named like a file) costs one unused chunk.
 */
export function preloadRendererOf(queryClient: QueryClient, path: string): void {
  const kind = previewKindOf(path);
  if (kind.previewable && kind.renderer !== 'unknown') {
    void queryClient.prefetchQuery(rendererQuery(kind.renderer));
  }
}
