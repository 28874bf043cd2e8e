/** Browser cookie helpers shared by sign-in and attribution (spec section 9: 365 days). */
export const COOKIE_LIFETIME_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface CookieOptions {
  days?: number;
  /** Secure is added only on https unless forced. */
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  now?: number;
}

/** Secure only on https (spec section 9). */
export function isHttps(protocol: string | undefined = globalThis.location?.protocol): boolean {
  return protocol === 'https:';
}

/** The Set-Cookie style string written to document.cookie. */
export function cookieString(name: string, value: string, options: CookieOptions = {}): string {
  const days = options.days ?? COOKIE_LIFETIME_DAYS;
  const expires = new Date((options.now ?? Date.now()) + days * DAY_MS).toUTCString();
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `expires=${expires}`,
    'path=/',
    `SameSite=${options.sameSite ?? 'Strict'}`,
  ];
  if (options.secure ?? isHttps()) parts.push('Secure');
  return parts.join('; ');
}

export function setCookie(name: string, value: string, options: CookieOptions = {}): void {
  document.cookie = cookieString(name, value, options);
}

export function getCookie(name: string): string | undefined {
  for (const part of document.cookie ? document.cookie.split('; ') : []) {
    const index = part.indexOf('=');
    const key = index === -1 ? part : part.slice(0, index);
    if (key === name) {
      const raw = index === -1 ? '' : part.slice(index + 1);
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

export function deleteCookie(name: string): void {
  document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Strict${
    isHttps() ? '; Secure' : ''
  }`;
}
