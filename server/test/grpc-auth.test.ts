import { auth_v2, pfs_v2 } from '@ivory/api/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient, grpcFailure } from './helpers/grpc-client.ts';
import { startSignedInTestServer, type SignedInTestServer } from './helpers/in-process-server.ts';
import { tokenFor } from './helpers/tokens.ts';

// Sign-in on, over gRPC: the token travels in the `authn-token` metadata as pachctl sends it,
// is checked against the real identity provider's keys, and the caller's roles apply as over
// HTTP. Users: carol (IVORY_ADMINS), dave (no role).

let server: SignedInTestServer;
let address: string;
let tokens: Record<string, string>;

const project = { name: 'q' };
const repo = { name: 'secret', type: 'user', project };

beforeAll(async () => {
  server = await startSignedInTestServer(['carol', 'dave'], {
    admins: ['carol@example.com'],
    grpc: { port: 0, optional: false },
  });
  ({ grpcAddress: address, tokens } = server);
}, 60_000);

afterAll(() => server?.close());

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
    for (const token of ['', forged, await tokenFor(server.idp, 'carol', -60), 'not-a-token']) {
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
