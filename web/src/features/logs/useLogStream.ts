import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { streamLogs, type GetLogsArgs } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { LogBuffer, type LogRow } from './log-buffer.ts';
import { findTailEnd, logTailQuery, showsTailFirst } from './log-tail.ts';

export type LogStreamStatus = 'streaming' | 'done' | 'error';

interface StreamState {
  /** The request (JSON) this stream answers. */
  key: string;
  buffer: LogBuffer;
  status: LogStreamStatus;
  error: string;
  /** Where the stream caught up with the tail shown first (see useLogStream); -1 until then. */
  tailEnd: number;
  /** The stream's rows scanned for the tail's last line so far. */
  scanned: number;
}

const newState = (key: string): StreamState => ({
  key,
  buffer: new LogBuffer(),
  status: 'streaming',
  error: '',
  tailEnd: -1,
  scanned: 0,
});

/** Stands in (with no rows) for the stream of a request that has not started yet. */
const notStarted = newState('');

/**
 * Streams GetLogs (with `follow`) into a LogBuffer; lines arrive in batches of one animation
 * frame. Each query (and each run of the effect) gets its own buffer, so a restarted stream never
 * appends to an old one; the stream is closed on unmount or when the query changes.
 *
 * A request for every line shows the log's newest lines first: one small GetLogs `tail` answer
 * (logTailQuery, which a route loader may already have asked for) fills the viewer, and the whole
 * stream starts once it has answered, so it does not hold that answer up. The rows shown switch
 * to the stream's when the stream has caught up with the tail's last line (or has ended);
 * `indexShift` then says how far the shown rows' indexes moved (a selection made in the tail
 * keeps its lines).
 */
export function useLogStream(args: GetLogsArgs, enabled = true) {
  const client = useApi();
  const key = JSON.stringify(args);
  const tailFirst = showsTailFirst(args);
  const tail = useQuery({ ...logTailQuery(client, args), enabled: enabled && tailFirst });
  const streaming = enabled && (!tailFirst || tail.status !== 'pending');
  const [stored, setState] = useState<StreamState>(() => newState(key));
  // Until the stream of a new request starts, nothing of the previous request's is shown.
  const state = stored.key === key ? stored : { ...notStarted, key };

  useEffect(() => {
    if (!streaming) return;
    const controller = new AbortController();
    const next = newState(key);
    const { buffer } = next;
    setState(next);
    const request = JSON.parse(key) as GetLogsArgs;
    (async () => {
      try {
        for await (const message of streamLogs(client, request, controller.signal))
          buffer.push(message);
        buffer.flush();
        setState((s) => (s.buffer === buffer ? { ...s, status: 'done' } : s));
      } catch (error) {
        if (controller.signal.aborted) return;
        buffer.flush();
        const message = error instanceof Error ? error.message : String(error);
        setState((s) => (s.buffer === buffer ? { ...s, status: 'error', error: message } : s));
      }
    })();
    return () => controller.abort();
  }, [client, key, streaming]);

  const version = useSyncExternalStore(state.buffer.subscribe, state.buffer.getVersion);
  const tailRows = tailFirst ? tail.data : undefined;
  let rows: readonly LogRow[] = state.buffer.rows;
  let indexShift = 0;
  if (tailRows && tailRows.length > 0) {
    // Scanned once per arriving batch, from where the last scan stopped (kept on the state,
    // which belongs to this one stream).
    if (state.tailEnd === -1) {
      state.tailEnd = findTailEnd(state.buffer.rows, tailRows, state.scanned);
      state.scanned = state.buffer.rows.length;
    }
    const caughtUp = state.tailEnd !== -1 || state.status !== 'streaming';
    if (!caughtUp) rows = tailRows;
    else
      indexShift =
        (state.tailEnd === -1 ? state.buffer.rows.length : state.tailEnd + 1) - tailRows.length;
  }
  return {
    rows,
    version: rows === tailRows ? -1 : version,
    status: rows === tailRows ? ('streaming' as const) : state.status,
    error: state.error,
    indexShift,
  };
}
