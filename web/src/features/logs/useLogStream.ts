import { useEffect, useState, useSyncExternalStore } from 'react';
import { streamLogs, type GetLogsArgs } from '@ivory/api';
import { useApi } from '../../app/api-context.tsx';
import { LogBuffer } from './log-buffer.ts';

export type LogStreamStatus = 'streaming' | 'done' | 'error';

interface StreamState {
  buffer: LogBuffer;
  status: LogStreamStatus;
  error: string;
}

/**
 * Streams GetLogs (with `follow`) into a LogBuffer; lines arrive in batches of one animation
 * frame. Each query (and each run of the effect) gets its own buffer, so a restarted stream never
 * appends to an old one; the stream is closed on unmount or when the query changes.
 */
export function useLogStream(args: GetLogsArgs, enabled = true) {
  const client = useApi();
  const key = JSON.stringify(args);
  const [state, setState] = useState<StreamState>(() => ({
    buffer: new LogBuffer(),
    status: 'streaming',
    error: '',
  }));

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const buffer = new LogBuffer();
    setState({ buffer, status: 'streaming', error: '' });
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
  }, [client, key, enabled]);

  const version = useSyncExternalStore(state.buffer.subscribe, state.buffer.getVersion);
  return { buffer: state.buffer, version, status: state.status, error: state.error };
}
