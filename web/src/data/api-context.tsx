import { createContext, use, type ReactNode } from 'react';
import type { ApiClient } from '@ivory/api';

const ApiClientContext = createContext<ApiClient | null>(null);

/** Supplies the platform client; tests pass another implementation of ApiClient. */
export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiClientContext value={client}>{children}</ApiClientContext>;
}

/** The platform client of the nearest ApiProvider. */
export function useApi(): ApiClient {
  const client = use(ApiClientContext);
  if (!client) throw new Error('useApi must be used inside an ApiProvider');
  return client;
}
