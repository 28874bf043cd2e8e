/** Where API calls read the bearer identity token from. */
export type TokenProvider = () => string | null | undefined;

export const ID_TOKEN_STORAGE_KEY = 'id-token';

/** Reads the id token from localStorage when there is one (browsers); null elsewhere (Node). */
export const localStorageToken: TokenProvider = () =>
  // Through globalThis, so the module also typechecks in Node-only programs (server tests).
  (globalThis as { localStorage?: { getItem(key: string): string | null } }).localStorage?.getItem(
    ID_TOKEN_STORAGE_KEY,
  ) ?? null;

export function authorizationHeader(getToken: TokenProvider): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}
