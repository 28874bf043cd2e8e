/**
 * Waits until `arm`'s wake function is called, `timeoutMs` passes (if given) or the signal
 * aborts — whichever comes first — and leaves no abort listener or timer behind (a follower
 * that waits once a second for hours must not pile up listeners on its request's signal).
 */
export function waitForWake(
  signal: AbortSignal,
  arm: (wake: () => void) => void,
  timeoutMs?: number,
): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    if (timeoutMs !== undefined) timer = setTimeout(done, timeoutMs);
    signal.addEventListener('abort', done, { once: true });
    arm(done);
  });
}
