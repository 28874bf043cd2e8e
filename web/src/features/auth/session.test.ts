import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cookieString, getCookie, setCookie } from './cookies.ts';
import {
  checkTokenExpiry,
  forceSignOut,
  isTokenExpired,
  resetForcedSignOut,
  saveToken,
  signOut,
  storeEmptyToken,
} from './session.ts';

/** A JWT with the given payload (unsigned: only decoding is tested). */
export function fakeJwt(payload: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part(payload)}.signature`;
}

/** Captures what is written to document.cookie (jsdom drops Secure cookies on http). */
function captureCookieWrites(): string[] {
  const writes: string[] = [];
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => '',
    set: (value: string) => writes.push(value),
  });
  return writes;
}

function fakeLocation(pathname = '/somewhere') {
  return { reload: vi.fn(), assign: vi.fn(), pathname };
}

function clearCookies() {
  for (const part of document.cookie.split('; ')) {
    const name = part.split('=')[0];
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

beforeEach(() => {
  localStorage.clear();
  clearCookies();
  resetForcedSignOut();
});
afterEach(() => {
  // Restore jsdom's own cookie accessor.
  delete (document as unknown as Record<string, unknown>).cookie;
  vi.restoreAllMocks();
});

describe('saveToken', () => {
  it('stores the token as id-token and auth-token and in a cookie', () => {
    saveToken('tok.en.value');
    expect(localStorage.getItem('id-token')).toBe('tok.en.value');
    expect(localStorage.getItem('auth-token')).toBe('tok.en.value');
    expect(getCookie('auth-token')).toBe('tok.en.value');
  });

  it('writes the cookie for 365 days, SameSite=Strict, path /, not Secure on http', () => {
    const now = Date.UTC(2025, 0, 1);
    vi.spyOn(Date, 'now').mockReturnValue(now);
    const writes = captureCookieWrites();
    saveToken('abc', 'http:');
    expect(writes).toEqual([
      `auth-token=abc; expires=${new Date(now + 365 * 86_400_000).toUTCString()}; path=/; SameSite=Strict`,
    ]);
  });

  it('adds Secure on https only', () => {
    const writes = captureCookieWrites();
    saveToken('abc', 'https:');
    expect(writes[0]).toMatch(/; SameSite=Strict; Secure$/);
    expect(cookieString('x', 'y', { secure: false })).not.toMatch(/Secure/);
  });
});

describe('auth disabled', () => {
  it('stores an empty token, which is not a login', () => {
    storeEmptyToken();
    expect(localStorage.getItem('id-token')).toBe('');
    expect(localStorage.getItem('auth-token')).toBe('');
    const location = fakeLocation();
    expect(checkTokenExpiry(Date.now(), location)).toBe(false);
    expect(forceSignOut(location)).toBe(false);
    expect(location.assign).not.toHaveBeenCalled();
  });
});

describe('token expiry', () => {
  const now = 1_700_000_000_000;

  it('compares exp with the current time', () => {
    expect(isTokenExpired(fakeJwt({ exp: now / 1000 + 60 }), now)).toBe(false);
    expect(isTokenExpired(fakeJwt({ exp: now / 1000 - 1 }), now)).toBe(true);
    expect(isTokenExpired(fakeJwt({ sub: 'no-exp' }), now)).toBe(false);
  });

  it.each([
    ['a non-string token', 42 as unknown as string],
    ['a missing part', 'onlyonepart'],
    ['invalid base64', 'a.%%%.c'],
    ['invalid JSON', `a.${btoa('not json')}.c`],
  ])('fails with "Invalid token specified" for %s', (_name, token) => {
    expect(() => isTokenExpired(token, now)).toThrow(/^Invalid token specified/);
  });

  it('an expired token is removed from storage and cookie and the page reloads', () => {
    saveToken(fakeJwt({ exp: now / 1000 - 10 }));
    const location = fakeLocation();
    expect(checkTokenExpiry(now, location)).toBe(true);
    expect(localStorage.getItem('id-token')).toBeNull();
    expect(localStorage.getItem('auth-token')).toBeNull();
    expect(getCookie('auth-token')).toBeUndefined();
    expect(location.reload).toHaveBeenCalledTimes(1);
  });

  it('a valid token stays', () => {
    const token = fakeJwt({ exp: now / 1000 + 10 });
    saveToken(token);
    const location = fakeLocation();
    expect(checkTokenExpiry(now, location)).toBe(false);
    expect(localStorage.getItem('id-token')).toBe(token);
    expect(location.reload).not.toHaveBeenCalled();
  });

  it('an undecodable token is treated as expired', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    saveToken('garbage');
    const location = fakeLocation();
    expect(checkTokenExpiry(now, location)).toBe(true);
    expect(localStorage.getItem('id-token')).toBeNull();
  });
});

describe('signOut', () => {
  it('clears exactly auth-token, id-token and the auth-token and dash-address cookies, then goes to /', () => {
    saveToken('t');
    localStorage.setItem('other', 'kept');
    setCookie('dash-address', 'grpc://x:1');
    setCookie('latest_utm_source', 'kept');
    const location = fakeLocation();
    signOut(location);
    expect(localStorage.getItem('id-token')).toBeNull();
    expect(localStorage.getItem('auth-token')).toBeNull();
    expect(localStorage.getItem('other')).toBe('kept');
    expect(getCookie('auth-token')).toBeUndefined();
    expect(getCookie('dash-address')).toBeUndefined();
    expect(getCookie('latest_utm_source')).toBe('kept');
    expect(location.assign).toHaveBeenCalledWith('/');
  });

  it('a forced sign-out runs once however many calls fail together', () => {
    saveToken('t');
    const location = fakeLocation();
    expect(forceSignOut(location)).toBe(true);
    saveToken('t2');
    expect(forceSignOut(location)).toBe(false);
    expect(location.assign).toHaveBeenCalledTimes(1);
  });
});
