import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { OutputFile } from './pps-store.ts';

/**
 * The server's side of the launcher (launcher-process.mjs): one small Node process, started on
 * first use and restarted if it dies, that prepares a datum's folder, starts its process through
 * a long-lived `sh` and hashes its outputs. Forking the server (a large process) for every datum
 * blocks its event loop for milliseconds; forking a small shell costs about what a shell loop does.
 */

const launcherPath = fileURLToPath(new URL('./launcher-process.mjs', import.meta.url));

export interface LaunchRequest {
  cmd: string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to the process's stdin, which is then closed. */
  stdin: string;
  /** Killed (its whole process group) after this long; 0 = no limit. */
  timeoutMs: number;
  /** At most `limit` processes of one group run at once; the others wait in order. */
  group: string;
  limit: number;
  /** Exit codes that count as success besides 0 (for `collect`). */
  accept?: number[];
  /** Done before the process starts (as soon as the request arrives, while others run). */
  prepare?: PrepareSpec;
  /**
   * Done after a successful exit: each file under `out` is hashed and moved to `stage`/<hash>;
   * then the slot is emptied into its `trash` folder.
   */
  collect?: { out: string; stage: string };
  signal?: AbortSignal;
  onLine?: (line: string) => void;
}

/**
 * A datum folder that the datums of one job run reuse one after another: emptied after a
 * success, rebuilt before the next datum after a failure or when its token is new.
 */
export interface SlotFolder {
  root: string;
  pfs: string;
  /** One folder per input, under `pfs`. */
  inputs: string[];
  out: string;
  /** Where emptying the slot moves what it held (removed later with the job's folder). */
  trash: string;
  /** Differs between job runs, so a new run never trusts a folder an earlier one left. */
  token: string;
}

export interface PrepareSpec {
  slot?: SlotFolder;
  /** Made (with parents) besides the slot's own folders. */
  dirs: string[];
  /** [source, target, size]: copied (reflinked where the filesystem can). */
  copies: [string, string, number][];
  /** Created empty. */
  empties: string[];
}

export interface LaunchResult {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  killed: boolean;
  /** Why it could not start ('' when it did). */
  error: string;
  /** How long the process ran. */
  ms: number;
  prepareMs: number;
  collectMs: number;
  /** Why `prepare` failed ('' when it did not; the process did not run then). */
  prepareError: string;
  outputs: OutputFile[];
  /** Why `collect` failed ('' when it did not). */
  collectError: string;
}

const noResult: LaunchResult = {
  code: null,
  signal: null,
  timedOut: false,
  killed: false,
  error: '',
  ms: 0,
  prepareMs: 0,
  collectMs: 0,
  prepareError: '',
  outputs: [],
  collectError: '',
};

interface Pending {
  onLine?: (line: string) => void;
  resolve: (result: LaunchResult) => void;
}

type LauncherMessage =
  { t: 'line'; id: number; line?: string } | ({ t: 'exit' } & LaunchResult & { id: number });

export class Launcher {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private outBuffer: string[] = [];
  private closed = false;

  /** `logDir`: a folder of its own, where processes' output is staged while they run. */
  constructor(private readonly logDir: string) {}

  private ensure(): ChildProcess {
    if (this.child) return this.child;
    const child = spawn(process.execPath, [launcherPath, this.logDir], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { PATH: process.env.PATH ?? '' },
    });
    this.child = child;
    child.stdin?.on('error', () => undefined);
    const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
    lines.on('line', (text) => {
      let message: LauncherMessage;
      try {
        message = JSON.parse(text) as LauncherMessage;
      } catch {
        return;
      }
      const pending = this.pending.get(message.id);
      if (!pending) return;
      if (message.t === 'line') pending.onLine?.(message.line ?? '');
      else if (message.t === 'exit') {
        this.pending.delete(message.id);
        pending.resolve({ ...noResult, ...message });
      }
    });
    const gone = (why: string) => {
      if (this.child !== child) return;
      this.child = null;
      for (const [id, pending] of this.pending) {
        this.pending.delete(id);
        pending.resolve({ ...noResult, error: `the process launcher ${why}` });
      }
    };
    child.on('error', (error) => gone(`failed: ${error.message}`));
    child.on('exit', (code, signal) => gone(`exited (${signal ?? `code ${code}`})`));
    return child;
  }

  private send(message: unknown): void {
    this.outBuffer.push(JSON.stringify(message));
    if (this.outBuffer.length === 1) setImmediate(() => this.flush());
  }

  private flush(): void {
    if (this.outBuffer.length === 0) return;
    const text = this.outBuffer.join('\n') + '\n';
    this.outBuffer = [];
    this.ensure().stdin?.write(text);
  }

  run(request: LaunchRequest): Promise<LaunchResult> {
    if (this.closed || request.signal?.aborted)
      return Promise.resolve({ ...noResult, killed: true });
    this.ensure();
    const id = this.nextId++;
    return new Promise<LaunchResult>((resolve) => {
      const onAbort = () => this.send({ t: 'kill', id });
      request.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        onLine: request.onLine,
        resolve: (result) => {
          request.signal?.removeEventListener('abort', onAbort);
          resolve(result);
        },
      });
      const { signal: _signal, onLine: _onLine, ...fields } = request;
      this.send({ t: 'run', id, ...fields });
    });
  }

  /** Forgets the slot folders under `prefix` (their job ended and removed them). */
  forget(prefix: string): void {
    if (this.child) this.send({ t: 'forget', prefix });
  }

  /** Stops the launcher; it kills whatever it still runs. */
  close(): void {
    this.closed = true;
    const child = this.child;
    if (!child) return;
    this.flush();
    child.stdin?.end();
  }
}
