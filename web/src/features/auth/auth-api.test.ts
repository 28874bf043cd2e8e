import { afterEach, describe, expect, it, vi } from 'vitest';
import { authApi, isAuthDisabled } from './auth-api.ts';

function answer(status: number, body: unknown) {
  return vi.spyOn(globalThis, 'fetch').mockResolvedValue(
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    }),
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('authApi', () => {
  it('GET /auth/config', async () => {
    const fetch = answer(200, { authEndpoint: '/auth', clientId: 'c', pachdClientId: 'p' });
    expect(await authApi.config()).toEqual({
      authEndpoint: '/auth',
      clientId: 'c',
      pachdClientId: 'p',
    });
    expect(fetch.mock.calls[0]![0]).toBe('/auth/config');
  });

  it('auth config fails with the server message when not ok or when it carries a message', async () => {
    answer(503, { message: 'issuer unreachable' });
    await expect(authApi.config()).rejects.toThrow('issuer unreachable');
    vi.restoreAllMocks();
    answer(200, { authEndpoint: '', clientId: '', pachdClientId: '', message: 'misconfigured' });
    await expect(authApi.config()).rejects.toThrow('misconfigured');
  });

  it('every value empty means authentication is disabled', () => {
    expect(isAuthDisabled({ authEndpoint: '', clientId: '', pachdClientId: '' })).toBe(true);
    expect(isAuthDisabled({ authEndpoint: '/auth', clientId: 'c', pachdClientId: '' })).toBe(false);
  });

  it('POST /auth/exchange with the code and redirect URI; fails with the server message without idToken', async () => {
    const fetch = answer(200, { idToken: 'tok' });
    expect(await authApi.exchange('code1', 'http://x/oauth/callback/')).toBe('tok');
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/auth/exchange');
    expect(init).toMatchObject({ method: 'POST' });
    expect(JSON.parse(String(init!.body))).toEqual({
      code: 'code1',
      redirectUri: 'http://x/oauth/callback/',
    });
    vi.restoreAllMocks();
    answer(200, { message: 'code already used' });
    await expect(authApi.exchange('c', 'r')).rejects.toThrow('code already used');
    vi.restoreAllMocks();
    answer(400, { message: 'invalid_grant' });
    await expect(authApi.exchange('c', 'r')).rejects.toThrow('invalid_grant');
  });

  it('POST /auth/account with the id token', async () => {
    const fetch = answer(200, { name: 'Alice', email: 'a@x', id: 'alice' });
    expect(await authApi.account('tok')).toEqual({ name: 'Alice', email: 'a@x', id: 'alice' });
    expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toEqual({ idToken: 'tok' });
  });
});
