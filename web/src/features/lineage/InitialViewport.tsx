import { useStoreApi, type Viewport } from '@xyflow/react';
import { useState, type ReactNode } from 'react';

/**
 * Puts the fitted viewport in React Flow's store before anything reads it (the provider takes no
 * viewport, and `defaultViewport` is applied only after the first render, which would render the
 * nodes at 100 % once for nothing).
 */
export default function InitialViewport({
  viewport,
  children,
}: {
  viewport: Viewport | null;
  children: ReactNode;
}) {
  const store = useStoreApi();
  useState(() => {
    if (viewport) store.setState({ transform: [viewport.x, viewport.y, viewport.zoom] });
  });
  return children;
}
