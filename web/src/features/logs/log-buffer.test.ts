import { describe, expect, it } from 'vitest';
import type { LogMessage } from '@ivory/api';
import {
  createIncrementalFilter,
  defaultLogFilter,
  filterLogRows,
  LogBuffer,
  nextSelection,
  rowsAsText,
  splitMatches,
  toLogRow,
} from './log-buffer.ts';

function message(text: string, user = true, ts = '2024-01-01T00:00:00Z'): LogMessage {
  return {
    projectName: 'p',
    pipelineName: 'edges',
    jobId: 'j',
    workerId: '',
    datumId: 'd',
    master: !user,
    data: [],
    user,
    ts,
    message: text,
  };
}

describe('LogBuffer', () => {
  it('appends pushed lines in one batch per scheduled frame', () => {
    const frames: Array<() => void> = [];
    const buffer = new LogBuffer((flush) => frames.push(flush));
    let notified = 0;
    buffer.subscribe(() => notified++);
    for (let i = 0; i < 1000; i++) buffer.push(message(`line ${i}`));
    expect(frames).toHaveLength(1);
    expect(buffer.rows).toHaveLength(0);
    frames[0]?.();
    expect(buffer.rows).toHaveLength(1000);
    expect(buffer.rows[999]?.index).toBe(999);
    expect(notified).toBe(1);
    expect(buffer.version).toBe(1);
    buffer.push(message('next'));
    expect(frames).toHaveLength(2);
    frames[1]?.();
    expect(buffer.rows).toHaveLength(1001);
    expect(notified).toBe(2);
  });

  it('keeps 100,000 lines without scheduling more than one frame', () => {
    let scheduled = 0;
    let pending: (() => void) | null = null;
    const buffer = new LogBuffer((flush) => {
      scheduled++;
      pending = flush;
    });
    for (let i = 0; i < 100_000; i++) buffer.push(message(`line ${i}`));
    (pending as unknown as () => void)();
    expect(scheduled).toBe(1);
    expect(buffer.rows).toHaveLength(100_000);
  });
});

describe('filtering', () => {
  const rows = [
    message('started datum', false, '2024-01-01T00:00:00Z'),
    message('Hello World', true, '2024-01-01T00:01:00Z'),
    message('hello again', true, '2024-01-01T00:02:00Z'),
    message('datum failed: exit code 1', false, '2024-01-01T00:03:00Z'),
  ].map(toLogRow);

  it('toggles user and system lines', () => {
    expect(filterLogRows(rows, { ...defaultLogFilter, showSystem: false })).toHaveLength(2);
    expect(filterLogRows(rows, { ...defaultLogFilter, showUser: false })).toHaveLength(2);
  });

  it('searches case-insensitively', () => {
    expect(
      filterLogRows(rows, { ...defaultLogFilter, search: 'HELLO' }).map((r) => r.message),
    ).toEqual(['Hello World', 'hello again']);
  });

  it('filters by time window', () => {
    const since = Date.parse('2024-01-01T00:02:00Z');
    expect(filterLogRows(rows, { ...defaultLogFilter, since })).toHaveLength(2);
  });

  it('filters only appended rows while the filter is unchanged', () => {
    const filter = createIncrementalFilter();
    const live = rows.slice(0, 2);
    const active = { ...defaultLogFilter, search: 'hello' };
    expect(filter(live, active)).toHaveLength(1);
    live.push(rows[2] as (typeof rows)[number]);
    expect(filter(live, active)).toHaveLength(2);
    // No filter: the source list itself.
    expect(filter(live, defaultLogFilter)).toBe(live);
  });

  it('splits matches for highlighting', () => {
    expect(splitMatches('a Hello hello', 'hello')).toEqual([
      { text: 'a ', match: false },
      { text: 'Hello', match: true },
      { text: ' ', match: false },
      { text: 'hello', match: true },
    ]);
  });

  it('selects ranges with shift and copies them as text', () => {
    const one = nextSelection(new Set(), null, 1, rows, false);
    expect([...one]).toEqual([1]);
    const range = nextSelection(one, 1, 3, rows, true);
    expect([...range]).toEqual([1, 2, 3]);
    const text = rowsAsText(rows.filter((r) => range.has(r.index)));
    expect(text.split('\n')).toHaveLength(3);
    expect(text).toContain('Hello World');
    expect(rowsAsText([rows[0] as (typeof rows)[number]], true)).toContain('"message"');
  });
});
