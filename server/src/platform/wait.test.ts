import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { waitForWake } from './wait.ts';

describe('waitForWake', () => {
  it('leaves no abort listener behind however often a follower waits', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 50; i++) {
      if (i % 2 === 0) await waitForWake(controller.signal, (wake) => setImmediate(wake));
      else await waitForWake(controller.signal, () => undefined, 1);
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('resolves at once when the signal aborts', async () => {
    const controller = new AbortController();
    const waiting = waitForWake(controller.signal, () => undefined);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
