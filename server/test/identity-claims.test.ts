import { auth_v2, pfs_v2 } from '@ivory/api/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient, grpcFailure } from './helpers/grpc-client.ts';
import { startSignedInTestServer, type SignedInTestServer } from './helpers/in-process-server.ts';
import { providerIdToken, signInWithDevInteractions } from './helpers/oidc-provider.ts';
import { signedInApi } from './helpers/signed-in-api.ts';
import { signedToken } from './helpers/tokens.ts';

// Identity only from verified facts, against the real identity provider (its sign-in flow and
// its signing key), over HTTP and gRPC: a principal is never taken from a token's own claims, an
// email the provider says is unverified names nobody, and robot principals come only from robot
// tokens the server issued (revoked: refused at once, though verified tokens are cached).
// carol is an admin (IVORY_ADMINS); mallory and nora sign in at the provider, nora's email
// unverified.

let server: SignedInTestServer;
let api: ReturnType<typeof signedInApi>['api'];
let ok: ReturnType<typeof signedInApi>['ok'];

const accounts = [
  { login: 'mallory', password: 'x', email: 'mallory@example.com', name: 'M', emailVerified: true },
  // nora's provider account claims the admin's address, unverified.
  { login: 'nora', password: 'x', email: 'carol@example.com', name: 'N', emailVerified: false },
];

const http = (token: string, method: string, body: unknown = {}) => api(token, method, body);

beforeAll(async () => {
  server = await startSignedInTestServer(
    ['carol'],
    { admins: ['carol@example.com'], grpc: { port: 0, optional: false } },
    { accounts },
  );
  ({ api, ok } = signedInApi(server));
  // An admin binds a robot principal: only its robot tokens may act as it.
  await ok('carol', 'auth_v2.API/ModifyRoleBinding', {
    resource: { type: 'CLUSTER' },
    principal: 'robot:ci',
    roles: ['clusterAdmin'],
  });
}, 60_000);

afterAll(() => server?.close());

describe('a token’s own claims never make a principal', () => {
  it('an id token claiming `principal: robot:ci` is its email’s user, not the robot', async () => {
    const token = await signedToken(server.idp, {
      sub: 'mallory',
      claims: { email: 'mallory@example.com', principal: 'robot:ci' },
    });
    const me = await http(token, 'auth_v2.API/WhoAmI');
    expect(me.body.username).toBe('user:mallory@example.com');
    const refused = await http(token, 'pfs_v2.API/CreateRepo', {
      repo: { name: 'x', project: { name: 'default' } },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^user:mallory@example\.com is not authorized/);

    const client = grpcClient(server.grpcAddress, token);
    const overGrpc = await client.unary(auth_v2.API.method.whoAmI, {});
    const denied = await grpcFailure(
      client.unary(pfs_v2.API.method.createRepo, { repo: { name: 'x' } }),
    );
    client.close();
    expect(overGrpc.username).toBe('user:mallory@example.com');
    expect(denied.code).toBe(7);
  });

  it('a robot token the server issued is the robot, until it is revoked', async () => {
    const { token } = (await ok('carol', 'auth_v2.API/GetRobotToken', { robot: 'ci' })).body;
    expect((await http(token, 'auth_v2.API/WhoAmI')).body.username).toBe('robot:ci');
    const client = grpcClient(server.grpcAddress, token);
    expect((await client.unary(auth_v2.API.method.whoAmI, {})).username).toBe('robot:ci');
    await ok('carol', 'auth_v2.API/RevokeAuthToken', { token });
    expect((await http(token, 'auth_v2.API/WhoAmI')).status).toBe(401);
    expect((await grpcFailure(client.unary(auth_v2.API.method.whoAmI, {}))).code).toBe(16);
    client.close();
  });
});

describe('an email counts only when the provider does not say it is unverified', () => {
  it('refuses the provider’s own token for an unverified admin address (16), HTTP and gRPC', async () => {
    const token = await providerIdToken(server.idp, 'nora');
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(payload).toMatchObject({ email: 'carol@example.com', email_verified: false });
    const answer = await http(token, 'auth_v2.API/WhoAmI');
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe(16);
    expect(answer.body.message).toMatch(/email_verified.*not verified/);
    const admin = await http(token, 'pfs_v2.API/DeleteAll');
    expect(admin.status).toBe(401);
    const client = grpcClient(server.grpcAddress, token);
    const failure = await grpcFailure(client.unary(auth_v2.API.method.whoAmI, {}));
    client.close();
    expect(failure.code).toBe(16);
  });

  it('refuses the sign-in itself: the console gets no token for that account', async () => {
    const { code } = await signInWithDevInteractions({
      issuer: server.idp.issuer,
      clientId: server.idp.clientId,
      redirectUri: server.idp.redirectUris[0]!,
      login: 'nora',
    });
    const response = await fetch(`${server.url}/auth/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toMatch(/not verified/);
  });

  it('accepts the provider’s token for a verified address', async () => {
    const token = await providerIdToken(server.idp, 'mallory');
    expect((await http(token, 'auth_v2.API/WhoAmI')).body.username).toBe(
      'user:mallory@example.com',
    );
  });

  it('refuses a signed token whose email_verified is false even with an admin’s address', async () => {
    const token = await signedToken(server.idp, {
      sub: 'someone',
      claims: { email: 'carol@example.com', email_verified: false },
    });
    const listing = await http(token, 'pfs_v2.API/ListProject');
    expect(listing.status).toBe(401);
  });
});
