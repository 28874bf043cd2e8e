import type { LogMessage } from '@ivory/api';

/** One log line as the viewer shows it. */
export interface LogRow {
  /** Position in arrival order (stable across filters, used for selection). */
  index: number;
  /** Milliseconds since the epoch, or NaN when the line has no time. */
  time: number;
  message: string;
  /** Written by the user's code (stdout/stderr), not by the runner. */
  user: boolean;
  datumId: string;
  jobId: string;
  raw: LogMessage;
}

export function toLogRow(message: LogMessage, index: number): LogRow {
  return {
    index,
    time: message.ts ? Date.parse(message.ts) : Number.NaN,
    message: message.message ?? '',
    user: message.user === true,
    datumId: message.datumId ?? '',
    jobId: message.jobId ?? '',
    raw: message,
  };
}

type Schedule = (flush: () => void) => void;

const animationFrame: Schedule = (flush) =>
  typeof requestAnimationFrame === 'function'
    ? requestAnimationFrame(flush)
    : setTimeout(flush, 16);

/**
 * The lines of one log stream. Arriving lines are queued and appended in one batch per animation
 * frame, so a stream of 100,000 lines re-renders the viewer at most once a frame. `rows` is
 * appended in place; `version` changes with every batch (a snapshot for useSyncExternalStore).
 */
export class LogBuffer {
  readonly rows: LogRow[] = [];
  version = 0;
  private pending: LogMessage[] = [];
  private scheduled = false;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly schedule: Schedule = animationFrame) {}

  push(message: LogMessage) {
    this.pending.push(message);
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }

  /** Appends the queued lines now and notifies once. */
  flush() {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    for (const message of batch) this.rows.push(toLogRow(message, this.rows.length));
    this.version++;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getVersion = () => this.version;
}

export interface LogFilter {
  showUser: boolean;
  showSystem: boolean;
  /** Case-insensitive text the line must contain; '' for any. */
  search: string;
  /** Only lines at or after this time (ms since epoch). */
  since?: number;
}

export const defaultLogFilter: LogFilter = { showUser: true, showSystem: true, search: '' };

export function isFilterActive(filter: LogFilter): boolean {
  return (
    !filter.showUser || !filter.showSystem || filter.search !== '' || filter.since !== undefined
  );
}

export function lineMatches(row: LogRow, filter: LogFilter, needle = filter.search.toLowerCase()) {
  if (row.user ? !filter.showUser : !filter.showSystem) return false;
  if (filter.since !== undefined && !(row.time >= filter.since)) return false;
  if (needle && !row.message.toLowerCase().includes(needle)) return false;
  return true;
}

export function filterLogRows(rows: readonly LogRow[], filter: LogFilter): LogRow[] {
  const needle = filter.search.toLowerCase();
  return rows.filter((row) => lineMatches(row, filter, needle));
}

/**
 * Filters a growing list incrementally: while the filter stays the same, only the rows appended
 * since the last call are tested. With no filter active the source list itself is returned.
 */
export function createIncrementalFilter() {
  let lastFilter: LogFilter | null = null;
  let lastSource: readonly LogRow[] | null = null;
  let seen = 0;
  let result: LogRow[] = [];
  return (rows: readonly LogRow[], filter: LogFilter): readonly LogRow[] => {
    if (!isFilterActive(filter)) return rows;
    if (filter !== lastFilter || rows !== lastSource || rows.length < seen) {
      lastFilter = filter;
      lastSource = rows;
      seen = 0;
      result = [];
    }
    const needle = filter.search.toLowerCase();
    for (let i = seen; i < rows.length; i++) {
      const row = rows[i] as LogRow;
      if (lineMatches(row, filter, needle)) result.push(row);
    }
    seen = rows.length;
    return result;
  };
}

/** Splits a message around case-insensitive matches of `search` for highlighting. */
export function splitMatches(
  text: string,
  search: string,
): Array<{ text: string; match: boolean }> {
  if (!search) return [{ text, match: false }];
  const lower = text.toLowerCase();
  const needle = search.toLowerCase();
  const parts: Array<{ text: string; match: boolean }> = [];
  let at = 0;
  for (let found = lower.indexOf(needle); found !== -1; found = lower.indexOf(needle, at)) {
    if (found > at) parts.push({ text: text.slice(at, found), match: false });
    parts.push({ text: text.slice(found, found + needle.length), match: true });
    at = found + needle.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}

export function formatLogTime(time: number): string {
  if (!Number.isFinite(time)) return '';
  return new Date(time).toISOString().replace('T', ' ').replace('Z', '');
}

/** The text of the given rows for copying or downloading: time, then message (or raw JSON). */
export function rowsAsText(rows: readonly LogRow[], raw = false): string {
  return rows
    .map((row) => (raw ? JSON.stringify(row.raw) : `${formatLogTime(row.time)} ${row.message}`))
    .join('\n');
}

/** Selection after a click: a single row, or with shift a range from the anchor. */
export function nextSelection(
  current: ReadonlySet<number>,
  anchor: number | null,
  clicked: number,
  visible: readonly LogRow[],
  shift: boolean,
): Set<number> {
  if (shift && anchor !== null) {
    const from = visible.findIndex((r) => r.index === anchor);
    const to = visible.findIndex((r) => r.index === clicked);
    if (from !== -1 && to !== -1) {
      const [a, b] = from < to ? [from, to] : [to, from];
      return new Set(visible.slice(a, b + 1).map((r) => r.index));
    }
  }
  if (current.size === 1 && current.has(clicked)) return new Set();
  return new Set([clicked]);
}
