import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import type { ApiClient } from '@ivory/api';
import { ToastProvider } from '../ui/Toast/Toast.tsx';
import { ApiProvider } from './api-context.tsx';

export function AppProviders({
  client,
  queryClient,
  children,
}: {
  client: ApiClient;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={client}>
        <ConfigProvider theme={{ token: { colorPrimary: '#5d2ca8' } }}>
          <ToastProvider>{children}</ToastProvider>
        </ConfigProvider>
      </ApiProvider>
    </QueryClientProvider>
  );
}
