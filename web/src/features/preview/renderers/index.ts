import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { queryKeys } from '../../../data/query-keys.ts';
import type { PreviewRenderer } from '../registry.ts';
import type { RendererProps } from './types.ts';

/** What a renderer module exports. */
export interface RendererModule {
  default: ComponentType<RendererProps>;
  /** Starts loading what the renderer shows first (same query as the renderer's own). */
  prefetch?: (queryClient: QueryClient, props: RendererProps) => Promise<void>;
}

/** Each renderer is its own chunk, loaded the first time a file of its kind is previewed. */
export const rendererModules: Record<PreviewRenderer, () => Promise<RendererModule>> = {
  markdown: () => import('./MarkdownPreview.tsx'),
  web: () => import('./WebPreview.tsx'),
  iframe: () => import('./IframePreview.tsx'),
  code: () => import('./CodePreview.tsx'),
  csv: () => import('./CsvPreview.tsx'),
  image: () => import('./ImagePreview.tsx'),
  video: () => import('./VideoPreview.tsx'),
  audio: () => import('./AudioPreview.tsx'),
  pdf: () => import('./PdfPreview.tsx'),
  gz: () => import('./GzPreview.tsx'),
  doc: () => import('./DocPreview.tsx'),
  unknown: () => import('./UnknownPreview.tsx'),
};

/**
 * A renderer's code, loaded like data: once, by the preview pane or earlier by the commit
 * route's prefetch, then rendered at once. (With React.lazy, a Suspense fallback once shown
 * holds the loaded renderer back for React's 300 ms reveal throttle.) The source view is the
 * `code` renderer.
 */
export function rendererQuery(renderer: PreviewRenderer) {
  return queryOptions({
    queryKey: queryKeys.previewRenderer(renderer),
    queryFn: rendererModules[renderer],
    staleTime: Infinity,
    gcTime: Infinity,
  });
}
