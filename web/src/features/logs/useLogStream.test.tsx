import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { LogMessage } from '@ivory/api';
import { ApiProvider } from '../../data/api-context.tsx';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { findTailEnd, TAIL_FIRST_LINES } from './log-tail.ts';
import { toLogRow } from './log-buffer.ts';
import { useLogStream } from './useLogStream.ts';

const LINES = TAIL_FIRST_LINES + 500;

function line(n: number): LogMessage {
  return {
    projectName: 'p',
    pipelineName: 'edges',
    jobId: 'j',
    workerId: 'w',
    datumId: 'd',
    master: false,
    data: [],
    user: true,
    ts: '2024-01-01T00:00:00Z',
    message: `line ${n}`,
  };
}

const allLines = Array.from({ length: LINES }, (_, n) => line(n));

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

function setup() {
  const whole = deferred<LogMessage[]>();
  const client = createFakeApiClient({
    'pps_v2.API/GetLogs': (body) => {
      const tail = Number((body as { tail: string }).tail);
      return tail > 0 ? allLines.slice(-tail) : whole.promise;
    },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={client}>{children}</ApiProvider>
    </QueryClientProvider>
  );
  return { client, whole, wrapper };
}

describe('useLogStream', () => {
  it('shows the newest lines from one tail answer, then the whole log once it has caught up', async () => {
    const { client, whole, wrapper } = setup();
    const { result } = renderHook(
      () => useLogStream({ project: 'p', pipeline: 'edges', jobId: 'j', follow: true }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.rows).toHaveLength(TAIL_FIRST_LINES));
    expect(result.current.rows.at(-1)?.message).toBe(`line ${LINES - 1}`);
    expect(result.current.status).toBe('streaming');
    expect(result.current.indexShift).toBe(0);
    // The tail was asked for first (not followed); the whole log only after it answered.
    const asked = client.calls.map((call) => call.body as { tail: string; follow: boolean });
    expect(asked[0]).toMatchObject({ tail: String(TAIL_FIRST_LINES), follow: false });
    await waitFor(() => expect(client.calls).toHaveLength(2));
    expect(client.calls[1]?.body).toMatchObject({ tail: '0', follow: true });

    whole.resolve(allLines);
    await waitFor(() => expect(result.current.status).toBe('done'));
    expect(result.current.rows).toHaveLength(LINES);
    expect(result.current.rows[0]?.message).toBe('line 0');
    // A selection made in the tail moves by this much to keep its lines.
    expect(result.current.indexShift).toBe(LINES - TAIL_FIRST_LINES);
  });

  it("shows none of the previous request's lines while the next request's tail is on its way", async () => {
    const { whole, wrapper } = setup();
    whole.resolve(allLines);
    const { result, rerender } = renderHook(
      ({ datumId }: { datumId?: string }) =>
        useLogStream({ project: 'p', pipeline: 'edges', jobId: 'j', datumId, follow: true }),
      { wrapper, initialProps: {} },
    );
    await waitFor(() => expect(result.current.status).toBe('done'));
    expect(result.current.rows).toHaveLength(LINES);
    rerender({ datumId: 'd' });
    expect(result.current.rows).toHaveLength(0);
    expect(result.current.status).toBe('streaming');
    await waitFor(() => expect(result.current.status).toBe('done'));
    expect(result.current.rows).toHaveLength(LINES);
  });

  it('streams at once, without a tail answer, when the request asks for a tail itself', async () => {
    const { client, wrapper } = setup();
    const { result } = renderHook(
      () => useLogStream({ project: 'p', pipeline: 'edges', tail: 5 }),
      {
        wrapper,
      },
    );
    await waitFor(() => expect(result.current.rows).toHaveLength(5));
    expect(client.calls).toHaveLength(1);
    expect(result.current.indexShift).toBe(0);
  });
});

describe('findTailEnd', () => {
  const rows = allLines.map(toLogRow);
  const tail = rows.slice(-3);

  it("finds the tail's last line from where the last scan stopped", () => {
    expect(findTailEnd(rows.slice(0, 10), tail, 0)).toBe(-1);
    expect(findTailEnd(rows, tail, 10)).toBe(LINES - 1);
  });

  it('tells a repeated message apart by its time, datum and worker', () => {
    const same = { ...line(LINES - 1), ts: '2023-01-01T00:00:00Z' };
    expect(findTailEnd([toLogRow(same, 0)], tail, 0)).toBe(-1);
    expect(findTailEnd(rows, [], 0)).toBe(-1);
  });
});
