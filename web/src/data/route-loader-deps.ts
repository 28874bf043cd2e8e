import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '@ivory/api';

/** What route loaders use to start a screen's first requests while its code loads. */
export interface RouteLoaderDeps {
  queryClient: QueryClient;
  client: ApiClient;
  /** Whether the API may be called yet: signed in, or sign-in off (see apiAccessible). */
  apiAccessible: () => Promise<boolean>;
}
