import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer, type IvoryServer, type ServerConfig } from '../../src/index.ts';
import type { AuthConfig } from '../../src/auth/index.ts';
import { startOidcProvider, type RunningOidcProvider, type TestAccount } from './oidc-provider.ts';
import { tokenFor } from './tokens.ts';

export interface TestServer {
  url: string;
  dataDir: string;
  server: IvoryServer;
  close(): Promise<void>;
}

/** Builds the real server in this process on a random port, with its data in a temp dir. */
export async function startTestServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dataDir = overrides.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'ivory-test-')));
  const config: ServerConfig = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    webDist: path.join(dataDir, 'no-web-dist'),
    releaseVersion: '9.9.9-test',
    disableTelemetry: true,
    auth: {},
    browserSettings: {},
    seed: false,
    seedEda: false,
    logLevel: 'warn',
    uploadTtlMs: 24 * 60 * 60 * 1000,
    faultKillAt: '',
    ...overrides,
  };
  const server = await buildServer(config);
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    dataDir,
    server,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SignedInTestServer extends TestServer {
  idp: RunningOidcProvider;
  /** An id token for each user asked for, by login (sub `login`, email `<login>@example.com`). */
  tokens: Record<string, string>;
  /** `127.0.0.1:<port>` of the gRPC listener; '' unless `grpc` is among the overrides. */
  grpcAddress: string;
}

/** The console origin a signed-in test server's identity provider redirects to. */
export const SIGNED_IN_CONSOLE_ORIGIN = 'http://127.0.0.1:1';

/** The identity provider's accounts, and sign-in settings over the provider's own. */
export interface SignInSettings {
  accounts?: TestAccount[];
  auth?: Partial<AuthConfig>;
}

/**
 * The real server with sign-in on against a fresh test identity provider, and tokens for `users`:
 *   const server = await startSignedInTestServer(['carol', 'dave'], { admins: ['carol@example.com'] });
 *   server.tokens.carol; await server.close();   // stops the identity provider too
 */
export async function startSignedInTestServer(
  users: readonly string[],
  overrides: Partial<ServerConfig> = {},
  signIn: SignInSettings = {},
): Promise<SignedInTestServer> {
  const idp = await startOidcProvider({
    consoleOrigin: SIGNED_IN_CONSOLE_ORIGIN,
    ...(signIn.accounts ? { accounts: signIn.accounts } : {}),
  });
  let server: TestServer;
  try {
    server = await startTestServer({
      auth: {
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        publicUrl: SIGNED_IN_CONSOLE_ORIGIN,
        ...signIn.auth,
      },
      ...overrides,
    });
  } catch (error) {
    await idp.stop();
    throw error;
  }
  const tokens: Record<string, string> = {};
  for (const login of users) tokens[login] = await tokenFor(idp, login);
  const grpcPort = server.server.grpc?.port;
  return {
    ...server,
    idp,
    tokens,
    grpcAddress: grpcPort === undefined ? '' : `127.0.0.1:${grpcPort}`,
    async close() {
      await server.close();
      await idp.stop();
    },
  };
}
