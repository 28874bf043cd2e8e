import { queryOptions } from '@tanstack/react-query';
import { streamLogs, type ApiClient, type GetLogsArgs, type LogMessage } from '@ivory/api';
import { toLogRow, type LogRow } from './log-buffer.ts';

/**
 * How many of the newest lines are asked for first (GetLogs `tail`): a viewer opens at the end of
 * the log, so these fill it from one small answer while the whole log streams in behind them.
 */
export const TAIL_FIRST_LINES = 1000;

/** Whether a stream of `args` shows its tail first: only a request for every line does. */
export const showsTailFirst = (args: GetLogsArgs) => !args.tail && !args.sinceSeconds;

/** The newest TAIL_FIRST_LINES lines of `args`' log, as rows (not followed). */
export const logTailQuery = (client: ApiClient, args: GetLogsArgs) =>
  queryOptions({
    queryKey: ['pps', args.project, 'logs', 'tail', JSON.stringify(args)] as const,
    queryFn: async ({ signal }): Promise<LogRow[]> => {
      const rows: LogRow[] = [];
      const request = { ...args, follow: false, tail: TAIL_FIRST_LINES };
      for await (const message of streamLogs(client, request, signal))
        rows.push(toLogRow(message, rows.length));
      return rows;
    },
    // The whole stream waits for this answer: an error falls back to it at once.
    retry: false,
    // A route loader's answer is not asked for again when the screen mounts just after it.
    staleTime: 5_000,
    gcTime: 30_000,
  });

const sameLine = (a: LogMessage, b: LogMessage) =>
  a.ts === b.ts &&
  a.message === b.message &&
  a.datumId === b.datumId &&
  a.workerId === b.workerId &&
  a.master === b.master;

/**
 * Where the whole stream has caught up with the tail: scans `rows` from `from` for the tail's
 * last line and returns its position in `rows`, or -1 when it has not arrived yet.
 */
export function findTailEnd(rows: readonly LogRow[], tail: readonly LogRow[], from: number) {
  const last = tail[tail.length - 1];
  if (!last) return -1;
  for (let i = from; i < rows.length; i++)
    if (sameLine((rows[i] as LogRow).raw, last.raw)) return i;
  return -1;
}
