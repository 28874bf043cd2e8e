import { auth_v2, pfs_v2 } from '@ivory/api/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient, grpcFailure } from './helpers/grpc-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { startOidcProvider, type RunningOidcProvider } from './helpers/oidc-provider.ts';
import { tokenFor } from './helpers/tokens.ts';

// Sign-in on, over gRPC: the token travels in the `authn-token` metadata as pachctl sends it,
// is checked against the real identity provider's keys, and the caller's roles apply as over
// HTTP. Users: carol (IVORY_ADMINS), dave (no role).

let idp: RunningOidcProvider;
let server: TestServer;
let address: string;
const tokens: Record<string, string> = {};

const project = { name: 'q' };
const repo = { name: 'secret', type: 'user', project };

beforeAll(async () => {
  idp = await startOidcProvider({ consoleOrigin: 'http://127.0.0.1:1' });
  server = await startTestServer({
    auth: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
    admins: ['carol@example.com'],
    grpc: { port: 0, optional: false },
  });
  address = `127.0.0.1:${server.server.grpc!.port}`;
  for (const login of ['carol', 'dave']) tokens[login] = await tokenFor(idp, login);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await idp?.stop();
});

describe('gRPC with sign-in on', () => {
  it('WhoAmI answers the user of the authn-token', async () => {
    const client = grpcClient(address, tokens.carol);
    const me = await client.unary(auth_v2.API.method.whoAmI, {});
    client.close();
    expect(me.username).toBe('user:carol@example.com');
    expect(me.expiration).toBeDefined();
    expect(Number(me.expiration!.seconds)).toBeGreaterThan(Date.now() / 1000);
  });

  it('refuses a call without a token, with a forged or an expired one (16)', async () => {
    const forged = tokens.carol!.slice(0, -4) + (tokens.carol!.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const token of ['', forged, await tokenFor(idp, 'carol', -60), 'not-a-token']) {
      const client = grpcClient(address, token);
      const failure = await grpcFailure(client.unary(auth_v2.API.method.whoAmI, {}));
      const listing = await grpcFailure(client.serverStream(pfs_v2.API.method.listRepo, {}));
      client.close();
      expect(failure.code).toBe(16);
      expect(failure.details).toMatch(/authentication error/);
      expect(listing.code).toBe(16);
    }
  });

  it('applies roles as over HTTP: an admin creates, a user with no role is refused (7)', async () => {
    const carol = grpcClient(address, tokens.carol);
    const dave = grpcClient(address, tokens.dave);
    await carol.unary(pfs_v2.API.method.createProject, { project });
    await carol.unary(pfs_v2.API.method.createRepo, { repo });
    const inspected = await carol.unary(pfs_v2.API.method.inspectRepo, { repo });
    expect(inspected.repo?.name).toBe('secret');

    const refused = await grpcFailure(dave.unary(pfs_v2.API.method.inspectRepo, { repo }));
    const overHttp = await fetch(`${server.url}/api/pfs_v2.API/InspectRepo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.dave}` },
      body: JSON.stringify({ repo }),
    });
    const httpError = (await overHttp.json()) as { code: number; message: string };
    expect(refused.code).toBe(7);
    expect(refused).toEqual({ code: httpError.code, details: httpError.message });
    // A listing shows dave nothing of carol's project rather than failing.
    const repos = await dave.serverStream(pfs_v2.API.method.listRepo, {});
    expect(repos.map((info) => info.repo?.name)).not.toContain('secret');
    carol.close();
    dave.close();
  });
});
