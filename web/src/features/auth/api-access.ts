import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { readRuntimeSettings } from '../../data/runtime-settings.ts';
import { authApi, isAuthDisabled, type AuthApi } from './auth-api.ts';
import { isTokenExpired, storedToken } from './session.ts';

export const AUTH_CONFIG_RETRIES = 10;
export const authQueryKeys = {
  config: () => ['auth', 'config'] as const,
  account: (token: string) => ['auth', 'account', token] as const,
};

/** GET /auth/config, once per page: the sign-in step and apiAccessible share it. */
export function authConfigQuery(api: AuthApi = authApi) {
  return queryOptions({
    queryKey: authQueryKeys.config(),
    queryFn: () => api.config(),
    retry: AUTH_CONFIG_RETRIES,
    staleTime: Infinity,
  });
}

function hasLiveToken(): boolean {
  const token = storedToken();
  if (!token) return false;
  try {
    return !isTokenExpired(token);
  } catch {
    return false;
  }
}

/**
 * Whether the platform API can be called before the sign-in step has rendered: with a stored,
 * unexpired id token, or when authentication is off. Route loaders check it before starting
 * requests early, so that nothing is sent signed out (the answer would be an authentication
 * error). The runtime settings answer at once: the server gives an issuer exactly when
 * authentication is on; with one, GET /auth/config decides.
 */
export async function apiAccessible(
  queryClient: QueryClient,
  api: AuthApi = authApi,
  issuerUri: string = readRuntimeSettings().issuerUri,
): Promise<boolean> {
  if (hasLiveToken() || issuerUri === '') return true;
  try {
    return isAuthDisabled(await queryClient.fetchQuery(authConfigQuery(api)));
  } catch {
    return false;
  }
}
