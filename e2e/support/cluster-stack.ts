import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startOidcProvider,
  type RunningOidcProvider,
} from '../../server/test/helpers/oidc-provider.ts';
import {
  startServerProcess,
  type ServerProcess,
} from '../../server/test/helpers/server-process.ts';
import { freePort, TEST_ACCOUNT } from './auth-server.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Cluster mode for the browser: one server in embedded mode (seeded demo) plays the Pachyderm
 * cluster, a second one (IVORY_PACHD_ADDRESS) serves the built console in front of it. The
 * upstream listens on a fixed port so it can be stopped and started again at the same address.
 */
export interface ClusterStack {
  /** The embedded-mode server playing the cluster. */
  upstreamUrl: string;
  /** The cluster-mode server the browser talks to (the console's origin). */
  origin: string;
  idp: RunningOidcProvider | null;
  /** Kills the upstream (SIGKILL) and waits for it to exit. */
  stopUpstream(): Promise<void>;
  /** Starts the upstream again on the same port and data dir. */
  startUpstream(): Promise<void>;
  stop(): Promise<void>;
}

const common = {
  HOST: '127.0.0.1',
  // The helper waits for the 'Server listening at' info line.
  IVORY_LOG_LEVEL: 'info',
  IVORY_DISABLE_TELEMETRY: 'true',
};

export async function startClusterStack(options: { auth?: boolean } = {}): Promise<ClusterStack> {
  const upstreamPort = await freePort();
  const clusterPort = await freePort();
  const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
  const origin = `http://127.0.0.1:${clusterPort}`;
  const idp = options.auth ? await startOidcProvider({ consoleOrigin: origin }) : null;
  // The upstream checks the same issuer and client, so the console's id token authenticates there.
  const authEnv: Record<string, string> = idp
    ? { ...idp.serverEnv(), IVORY_PUBLIC_URL: origin }
    : {};
  const upstreamDir = await mkdtemp(path.join(tmpdir(), 'ivory-e2e-upstream-'));
  // A snapshot of the built console: a rebuild of web/dist during the run (new asset hashes)
  // must not break pages already loaded.
  const webDist = path.join(await mkdtemp(path.join(tmpdir(), 'ivory-e2e-web-')), 'dist');
  await cp(path.join(repoRoot, 'web', 'dist'), webDist, { recursive: true });
  const upstreamEnv = {
    ...common,
    ...authEnv,
    PORT: String(upstreamPort),
    IVORY_SEED: 'true',
    // The cluster checks roles: the signed-in test user administers it (the seeded demo
    // project has no owner of its own).
    ...(idp ? { IVORY_ADMINS: TEST_ACCOUNT.email } : {}),
  };
  let upstream: ServerProcess | null = null;
  let cluster: ServerProcess | null = null;
  try {
    upstream = await startServerProcess(upstreamEnv, upstreamDir);
    cluster = await startServerProcess({
      ...common,
      ...authEnv,
      PORT: String(clusterPort),
      IVORY_PACHD_ADDRESS: upstreamUrl,
      IVORY_WEB_DIST: webDist,
    });
  } catch (error) {
    await upstream?.kill();
    await idp?.stop();
    throw error;
  }
  const clusterServer = cluster;
  return {
    upstreamUrl,
    origin,
    idp,
    async stopUpstream() {
      await upstream?.kill('SIGKILL');
      upstream = null;
    },
    async startUpstream() {
      if (upstream) return;
      upstream = await startServerProcess(upstreamEnv, upstreamDir);
    },
    async stop() {
      await clusterServer.kill('SIGTERM');
      await upstream?.kill('SIGTERM');
      await idp?.stop();
      await rm(path.dirname(webDist), { recursive: true, force: true });
    },
  };
}

/** All `result`-bearing lines of a streaming (NDJSON) API answer. */
export async function streamResults<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<T[]> {
  const response = await fetch(`${baseUrl}/api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} answered ${response.status}: ${text}`);
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { result?: T })
    .map((line) => line.result as T);
}
