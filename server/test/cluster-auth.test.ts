/**
 * Cluster mode with sign-in: a test identity provider, an embedded-mode server as the cluster
 * (auth on), and a cluster-mode server in front of it, with a recording pass-through between the
 * two so the test sees exactly what goes upstream.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitId, repo, type Json } from './helpers/api-client.ts';
import {
  signInWithDevInteractions,
  startOidcProvider,
  type RunningOidcProvider,
} from './helpers/oidc-provider.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const CONSOLE = 'http://127.0.0.1:5173';

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** A pass-through HTTP proxy that records every request. */
async function startSpy(target: string) {
  const seen: Recorded[] = [];
  const server = http.createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    const forwarded = http.request(
      new URL(request.url ?? '/', target),
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let idp: RunningOidcProvider;
let upstream: ServerProcess;
let cluster: ServerProcess;
let spy: Awaited<ReturnType<typeof startSpy>>;

beforeAll(async () => {
  idp = await startOidcProvider({ consoleOrigin: CONSOLE });
  upstream = await startServerProcess({ ...idp.serverEnv(), IVORY_PUBLIC_URL: CONSOLE });
  spy = await startSpy(upstream.url);
  cluster = await startServerProcess({
    ...idp.serverEnv(),
    IVORY_PUBLIC_URL: CONSOLE,
    IVORY_PACHD_ADDRESS: spy.url,
  });
});

afterAll(async () => {
  await cluster?.kill();
  await spy?.close();
  await upstream?.kill();
  await idp?.stop();
});

async function signIn(login?: string): Promise<string> {
  const { code } = await signInWithDevInteractions({
    login,
    issuer: idp.issuer,
    clientId: idp.clientId,
    redirectUri: `${CONSOLE}/oauth/callback/`,
  });
  const response = await fetch(`${cluster.url}/auth/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { idToken: string }).idToken;
}

async function api(base: string, method: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(`${base}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), text };
}

const authenticateCalls = () =>
  spy.seen.filter((request) => request.url === '/api/auth_v2.API/Authenticate');

describe('cluster mode with authentication', () => {
  it('the embedded platform trades an id token for a pach token and accepts it as authn-token', async () => {
    const idToken = await signIn();
    const refused = await api(upstream.url, 'auth_v2.API/Authenticate', { idToken: 'x.y.z' }, {});
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text).code).toBe(16);
    const answer = await api(upstream.url, 'auth_v2.API/Authenticate', { idToken }, {});
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/json');
    const { pachToken } = JSON.parse(answer.text) as { pachToken: string };
    expect(pachToken).toBeTruthy();

    const whoAmI = await api(upstream.url, 'auth_v2.API/WhoAmI', {}, { 'authn-token': pachToken });
    expect(whoAmI.status).toBe(200);
    // As pachd answers: the principal, `user:<email>`.
    expect(JSON.parse(whoAmI.text).username).toBe(`user:${idp.account.email}`);
    const bad = await api(upstream.url, 'auth_v2.API/WhoAmI', {}, { 'authn-token': 'x.y.z' });
    expect(bad.status).toBe(401);
  });

  it('refuses calls without a token locally, before anything goes upstream', async () => {
    const before = spy.seen.length;
    const response = await api(cluster.url, 'pfs_v2.API/ListRepo', {}, {});
    expect(response.status).toBe(401);
    expect(JSON.parse(response.text).code).toBe(16);
    expect(spy.seen.length).toBe(before);
  });

  it('exchanges a signed-in token once and forwards the pach token as authn-token', async () => {
    const idToken = await signIn();
    const bearer = { authorization: `Bearer ${idToken}` };
    const exchangesBefore = authenticateCalls().length;
    const firstForwarded = spy.seen.length;

    const created = await api(
      cluster.url,
      'pfs_v2.API/CreateProject',
      { project: { name: 'default' } },
      bearer,
    );
    expect([200, 409]).toContain(created.status);
    expect(
      (await api(cluster.url, 'pfs_v2.API/CreateRepo', { repo: repo('secure') }, bearer)).status,
    ).toBe(200);
    const listed = await api(cluster.url, 'pfs_v2.API/ListRepo', {}, bearer);
    expect(listed.status).toBe(200);
    expect(listed.contentType).toBe('application/json');
    expect(listed.text).toContain('"secure"');
    await Promise.all(
      Array.from({ length: 5 }, () => api(cluster.url, 'pfs_v2.API/ListProject', {}, bearer)),
    );
    const file = await fetch(`${cluster.url}/files/default/secure/master/missing.txt`, {
      headers: bearer,
    });
    expect(file.status).not.toBe(401);

    expect(authenticateCalls().length - exchangesBefore).toBe(1);
    const exchange = authenticateCalls().at(-1)!;
    expect(exchange.headers['authn-token']).toBeUndefined();
    const forwarded = spy.seen
      .slice(firstForwarded)
      .filter((request) => request.url !== '/api/auth_v2.API/Authenticate');
    expect(forwarded.length).toBeGreaterThanOrEqual(9);
    for (const request of forwarded) {
      // The embedded platform's pach token is the id token itself.
      expect(request.headers['authn-token'], request.url).toBe(idToken);
      expect(request.headers.authorization, request.url).toBeUndefined();
    }
    expect(forwarded.some((request) => request.url.startsWith('/pfs/default/secure/master/'))).toBe(
      true,
    );

    // Another user's id token: one more exchange (once alice, the owner, lets bob read).
    const granted = await api(
      cluster.url,
      'auth_v2.API/ModifyRoleBinding',
      {
        resource: { type: 'REPO', name: 'default/secure' },
        principal: 'user:bob@example.com',
        roles: ['repoReader'],
      },
      bearer,
    );
    expect(granted.status).toBe(200);
    const second = await signIn('bob');
    expect(second).not.toBe(idToken);
    const again = await api(
      cluster.url,
      'pfs_v2.API/InspectRepo',
      { repo: repo('secure') },
      {
        authorization: `Bearer ${second}`,
      },
    );
    expect(again.status).toBe(200);
    expect(authenticateCalls().length - exchangesBefore).toBe(2);
  });

  it('answers WhoAmI for the signed-in user', async () => {
    const idToken = await signIn();
    const whoAmI = await api(
      cluster.url,
      'auth_v2.API/WhoAmI',
      {},
      {
        authorization: `Bearer ${idToken}`,
      },
    );
    expect(whoAmI.status).toBe(200);
    const body = JSON.parse(whoAmI.text) as Json;
    expect(body.username).toBe(idp.account.email);
  });

  it('GetFile through the proxy with auth', async () => {
    const idToken = await signIn();
    const bearer = { authorization: `Bearer ${idToken}` };
    const listing = await api(
      cluster.url,
      'pfs_v2.API/ListFile',
      { file: { commit: commitId('secure', 'master'), path: '/' } },
      bearer,
    );
    // An empty repo has no master commit yet: the cluster's own answer comes back as is.
    expect(listing.contentType).toBe('application/json');
    expect(listing.status).not.toBe(401);
  });

  it('/files with only the auth-token cookie (downloads, previews) forwards its pach token', async () => {
    const idToken = await signIn();
    const before = spy.seen.length;
    const file = await fetch(`${cluster.url}/files/default/secure/master/missing.txt`, {
      headers: { cookie: `auth-token=${idToken}` },
    });
    // The cluster's own not-found, not a failed token exchange (400) nor a 401.
    expect(file.status).toBe(404);
    expect(((await file.json()) as Json).code).toBe(5);
    const forwarded = spy.seen.slice(before).find((request) => request.url.startsWith('/pfs/'));
    expect(forwarded?.headers['authn-token']).toBe(idToken);
  });
});
