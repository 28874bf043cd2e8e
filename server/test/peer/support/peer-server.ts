/**
 * One real server per test file, its gRPC listener on a free port, and a PeerClient talking to it.
 * Go's tests each get a fresh cluster (`pachd.NewTestPachd`); here tests of one file share a
 * server, so each names its repos and pipelines uniquely (`unique('repo')`, as Go's
 * `tu.UniqueString`).
 *
 *   const env = usePeerServer();
 *   it('TestX (server_test.go)', async () => { const c = env.client(); … });
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { ServerConfig } from '../../../src/index.ts';
import { startTestServer, type TestServer } from '../../helpers/in-process-server.ts';
import { peerClient, type PeerClient } from './peer-client.ts';

export function usePeerServer(config: Partial<ServerConfig> = {}): {
  client: () => PeerClient;
  server: () => TestServer;
} {
  let server: TestServer | undefined;
  let client: PeerClient | undefined;
  beforeAll(async () => {
    server = await startTestServer({ grpc: { port: 0, optional: false }, ...config });
    client = peerClient(`127.0.0.1:${server.server.grpc!.port}`);
    // pachd starts with the project `default`; the tests assume it.
    await client.createProject('default').catch((error: { code?: number }) => {
      if (error.code !== 6) throw error;
    });
  }, 60_000);
  afterAll(async () => {
    client?.close();
    await server?.close();
  });
  return {
    client: () => {
      if (!client) throw new Error('the peer server starts in beforeAll: use it inside a test');
      return client;
    },
    server: () => server!,
  };
}

/** A name no other test of the file uses: `prefix` + 12 hex characters (Go's `uuid.UniqueString`). */
export function unique(prefix: string): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

/** Polls `check` until it returns without throwing (Go's `require.NoErrorWithinT`). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Runs `test` against a server of its own, started and closed around it: for the Go tests that
 * count what the whole cluster holds (ListPipeline's pages, DeletePipelines `all`, cluster
 * defaults), which `pachd.NewTestPachd` gives each test fresh.
 */
export async function withFreshServer<T>(
  test: (client: PeerClient) => Promise<T>,
  config: Partial<ServerConfig> = {},
): Promise<T> {
  const server = await startTestServer({ grpc: { port: 0, optional: false }, ...config });
  const client = peerClient(`127.0.0.1:${server.server.grpc!.port}`);
  try {
    await client.createProject('default').catch((error: { code?: number }) => {
      if (error.code !== 6) throw error;
    });
    return await test(client);
  } finally {
    client.close();
    await server.close();
  }
}

/**
 * After an update: pachd opens the new version's output commit inside CreatePipeline, so a
 * WaitCommit on the output branch right after sees it; the embedded runner creates the job just
 * after the call returns and opens its output commit when the job starts. Waits until the new
 * version has a job (ListJob's history 0: the current version's jobs) and the output branch's
 * head is that job's commit, so the Go test's next WaitCommit sees the same commit as on pachd.
 */
export async function newVersionJob(
  client: Pick<PeerClient, 'listJob' | 'inspectBranch'>,
  project: string,
  pipeline: string,
): Promise<void> {
  await eventually(async () => {
    const [job] = await client.listJob(project, pipeline, 0n);
    if (!job) throw new Error(`no job of ${project}/${pipeline}'s new version yet`);
    const head = (await client.inspectBranch(project, pipeline, 'master')).head?.id;
    if (head !== job.job?.id)
      throw new Error(`${project}/${pipeline}@master is not the new version's job's commit yet`);
  });
}
