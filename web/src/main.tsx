import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { createApiClient } from '@ivory/api';
import { AppProviders } from './app/providers.tsx';
import { apiAccessible, authConfigQuery } from './features/auth/api-access.ts';
import { AuthProvider } from './features/auth/AuthProvider.tsx';
import { startTelemetry } from './features/telemetry/telemetry.ts';
import { createQueryClient } from './app/query-client.ts';
import { appRoutes } from './app/router.tsx';

// Attribution cookies now; analytics and error reporting load later, only when configured.
startTelemetry();

const root = document.getElementById('root');
if (!root) throw new Error('missing #root element');

const client = createApiClient();
const queryClient = createQueryClient();
// The sign-in step renders nothing until GET /auth/config answers: ask first, before the code
// of the first screen takes the browser's connections.
void queryClient.prefetchQuery(authConfigQuery());
// Created before the first render: the first route's screen code and first requests start
// loading at once, in parallel with the sign-in step's own request.
const router = createBrowserRouter(
  appRoutes({ queryClient, client, apiAccessible: () => apiAccessible(queryClient) }),
);

createRoot(root).render(
  <StrictMode>
    <AppProviders client={client} queryClient={queryClient}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </AppProviders>
  </StrictMode>,
);
