import { Suspense, lazy } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { PageLoader } from '../../ui/PageLoader/PageLoader.tsx';
import { ERROR_MESSAGES, errorViewOf, type ErrorView } from './error-types.ts';

const ErrorScreen = lazy(async () => ({
  default: (await import('./ErrorScreen.tsx')).ErrorScreen,
}));

/** The router's error element: maps whatever a screen threw onto the (lazily loaded) error screen. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const view: ErrorView =
    isRouteErrorResponse(error) && error.status === 404
      ? { type: 'NOT_FOUND', message: ERROR_MESSAGES.NOT_FOUND }
      : errorViewOf(error);
  return (
    <Suspense fallback={<PageLoader />}>
      <ErrorScreen {...view} />
    </Suspense>
  );
}
