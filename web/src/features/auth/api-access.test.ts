import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiAccessible } from './api-access.ts';
import type { AuthApi, AuthConfig } from './auth-api.ts';
import { ID_TOKEN_KEY } from './session.ts';

const ISSUER = 'https://issuer.example';
const enabledConfig: AuthConfig = { authEndpoint: '/auth', clientId: 'console', pachdClientId: '' };
const disabledConfig: AuthConfig = { authEndpoint: '', clientId: '', pachdClientId: '' };

function authApiWith(config: () => Promise<AuthConfig>): AuthApi {
  return { config: vi.fn(config), exchange: vi.fn(), account: vi.fn() };
}

/** An unsigned JWT: only its `exp` is read. */
function fakeJwt(payload: Record<string, unknown>): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part(payload)}.signature`;
}

const queryClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('apiAccessible', () => {
  afterEach(() => localStorage.clear());

  it('is true with a live token, without asking the server', async () => {
    localStorage.setItem(ID_TOKEN_KEY, fakeJwt({ exp: nowSeconds() + 3600 }));
    const api = authApiWith(async () => enabledConfig);
    expect(await apiAccessible(queryClient(), api, ISSUER)).toBe(true);
    expect(api.config).not.toHaveBeenCalled();
  });

  it('is true when the runtime settings name no issuer (authentication off)', async () => {
    const api = authApiWith(async () => enabledConfig);
    expect(await apiAccessible(queryClient(), api, '')).toBe(true);
    expect(api.config).not.toHaveBeenCalled();
  });

  it('asks /auth/config when there is an issuer and no live token', async () => {
    localStorage.setItem(ID_TOKEN_KEY, fakeJwt({ exp: nowSeconds() - 60 }));
    expect(
      await apiAccessible(
        queryClient(),
        authApiWith(async () => enabledConfig),
        ISSUER,
      ),
    ).toBe(false);
    expect(
      await apiAccessible(
        queryClient(),
        authApiWith(async () => disabledConfig),
        ISSUER,
      ),
    ).toBe(true);
  });

  it('is false when the auth config cannot be read (after its retries)', async () => {
    vi.useFakeTimers();
    try {
      const api = authApiWith(async () => {
        throw new Error('down');
      });
      const accessible = apiAccessible(queryClient(), api, ISSUER);
      await vi.runAllTimersAsync();
      expect(await accessible).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
