import { fetchText, parseJsonOrText } from '@ivory/api';

/** GET /auth/config: all values empty when authentication is off. */
export interface AuthConfig {
  authEndpoint: string;
  clientId: string;
  pachdClientId: string;
}

/** POST /auth/account. */
export interface Account {
  name: string;
  email: string;
  id: string;
}

export interface AuthApi {
  config(): Promise<AuthConfig>;
  exchange(code: string, redirectUri: string): Promise<string>;
  account(idToken: string): Promise<Account>;
}

type Body = Record<string, unknown>;

async function call(url: string, body?: unknown): Promise<Body> {
  const text = await fetchText(url, body === undefined ? {} : { method: 'POST', body });
  const parsed = parseJsonOrText<Body>(text);
  return typeof parsed === 'object' && parsed !== null ? parsed : {};
}

function str(body: Body, field: string): string {
  const value = body[field];
  return typeof value === 'string' ? value : '';
}

/** Every value of the config empty: authentication is disabled. */
export function isAuthDisabled(config: AuthConfig): boolean {
  return config.authEndpoint === '' && config.clientId === '' && config.pachdClientId === '';
}

/** The browser's auth calls (no /api prefix). Failures throw with the server message. */
export const authApi: AuthApi = {
  async config() {
    const body = await call('/auth/config');
    if (str(body, 'message')) throw new Error(str(body, 'message'));
    return {
      authEndpoint: str(body, 'authEndpoint'),
      clientId: str(body, 'clientId'),
      pachdClientId: str(body, 'pachdClientId'),
    };
  },
  async exchange(code, redirectUri) {
    const body = await call('/auth/exchange', { code, redirectUri });
    const idToken = str(body, 'idToken');
    if (!idToken) throw new Error(str(body, 'message') || 'sign-in failed: no id token returned');
    return idToken;
  },
  async account(idToken) {
    const body = await call('/auth/account', { idToken });
    return { name: str(body, 'name'), email: str(body, 'email'), id: str(body, 'id') };
  },
};
