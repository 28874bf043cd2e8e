/** Click events carry the clicked element's test id, at most one per 500 ms (spec section 9). */
export const CLICK_THROTTLE_MS = 500;

export function clickIdOf(target: EventTarget | null): string | null {
  const element = target instanceof Element ? target : null;
  const withId = element?.closest('[data-testid]');
  return withId?.getAttribute('data-testid') || null;
}

/** A click listener that reports at most one click per throttle window. */
export function createClickTracker(
  send: (clickId: string) => void,
  now: () => number = Date.now,
): (event: Event) => void {
  let last = -Infinity;
  return (event) => {
    const clickId = clickIdOf(event.target);
    if (!clickId) return;
    const time = now();
    if (time - last < CLICK_THROTTLE_MS) return;
    last = time;
    send(clickId);
  };
}
