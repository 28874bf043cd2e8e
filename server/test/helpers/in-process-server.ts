import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer, type IvoryServer, type ServerConfig } from '../../src/index.ts';

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
