import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { createApiClient } from '@ivory/api';
import { AppProviders } from './app/providers.tsx';
import { AuthProvider } from './features/auth/AuthProvider.tsx';
import { startTelemetry } from './features/telemetry/telemetry.ts';
import { createQueryClient } from './app/query-client.ts';
import { appRoutes } from './app/router.tsx';

// Attribution cookies now; analytics and error reporting load later, only when configured.
startTelemetry();

const root = document.getElementById('root');
if (!root) throw new Error('missing #root element');

createRoot(root).render(
  <StrictMode>
    <AppProviders client={createApiClient()} queryClient={createQueryClient()}>
      <AuthProvider>
        <RouterProvider router={createBrowserRouter(appRoutes)} />
      </AuthProvider>
    </AppProviders>
  </StrictMode>,
);
