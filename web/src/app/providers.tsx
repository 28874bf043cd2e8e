import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import type { ApiClient } from '@ivory/api';
import { ToastProvider } from '../ui/Toast/Toast.tsx';
import { ApiProvider } from './api-context.tsx';
import { ColorModeProvider } from './color-mode.tsx';
import { consoleTheme } from './theme.ts';
import { consoleDarkTheme } from './theme-dark.ts';
import './global.css';

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
        <ColorModeProvider>
          {(mode) => (
            <ConfigProvider theme={mode === 'dark' ? consoleDarkTheme : consoleTheme}>
              <ToastProvider>{children}</ToastProvider>
            </ConfigProvider>
          )}
        </ColorModeProvider>
      </ApiProvider>
    </QueryClientProvider>
  );
}
