/**
 * A real OpenID Connect provider (oidc-provider) for tests: one confidential client for the
 * console, one test account, devInteractions login and consent pages.
 *
 * Used by the server's auth tests and by end-to-end tests:
 *   const idp = await startOidcProvider({ consoleOrigin: 'http://127.0.0.1:4000' });
 *   env: idp.serverEnv()  → IVORY_OIDC_ISSUER, IVORY_OIDC_CLIENT_ID, IVORY_OIDC_CLIENT_SECRET
 *   browser: fill input[name=login] / input[name=password], submit, then submit the consent form
 *   without a browser: await signInWithDevInteractions({ issuer: idp.issuer, ... })
 *   await idp.stop();
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { exportJWK, generateKeyPair, type JWK } from 'jose';

export interface TestAccount {
  /** What to type in the login form; also the token's `sub`. */
  login: string;
  /** devInteractions accepts any password; this one is just for form filling. */
  password: string;
  email: string;
  name: string;
  /** Sent as the id token's `email_verified` when set (left out otherwise). */
  emailVerified?: boolean;
}

export const TEST_ACCOUNT: TestAccount = {
  login: 'alice',
  password: 'wonderland',
  email: 'alice@example.com',
  name: 'Alice Liddell',
};

export const TEST_CLIENT_ID = 'ivory-console';
export const TEST_CLIENT_SECRET = 'ivory-console-secret-for-tests-only';
export const CONSOLE_SCOPE = 'openid email profile';

export interface OidcProviderOptions {
  /** Console origin(s), e.g. 'http://127.0.0.1:4000'; each gets `/oauth/callback/` and
   * `/oauth/callback/?inline=true` registered as redirect URIs (oidc-provider wants exact URIs). */
  consoleOrigin: string | string[];
  /** Port to listen on (127.0.0.1); 0 (default) picks a free one. */
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** Id token lifetime in seconds (default 3600); can be changed later with setIdTokenTtl. */
  idTokenTtlSeconds?: number;
  /** Accounts by login; defaults to TEST_ACCOUNT. Unknown logins get `<login>@example.com`. */
  accounts?: TestAccount[];
}

export interface RunningOidcProvider {
  /** Issuer URL, e.g. 'http://127.0.0.1:43123' (no trailing slash). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  account: TestAccount;
  /** The provider's signing key (private JWK, with kid and alg) for minting test tokens. */
  signingKey: JWK & { kid: string; alg: string };
  setIdTokenTtl(seconds: number): void;
  /** The server's env for this provider: IVORY_OIDC_ISSUER, _CLIENT_ID, _CLIENT_SECRET. */
  serverEnv(): Record<string, string>;
  stop(): Promise<void>;
}

/** The slice of oidc-provider's API used here (the package ships no type declarations). */
interface OidcProviderApp {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
}
type OidcProviderClass = new (issuer: string, configuration: object) => OidcProviderApp;

const OIDC_PROVIDER_MODULE = 'oidc-provider';

async function loadProviderClass(): Promise<OidcProviderClass> {
  const loaded = (await import(OIDC_PROVIDER_MODULE)) as { default: OidcProviderClass };
  return loaded.default;
}

export function callbackUris(consoleOrigin: string): string[] {
  const origin = new URL(consoleOrigin).origin;
  return [`${origin}/oauth/callback/`, `${origin}/oauth/callback/?inline=true`];
}

export async function startOidcProvider(
  options: OidcProviderOptions,
): Promise<RunningOidcProvider> {
  const Provider = await loadProviderClass();
  const origins = Array.isArray(options.consoleOrigin)
    ? options.consoleOrigin
    : [options.consoleOrigin];
  const redirectUris = origins.flatMap(callbackUris);
  const clientId = options.clientId ?? TEST_CLIENT_ID;
  const clientSecret = options.clientSecret ?? TEST_CLIENT_SECRET;
  const accounts = new Map((options.accounts ?? [TEST_ACCOUNT]).map((a) => [a.login, a]));
  let idTokenTtl = options.idTokenTtlSeconds ?? 3600;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    kid: `test-${randomBytes(4).toString('hex')}`,
    alg: 'RS256',
    use: 'sig',
  };

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id) ?? {
        login: id,
        password: '',
        email: `${id}@example.com`,
        name: id,
      };
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: account.email,
          name: account.name,
          ...(account.emailVerified === undefined ? {} : { email_verified: account.emailVerified }),
        }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Put the scope's claims (email, name) in the id token, not only in userinfo.
    conformIdTokenClaims: false,
    // A confidential client: no PKCE needed (the browser builds the URL without a verifier).
    pkce: { required: () => false },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    jwks: { keys: [signingKey] },
    ttl: {
      IdToken: () => idTokenTtl,
      AccessToken: 3600,
      AuthorizationCode: 600,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
    },
  });
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    redirectUris,
    account: accounts.values().next().value ?? TEST_ACCOUNT,
    signingKey,
    setIdTokenTtl(seconds) {
      idTokenTtl = seconds;
    },
    serverEnv: () => ({
      IVORY_OIDC_ISSUER: issuer,
      IVORY_OIDC_CLIENT_ID: clientId,
      IVORY_OIDC_CLIENT_SECRET: clientSecret,
    }),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export interface SignInOptions {
  issuer: string;
  clientId: string;
  redirectUri: string;
  login?: string;
  password?: string;
  scope?: string;
  state?: string;
}

export interface AuthorizationResult {
  code: string;
  state: string;
  /** The full URL the provider redirected the browser to. */
  callbackUrl: string;
}

function htmlUnescape(text: string): string {
  return text
    .replace(/&#x2F;/gi, '/')
    .replace(/&#39;|&#x27;/gi, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * Plays the browser through the authorization code flow: authorization request, the
 * devInteractions login form, the consent form, up to the redirect to the console's callback.
 * Plain fetch with manual redirects and a minimal cookie jar.
 */
export async function signInWithDevInteractions(
  options: SignInOptions,
): Promise<AuthorizationResult> {
  const state = options.state ?? randomBytes(15).toString('base64url').slice(0, 20);
  const authorize = new URL('/auth', options.issuer);
  authorize.search = new URLSearchParams({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: options.scope ?? CONSOLE_SCOPE,
    state,
  }).toString();

  const jar = new Map<string, string>();
  const callback = new URL(options.redirectUri);
  let url = authorize;
  let init: RequestInit = { method: 'GET' };

  for (let step = 0; step < 20; step++) {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*(expires=.*1970|max-age=0)/i.test(a));
      if (expired || !value) jar.delete(name);
      else jar.set(name, value);
    }

    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      const next = new URL(location, url);
      if (next.origin === callback.origin && next.pathname === callback.pathname) {
        const error = next.searchParams.get('error');
        if (error) {
          throw new Error(
            `authorization failed: ${error} ${next.searchParams.get('error_description') ?? ''}`,
          );
        }
        return {
          code: next.searchParams.get('code') ?? '',
          state: next.searchParams.get('state') ?? '',
          callbackUrl: next.href,
        };
      }
      url = next;
      init = { method: 'GET' };
      continue;
    }

    const html = await response.text();
    if (response.status !== 200) {
      throw new Error(`unexpected ${response.status} from ${url.href}: ${html.slice(0, 500)}`);
    }
    const action = /<form[^>]*\baction="([^"]+)"[^>]*method="post"/i.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt)
      throw new Error(`no sign-in form at ${url.href}: ${html.slice(0, 500)}`);
    const form = new URLSearchParams({ prompt });
    if (prompt === 'login') {
      form.set('login', options.login ?? TEST_ACCOUNT.login);
      form.set('password', options.password ?? TEST_ACCOUNT.password);
    }
    url = new URL(htmlUnescape(action), url);
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    };
  }
  throw new Error('sign-in did not reach the callback within 20 steps');
}

/**
 * An id token as the provider issues it after a sign-in (the code flow through its own forms,
 * then the code traded at its token endpoint with the client's secret), for `login`.
 */
export async function providerIdToken(idp: RunningOidcProvider, login: string): Promise<string> {
  const redirectUri = idp.redirectUris[0] as string;
  const { code } = await signInWithDevInteractions({
    issuer: idp.issuer,
    clientId: idp.clientId,
    redirectUri,
    login,
  });
  const response = await fetch(`${idp.issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${idp.clientId}:${idp.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    }),
  });
  const body = (await response.json()) as { id_token?: string; error?: string };
  if (!body.id_token) throw new Error(`no id token from the provider: ${JSON.stringify(body)}`);
  return body.id_token;
}
