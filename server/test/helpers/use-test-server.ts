/**
 * One in-process server for a test file: started before its tests with the projects and repos
 * they share, closed after them.
 *   const { url, server } = useTestServer({ projects: ['default'], repos: ['data'] });
 *   it('…', async () => { await ok(url(), 'pfs_v2.API/ListRepo'); server().dataDir; });
 */
import { afterAll, beforeAll } from 'vitest';
import type { ServerConfig } from '../../src/index.ts';
import { ok, repo } from './api-client.ts';
import { startTestServer, type TestServer } from './in-process-server.ts';

export interface TestServerSetup {
  /** Projects created first, in this order. */
  projects?: readonly string[];
  /** Repos created in project `default`, in this order. */
  repos?: readonly string[];
  /** Server configuration besides the test defaults. */
  config?: Partial<ServerConfig>;
}

export function useTestServer(setup: TestServerSetup = {}): {
  server: () => TestServer;
  url: () => string;
} {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(setup.config);
    for (const name of setup.projects ?? [])
      await ok(server.url, 'pfs_v2.API/CreateProject', { project: { name } });
    for (const name of setup.repos ?? [])
      await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo(name) });
  });
  afterAll(() => server?.close());
  const started = () => {
    if (!server) throw new Error('the test server starts in beforeAll: use it inside a test');
    return server;
  };
  return { server: started, url: () => started().url };
}
