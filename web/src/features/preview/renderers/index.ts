import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PreviewRenderer } from '../registry.ts';
import type { RendererProps } from './types.ts';

/** Each renderer is its own chunk, loaded the first time a file of its kind is previewed. */
export const rendererComponents: Record<
  PreviewRenderer,
  LazyExoticComponent<ComponentType<RendererProps>>
> = {
  markdown: lazy(() => import('./MarkdownPreview.tsx')),
  web: lazy(() => import('./WebPreview.tsx')),
  iframe: lazy(() => import('./IframePreview.tsx')),
  code: lazy(() => import('./CodePreview.tsx')),
  csv: lazy(() => import('./CsvPreview.tsx')),
  image: lazy(() => import('./ImagePreview.tsx')),
  video: lazy(() => import('./VideoPreview.tsx')),
  audio: lazy(() => import('./AudioPreview.tsx')),
  pdf: lazy(() => import('./PdfPreview.tsx')),
  gz: lazy(() => import('./GzPreview.tsx')),
  doc: lazy(() => import('./DocPreview.tsx')),
  unknown: lazy(() => import('./UnknownPreview.tsx')),
};

/** The source view used by the view-source toggle (CodeMirror, its own chunk). */
export const SourcePreview = lazy(() => import('./CodePreview.tsx'));
