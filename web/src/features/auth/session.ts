import { ID_TOKEN_STORAGE_KEY } from '@ivory/api';
import { jwtDecode } from 'jwt-decode';
import { deleteCookie, isHttps, setCookie } from './cookies.ts';

/** Storage keys and cookies of the signed-in session (spec sections 4 and 9). */
export const ID_TOKEN_KEY = ID_TOKEN_STORAGE_KEY; // 'id-token'
export const AUTH_TOKEN_KEY = 'auth-token';
export const AUTH_TOKEN_COOKIE = 'auth-token';
export const DASH_ADDRESS_COOKIE = 'dash-address';

/** The stored id token ('' when authentication is disabled, null when there is none). */
export function storedToken(): string | null {
  return localStorage.getItem(ID_TOKEN_KEY);
}

/** Login state: logged in when an id token exists in local storage. */
export function hasStoredToken(): boolean {
  return Boolean(storedToken());
}

/** After a successful code exchange: local storage and a 365-day SameSite=Strict cookie. */
export function saveToken(token: string, protocol: string = window.location.protocol): void {
  localStorage.setItem(ID_TOKEN_KEY, token);
  localStorage.setItem(AUTH_TOKEN_KEY, token);
  setCookie(AUTH_TOKEN_COOKIE, token, { sameSite: 'Strict', secure: isHttps(protocol) });
}

/** Authentication disabled: an empty token is stored and the user is not logged in. */
export function storeEmptyToken(): void {
  localStorage.setItem(ID_TOKEN_KEY, '');
  localStorage.setItem(AUTH_TOKEN_KEY, '');
}

/** Removes the token from storage and cookie. */
export function removeToken(): void {
  localStorage.removeItem(ID_TOKEN_KEY);
  localStorage.removeItem(AUTH_TOKEN_KEY);
  deleteCookie(AUTH_TOKEN_COOKIE);
}

/** Whether a token's `exp` claim is in the past. Malformed tokens throw 'Invalid token specified…'. */
export function isTokenExpired(token: string, nowMs: number = Date.now()): boolean {
  const { exp } = jwtDecode(token);
  return typeof exp === 'number' && exp * 1000 <= nowMs;
}

export interface BrowserLocation {
  reload(): void;
  assign(url: string): void;
  readonly pathname: string;
}

/**
 * Run on every path change: an expired (or undecodable) token is removed from storage and
 * cookie and the page reloads. Returns true when it did so.
 */
export function checkTokenExpiry(
  nowMs: number = Date.now(),
  location: BrowserLocation = window.location,
): boolean {
  const token = storedToken();
  if (!token) return false;
  let expired: boolean;
  try {
    expired = isTokenExpired(token, nowMs);
  } catch (error) {
    console.error(error);
    expired = true;
  }
  if (!expired) return false;
  removeToken();
  location.reload();
  return true;
}

/** Sign-out: clears auth-token, id-token, the auth-token and dash-address cookies, then goes to /. */
export function signOut(location: BrowserLocation = window.location): void {
  localStorage.removeItem(AUTH_TOKEN_KEY);
  localStorage.removeItem(ID_TOKEN_KEY);
  deleteCookie(AUTH_TOKEN_COOKIE);
  deleteCookie(DASH_ADDRESS_COOKIE);
  location.assign('/');
}

let forcedSignOutStarted = false;

/**
 * The sign-out forced by an unauthenticated error (codes 16 and 13). It only acts when there is
 * a session to end (a stored token), so with authentication disabled it never loops on '/', and
 * it runs once however many queries fail together.
 */
export function forceSignOut(location: BrowserLocation = window.location): boolean {
  if (forcedSignOutStarted || !hasStoredToken()) return false;
  forcedSignOutStarted = true;
  signOut(location);
  return true;
}

/** Tests only. */
export function resetForcedSignOut(): void {
  forcedSignOutStarted = false;
}
