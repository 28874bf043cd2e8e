import { isConnectivityError } from '@ivory/api';
import { useEffect, useState } from 'react';
import { CONNECTIVITY_MESSAGE, type ErrorView } from './error-types.ts';

/** Uncaught errors with these messages are ignored and the app keeps rendering (spec section 8). */
export const IGNORED_UNCAUGHT_MESSAGES = [
  'Failed to fetch',
  'network error',
  'ensure repo exists: repo',
];

/**
 * Browser noise that is not an application failure: Chromium reports ResizeObserver loop
 * notices (raised by resizing tables) as window errors.
 */
const BROWSER_NOISE = [/^ResizeObserver loop/];

export function uncaughtMessageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message } = error as { message: unknown };
    if (typeof message === 'string') return message;
  }
  return String(error);
}

/** What the top level shows for an uncaught error, or null when it is ignored. */
export function uncaughtErrorView(error: unknown, source?: string): ErrorView | null {
  const message = uncaughtMessageOf(error);
  const lower = message.toLowerCase();
  if (IGNORED_UNCAUGHT_MESSAGES.some((ignored) => lower.includes(ignored.toLowerCase())))
    return null;
  if (BROWSER_NOISE.some((pattern) => pattern.test(message))) return null;
  if (isConnectivityError(error) || isConnectivityError(message)) {
    return { type: 'GENERIC', message: CONNECTIVITY_MESSAGE };
  }
  const stack = error instanceof Error ? error.stack : undefined;
  return {
    type: 'GENERIC',
    message: `Uncaught error: ${message}`,
    ...(source ? { source } : {}),
    ...(stack ? { stack } : {}),
  };
}

function sourceOf(event: ErrorEvent): string | undefined {
  if (!event.filename) return undefined;
  return event.lineno ? `${event.filename}:${event.lineno}:${event.colno}` : event.filename;
}

/**
 * Listens for window 'error' and 'unhandledrejection'; returns the error view to show (null
 * while there is none). `resetKey` (e.g. the path) clears it.
 */
export function useUncaughtError(resetKey: string, target: Window = window): ErrorView | null {
  const [view, setView] = useState<{ key: string; view: ErrorView } | null>(null);

  useEffect(() => {
    const onError = (event: ErrorEvent) => {
      const next = uncaughtErrorView(event.error ?? event.message, sourceOf(event));
      if (next) setView({ key: resetKey, view: next });
    };
    const onRejection = (event: PromiseRejectionEvent) => {
      const next = uncaughtErrorView(event.reason);
      if (next) setView({ key: resetKey, view: next });
    };
    target.addEventListener('error', onError);
    target.addEventListener('unhandledrejection', onRejection);
    return () => {
      target.removeEventListener('error', onError);
      target.removeEventListener('unhandledrejection', onRejection);
    };
  }, [resetKey, target]);

  return view && view.key === resetKey ? view.view : null;
}
