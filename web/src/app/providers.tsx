import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import type { ApiClient } from '@ivory/api';
import { ToastProvider } from '../ui/Toast/Toast.tsx';
import { ApiProvider } from './api-context.tsx';
import { consoleTheme } from './theme.ts';

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
        <ConfigProvider theme={consoleTheme}>
          <ToastProvider>{children}</ToastProvider>
        </ConfigProvider>
      </ApiProvider>
    </QueryClientProvider>
  );
}
