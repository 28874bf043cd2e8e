import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a loop may run before it lets other requests (and /healthz) have the event loop. */
export const eventLoopSliceMs = 10;

/**
 * A check for long synchronous-looking loops (listings, glob scans): `await pause()` returns
 * at once until the slice is used up, then yields one event-loop turn, so a heavy request
 * never holds the loop for more than a slice between turns.
 */
export function slicer(sliceMs = eventLoopSliceMs): () => Promise<void> | undefined {
  let started = performance.now();
  return () => {
    if (performance.now() - started < sliceMs) return undefined;
    return nextTurn().then(() => {
      started = performance.now();
    });
  };
}
