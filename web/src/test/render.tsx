import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { ApiClient } from '@ivory/api';
import { AppProviders } from '../app/providers.tsx';
import { appRoutes } from '../app/router.tsx';
import { createFakeApiClient } from './fake-api-client.ts';

/** Renders the whole app at `path` with a test ApiClient; returns the user-event object too. */
export function renderApp(path: string, client: ApiClient = createFakeApiClient({})) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const routes = appRoutes({ queryClient, client, apiAccessible: async () => true });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const result = render(
    <AppProviders client={client} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, user, router };
}
