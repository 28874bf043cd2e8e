import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import type { ApiClient } from '@ivory/api';
import { ToastProvider } from '../ui/Toast/Toast.tsx';
import { ApiProvider } from '../data/api-context.tsx';
import { ColorModeProvider } from '../ui/theme/color-mode.tsx';
import { consoleTheme } from '../ui/theme/theme.ts';
import { consoleDarkTheme } from '../ui/theme/theme-dark.ts';
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
