import { useEffect, useState, type ReactNode } from 'react';

const waiting = new Set<() => void>();
let scheduled = false;

/** Calls `done` once the browser has painted the current frame; returns a cancel function. */
function afterPaint(done: () => void): () => void {
  waiting.add(done);
  if (!scheduled) {
    scheduled = true;
    // A frame callback runs before the paint; a task queued from it runs after that paint. Every
    // cell waiting for the same frame is woken in one task, so React renders them together.
    requestAnimationFrame(() =>
      setTimeout(() => {
        scheduled = false;
        const callbacks = [...waiting];
        waiting.clear();
        for (const callback of callbacks) callback();
      }),
    );
  }
  return () => waiting.delete(done);
}

/**
 * Shows `fallback` in the first frame and `children` from the next one: a table's per-row
 * extras (their requests and renders) wait until the rows themselves are on screen.
 */
export function AfterFirstPaint({
  fallback,
  children,
}: {
  fallback: ReactNode;
  children: ReactNode;
}) {
  const [painted, setPainted] = useState(false);
  useEffect(() => (painted ? undefined : afterPaint(() => setPainted(true))), [painted]);
  return painted ? children : fallback;
}
