import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ServerProcess {
  url: string;
  /** The server's process id (to read its memory from /proc, or its CPU time). */
  pid: number;
  dataDir: string;
  /** Sends a signal and waits for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Waits until the process exits on its own (e.g. a fault-injected SIGKILL). */
  exited(): Promise<NodeJS.Signals | number | null>;
  /** Starts the server again on the same data dir (with new env overrides). */
  restart(env?: Record<string, string>): Promise<ServerProcess>;
}

/** Starts `node --import tsx server/src/main.ts` as a child process and waits for /healthz. */
export async function startServerProcess(
  env: Record<string, string> = {},
  dataDir?: string,
): Promise<ServerProcess> {
  const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'ivory-proc-')));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      IVORY_DATA_DIR: dir,
      IVORY_SEED: 'false',
      IVORY_LOG_LEVEL: 'info',
      IVORY_WEB_DIST: path.join(dir, 'no-web-dist'),
      // No gRPC listener unless a test asks for one (parallel servers would race for 1650).
      IVORY_GRPC_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<NodeJS.Signals | number | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? code));
  });
  const url = await listeningUrl(child, exit);
  await waitForHealth(url);
  return {
    url,
    pid: child.pid ?? 0,
    dataDir: dir,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exit;
    },
    exited: () => exit,
    async restart(restartEnv: Record<string, string> = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exit;
      }
      return startServerProcess(restartEnv, dir);
    },
  };
}

function listeningUrl(child: ChildProcess, exit: Promise<unknown>): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    let listening = false;
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    // Once it listens, its output is read and dropped: kept, it grew without end and was searched
    // again at every line (the server's request log under load cost this process a core).
    const onData = (data: Buffer) => {
      if (listening) return;
      output += data.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        listening = true;
        output = '';
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (data: Buffer) => {
      if (!listening) output += data.toString();
    });
    void exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening:\n${output}`));
    });
  });
}

async function waitForHealth(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server at ${url} never became healthy`);
}
