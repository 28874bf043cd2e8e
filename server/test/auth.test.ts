import { createServer } from 'node:net';

import Fastify, { type FastifyInstance } from 'fastify';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  createAuth,
  registerAuthGuard,
  registerAuthRoutes,
  registerWhoAmIRoute,
  type Auth,
  type AuthConfig,
} from '../src/auth/index.ts';
import {
  signInWithDevInteractions,
  startOidcProvider,
  type RunningOidcProvider,
} from './helpers/oidc-provider.ts';
import { signedToken } from './helpers/tokens.ts';

/** The console origin the browser would be on (only used to build redirect URIs). */
const CONSOLE = 'http://127.0.0.1:5173';
const CALLBACK = `${CONSOLE}/oauth/callback/`;
const INLINE_CALLBACK = `${CONSOLE}/oauth/callback/?inline=true`;

interface TestApp {
  app: FastifyInstance;
  base: string;
  /** Names of the dummy handlers that ran. */
  ran: string[];
  close(): Promise<void>;
}

/** A minimal server: auth routes + guard + dummy handlers that record that they ran. */
async function startApp(auth: Auth, order: 'guard-first' | 'routes-first' = 'guard-first') {
  const app = Fastify({ logger: false });
  const ran: string[] = [];
  const dummies = () => {
    app.post('/api/pfs_v2.API/CreateRepo', async () => {
      ran.push('CreateRepo');
      return {};
    });
    app.post('/api/pps_v2.API/ListPipeline', async () => {
      ran.push('ListPipeline');
      return {};
    });
    app.post('/upload/start', async () => {
      ran.push('upload/start');
      return { uploadId: 'u1' };
    });
    app.post('/upload', async () => {
      ran.push('upload');
      return {};
    });
    app.get('/files/*', async () => {
      ran.push('files');
      return 'file body';
    });
    app.get('/health', async () => {
      ran.push('health');
      return { ok: true };
    });
    registerWhoAmIRoute(app, auth);
  };
  if (order === 'guard-first') {
    registerAuthGuard(app, auth);
    dummies();
  } else {
    dummies();
    registerAuthGuard(app, auth);
  }
  registerAuthRoutes(app, auth);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base, ran, close: () => app.close() } satisfies TestApp;
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  // The answers are small JSON objects; tests read fields by name.
  const json = (await response.json()) as Record<string, string>;
  return { status: response.status, headers: response.headers, body: json };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The sample of guarded calls every refused token is tried against. */
const GUARDED_CALLS = [
  { name: 'CreateRepo', method: 'POST', path: '/api/pfs_v2.API/CreateRepo', body: '{}' },
  { name: 'ListPipeline', method: 'POST', path: '/api/pps_v2.API/ListPipeline', body: '{}' },
  { name: 'upload/start', method: 'POST', path: '/upload/start', body: '{"repo":"r"}' },
  { name: 'upload', method: 'POST', path: '/upload', body: '{}' },
  { name: 'files', method: 'GET', path: '/files/default/images/master/a.png' },
] as const;

async function callGuarded(
  base: string,
  call: (typeof GUARDED_CALLS)[number],
  headers: Record<string, string>,
) {
  const response = await fetch(`${base}${call.path}`, {
    method: call.method,
    headers: call.method === 'POST' ? { 'content-type': 'application/json', ...headers } : headers,
    body: 'body' in call ? call.body : undefined,
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  };
}

function expectUnauthenticated(result: {
  status: number;
  contentType: string | null;
  text: string;
}) {
  expect(result.status).toBe(401);
  expect(result.contentType).toBe('application/json');
  const body = JSON.parse(result.text) as { code: number; message: string; details: unknown[] };
  expect(Object.keys(body)).toEqual(['code', 'message', 'details']);
  expect(body.code).toBe(16);
  expect(body.message).toMatch(/authentication error/i);
  expect(body.details).toEqual([]);
  return body;
}

async function signIn(idp: RunningOidcProvider, redirectUri = CALLBACK) {
  return signInWithDevInteractions({ issuer: idp.issuer, clientId: idp.clientId, redirectUri });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('auth with an issuer', () => {
  let idp: RunningOidcProvider;
  let auth: Auth;
  let server: TestApp;
  let config: AuthConfig;
  let validToken: string;

  beforeAll(async () => {
    idp = await startOidcProvider({ consoleOrigin: CONSOLE });
    config = {
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      publicUrl: CONSOLE,
    };
    auth = await createAuth(config);
    server = await startApp(auth);
    const { code } = await signIn(idp);
    validToken = (await postJson(`${server.base}/auth/exchange`, { code })).body.idToken!;
  });

  afterAll(async () => {
    await server?.close();
    await idp?.stop();
  });

  beforeEach(() => {
    server.ran.length = 0;
  });

  /** A token signed with the issuer's own key, with claims overridden. */
  async function issuerSigned(claims: Record<string, unknown>, alg = 'RS256') {
    const now = Math.floor(Date.now() / 1000);
    return signedToken(idp, {
      sub: 'mallory',
      claims: { email: 'mallory@example.com', ...claims },
      issuer: typeof claims.iss === 'string' ? claims.iss : undefined,
      audience: typeof claims.aud === 'string' ? claims.aud : undefined,
      issuedAt: now - 60,
      expiresAt: typeof claims.exp === 'number' ? claims.exp : undefined,
      alg,
    });
  }

  it('GET /auth/config answers the authorization endpoint path and the client ids', async () => {
    const response = await fetch(`${server.base}/auth/config`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      authEndpoint: '/auth',
      clientId: idp.clientId,
      pachdClientId: '',
    });
  });

  it('GET /auth/config answers pachdClientId when configured', async () => {
    const withPachd = await startApp(await createAuth({ ...config, pachdClientId: 'pachd' }));
    try {
      const body = await (await fetch(`${withPachd.base}/auth/config`)).json();
      expect(body).toEqual({
        authEndpoint: '/auth',
        clientId: idp.clientId,
        pachdClientId: 'pachd',
      });
    } finally {
      await withPachd.close();
    }
  });

  it('runs the code flow: sign-in form → /auth/exchange → /auth/account', async () => {
    const { code } = await signIn(idp);
    expect(code).not.toBe('');
    const exchanged = await postJson(`${server.base}/auth/exchange`, { code });
    expect(exchanged.status).toBe(200);
    expect(typeof exchanged.body.idToken).toBe('string');
    const idToken = exchanged.body.idToken as string;
    expect(idToken.split('.')).toHaveLength(3);

    const account = await postJson(`${server.base}/auth/account`, { idToken });
    expect(account.status).toBe(200);
    expect(account.body).toEqual({ name: idp.account.name, email: idp.account.email, id: 'alice' });
  });

  it('refuses to exchange the same code twice (400 with a message)', async () => {
    const { code } = await signIn(idp);
    expect((await postJson(`${server.base}/auth/exchange`, { code })).status).toBe(200);
    const again = await postJson(`${server.base}/auth/exchange`, { code });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/invalid_grant/);
  });

  it('exchanges a code of the inline variant (redirectUri sent by the browser)', async () => {
    const { code } = await signIn(idp, INLINE_CALLBACK);
    const exchanged = await postJson(`${server.base}/auth/exchange`, {
      code,
      redirectUri: INLINE_CALLBACK,
    });
    expect(exchanged.status).toBe(200);
    expect(typeof exchanged.body.idToken).toBe('string');
  });

  it('derives the redirect URI from the Origin header when IVORY_PUBLIC_URL is unset', async () => {
    const { publicUrl: _, ...withoutPublicUrl } = config;
    const derived = await startApp(await createAuth(withoutPublicUrl));
    try {
      const { code } = await signIn(idp);
      const exchanged = await postJson(
        `${derived.base}/auth/exchange`,
        { code },
        { origin: CONSOLE },
      );
      expect(exchanged.status).toBe(200);
      expect(typeof exchanged.body.idToken).toBe('string');
    } finally {
      await derived.close();
    }
  });

  it('rejects bad exchange requests with 400 and a message, without calling the issuer', async () => {
    const cases = [
      {},
      { code: '' },
      { code: 42 },
      { code: 'x', redirectUri: 'http://evil.example/oauth/callback/' },
      { code: 'x', redirectUri: `${CONSOLE}/elsewhere/` },
      { code: 'x', redirectUri: `${CONSOLE}/oauth/callback/?inline=false` },
      { code: 'x', redirectUri: `${CONSOLE}/oauth/callback/#frag` },
    ];
    for (const body of cases) {
      const response = await postJson(`${server.base}/auth/exchange`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.body.message).toBe('string');
    }
    const unknownCode = await postJson(`${server.base}/auth/exchange`, { code: 'not-a-real-code' });
    expect(unknownCode.status).toBe(400);
  });

  it('lets a valid token through to every guarded handler', async () => {
    for (const call of GUARDED_CALLS) {
      const result = await callGuarded(server.base, call, bearer(validToken));
      expect(result.status, call.path).toBe(200);
    }
    expect(server.ran).toEqual(GUARDED_CALLS.map((call) => call.name));
  });

  it('does not guard paths outside the prefixes', async () => {
    const response = await fetch(`${server.base}/health`);
    expect(response.status).toBe(200);
    expect(server.ran).toEqual(['health']);
  });

  it('accepts the auth-token cookie for /files GETs only', async () => {
    const cookie = { cookie: `other=1; auth-token=${encodeURIComponent(validToken)}` };
    const files = GUARDED_CALLS.find((call) => call.name === 'files')!;
    expect((await callGuarded(server.base, files, cookie)).status).toBe(200);
    for (const call of GUARDED_CALLS.filter((c) => c.name !== 'files')) {
      expectUnauthenticated(await callGuarded(server.base, call, cookie));
    }
    expect(server.ran).toEqual(['files']);
  });

  it('answers WhoAmI with the email and the token expiry', async () => {
    const response = await postJson(
      `${server.base}/api/auth_v2.API/WhoAmI`,
      {},
      bearer(validToken),
    );
    expect(response.status).toBe(200);
    const exp = JSON.parse(Buffer.from(validToken.split('.')[1]!, 'base64url').toString()).exp;
    expect(response.body).toEqual({
      username: idp.account.email,
      expiration: new Date(exp * 1000).toISOString().replace('.000Z', 'Z'),
    });
    const unauthenticated = await fetch(`${server.base}/api/auth_v2.API/WhoAmI`, {
      method: 'POST',
    });
    expect(unauthenticated.status).toBe(401);
  });

  describe('refused tokens: 401 code 16, handler never runs', () => {
    const refusals: {
      name: string;
      headers: () => Promise<Record<string, string>>;
      /** The message must say why (so each case fails for its own reason). */
      reason: RegExp;
      /** The token itself is fine (only the way it is sent is not): skip /auth/account. */
      tokenIsValid?: boolean;
    }[] = [
      {
        name: 'no Authorization header',
        reason: /no authentication token/,
        headers: async () => ({}),
      },
      {
        name: 'empty bearer',
        reason: /no authentication token/,
        headers: async () => ({ authorization: 'Bearer ' }),
      },
      {
        name: 'not a bearer scheme',
        reason: /no authentication token/,
        headers: async () => ({ authorization: `Basic ${validToken}` }),
        tokenIsValid: true,
      },
      {
        name: 'malformed (not a JWT)',
        reason: /malformed/,
        headers: async () => bearer('not-a-jwt'),
      },
      {
        name: 'malformed (three garbage parts)',
        reason: /malformed/,
        headers: async () => bearer('a.b.c'),
      },
      {
        name: 'forged (signed by another key, same kid)',
        reason: /signature verification failed/,
        headers: async () => {
          const { privateKey } = await generateKeyPair('RS256');
          const now = Math.floor(Date.now() / 1000);
          const token = await new SignJWT({ email: 'alice@example.com' })
            .setProtectedHeader({ alg: 'RS256', kid: idp.signingKey.kid })
            .setIssuer(idp.issuer)
            .setAudience(idp.clientId)
            .setSubject('alice')
            .setIssuedAt(now)
            .setExpirationTime(now + 3600)
            .sign(privateKey);
          return bearer(token);
        },
      },
      {
        name: 'valid token with a tampered payload',
        reason: /signature verification failed/,
        headers: async () => {
          const [header, payload, signature] = validToken.split('.');
          const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
          return bearer(`${header}.${base64url({ ...claims, sub: 'root' })}.${signature}`);
        },
      },
      {
        name: 'expired (issuer-signed, exp in the past)',
        reason: /expired/,
        headers: async () =>
          bearer(await issuerSigned({ exp: Math.floor(Date.now() / 1000) - 60 })),
      },
      {
        name: 'issued 24 hours in the future (iat beyond the 60 s clock skew)',
        reason: /"iat" is \d+ s in the future/,
        headers: async () => {
          const now = Math.floor(Date.now() / 1000);
          const token = await signedToken(idp, {
            sub: 'alice',
            claims: { email: 'alice@example.com' },
            issuedAt: now + 24 * 3600,
            expiresAt: now + 48 * 3600,
          });
          return bearer(token);
        },
      },
      {
        name: 'other issuer (issuer-signed, iss differs)',
        reason: /"iss"/,
        headers: async () => bearer(await issuerSigned({ iss: 'http://127.0.0.1:1/other' })),
      },
      {
        name: 'other audience (issuer-signed, aud differs)',
        reason: /"aud"/,
        headers: async () => bearer(await issuerSigned({ aud: 'some-other-client' })),
      },
      {
        name: 'alg none',
        reason: /algorithm is not allowed/,
        headers: async () => {
          const now = Math.floor(Date.now() / 1000);
          const payload = {
            iss: idp.issuer,
            aud: idp.clientId,
            sub: 'alice',
            iat: now,
            exp: now + 3600,
          };
          return bearer(`${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`);
        },
      },
      {
        name: 'HS256 with the public key as the secret',
        reason: /algorithm is not allowed/,
        headers: async () => {
          const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = idp.signingKey;
          const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
          const now = Math.floor(Date.now() / 1000);
          const token = await new SignJWT({})
            .setProtectedHeader({ alg: 'HS256', kid: idp.signingKey.kid })
            .setIssuer(idp.issuer)
            .setAudience(idp.clientId)
            .setSubject('alice')
            .setExpirationTime(now + 3600)
            .sign(secret);
          return bearer(token);
        },
      },
    ];

    for (const refusal of refusals) {
      it(refusal.name, async () => {
        const headers = await refusal.headers();
        for (const call of GUARDED_CALLS) {
          const body = expectUnauthenticated(await callGuarded(server.base, call, headers));
          expect(body.message, `${refusal.name} on ${call.path}`).toMatch(refusal.reason);
        }
        expect(server.ran).toEqual([]);
        if (refusal.tokenIsValid) return;
        // /auth/account refuses it too (a 4xx with a message).
        const token = headers.authorization?.replace(/^\S+\s*/, '') ?? '';
        const account = await postJson(`${server.base}/auth/account`, { idToken: token });
        expect([400, 401]).toContain(account.status);
        expect(typeof account.body.message).toBe('string');
      });
    }

    it('the issuer-signed control token passes (so the refusals above are about one claim)', async () => {
      const result = await callGuarded(
        server.base,
        GUARDED_CALLS[0],
        bearer(await issuerSigned({})),
      );
      expect(result.status).toBe(200);
      expect(server.ran).toEqual(['CreateRepo']);
    });

    it('guards percent-encoded spellings of guarded paths', async () => {
      const response = await fetch(`${server.base}/%61pi/pfs_v2.API/CreateRepo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(401);
      expect(server.ran).toEqual([]);
    });

    it('answers 401 for unknown paths under a guarded prefix, before the 404', async () => {
      const response = await fetch(`${server.base}/api/nope.API/Nothing`, { method: 'POST' });
      expect(response.status).toBe(401);
    });
  });

  it('refuses a token from the issuer once its lifetime (3 s) has passed', async () => {
    idp.setIdTokenTtl(2);
    try {
      const { code } = await signIn(idp);
      const { body } = await postJson(`${server.base}/auth/exchange`, { code });
      const shortLived = body.idToken as string;
      const call = GUARDED_CALLS[0];
      expect((await callGuarded(server.base, call, bearer(shortLived))).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 3_200));
      const refused = expectUnauthenticated(
        await callGuarded(server.base, call, bearer(shortLived)),
      );
      expect(refused.message).toMatch(/expired/);
      expect(server.ran).toEqual(['CreateRepo']);
    } finally {
      idp.setIdTokenTtl(3600);
    }
  });

  it('guards routes registered before the guard too', async () => {
    const late = await startApp(auth, 'routes-first');
    try {
      expectUnauthenticated(await callGuarded(late.base, GUARDED_CALLS[0], {}));
      expect((await callGuarded(late.base, GUARDED_CALLS[0], bearer(validToken))).status).toBe(200);
      expect(late.ran).toEqual(['CreateRepo']);
    } finally {
      await late.close();
    }
  });
});

describe('auth without an issuer (disabled)', () => {
  let server: TestApp;

  beforeAll(async () => {
    server = await startApp(await createAuth({}));
  });
  afterAll(() => server?.close());

  it('GET /auth/config answers all empty strings', async () => {
    const response = await fetch(`${server.base}/auth/config`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ authEndpoint: '', clientId: '', pachdClientId: '' });
  });

  it('lets guarded calls through without a token', async () => {
    for (const call of GUARDED_CALLS) {
      expect((await callGuarded(server.base, call, {})).status, call.path).toBe(200);
    }
    expect(server.ran).toEqual(GUARDED_CALLS.map((call) => call.name));
  });

  it('answers 404 with a message for /auth/exchange and /auth/account', async () => {
    for (const path of ['/auth/exchange', '/auth/account']) {
      const response = await postJson(`${server.base}${path}`, { code: 'x', idToken: 'y' });
      expect(response.status).toBe(404);
      expect(response.body.message).toMatch(/not enabled/);
    }
  });

  it('answers WhoAmI with code 12 (auth not activated)', async () => {
    const response = await postJson(`${server.base}/api/auth_v2.API/WhoAmI`, {});
    expect(response.status).toBe(501);
    expect(response.body).toEqual({
      code: 12,
      message: 'the auth service is not activated',
      details: [],
    });
  });
});

describe('issuer not reachable at boot', () => {
  let idp: RunningOidcProvider | undefined;
  let server: TestApp | undefined;
  afterAll(async () => {
    await server?.close();
    await idp?.stop();
  });

  it('starts anyway, answers 503, and recovers once the issuer is up', async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const auth = await createAuth(
      {
        issuer,
        clientId: 'ivory-console',
        clientSecret: 'ivory-console-secret-for-tests-only',
        publicUrl: CONSOLE,
      },
      { retryAfterMs: 0, timeoutSeconds: 2 },
    );
    expect(auth.enabled).toBe(true);
    server = await startApp(auth);

    const config = await fetch(`${server.base}/auth/config`);
    expect(config.status).toBe(503);
    expect(((await config.json()) as { message: string }).message).toMatch(/discovery/);

    // A token cannot be checked: 503 code 14 (not a sign-out), handler not run.
    const unavailable = await callGuarded(server.base, GUARDED_CALLS[0], bearer('a.b.c'));
    expect(unavailable.status).toBe(503);
    expect(unavailable.contentType).toBe('application/json');
    expect(JSON.parse(unavailable.text)).toMatchObject({ code: 14, details: [] });
    // No token at all is still a plain 401.
    expectUnauthenticated(await callGuarded(server.base, GUARDED_CALLS[0], {}));
    expect(server.ran).toEqual([]);

    idp = await startOidcProvider({ consoleOrigin: CONSOLE, port });
    const recovered = await fetch(`${server.base}/auth/config`);
    expect(recovered.status).toBe(200);
    expect(((await recovered.json()) as { authEndpoint: string }).authEndpoint).toBe('/auth');
    const { code } = await signIn(idp);
    const { body } = await postJson(`${server.base}/auth/exchange`, { code });
    expect((await callGuarded(server.base, GUARDED_CALLS[0], bearer(body.idToken!))).status).toBe(
      200,
    );
  });
});
