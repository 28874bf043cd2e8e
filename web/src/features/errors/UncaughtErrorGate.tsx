import { Suspense, lazy, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { PageLoader } from '../../ui/PageLoader/PageLoader.tsx';
import { useUncaughtError } from './uncaught.ts';

const ErrorScreen = lazy(async () => ({
  default: (await import('./ErrorScreen.tsx')).ErrorScreen,
}));

/**
 * Top-level uncaught errors (window 'error' / 'unhandledrejection'): the error screen with
 * 'Uncaught error: {message}', source, stack and Go Back Home, until the path changes.
 */
export function UncaughtErrorGate({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const view = useUncaughtError(pathname);
  if (!view) return children;
  return (
    <Suspense fallback={<PageLoader />}>
      <ErrorScreen {...view} />
    </Suspense>
  );
}
