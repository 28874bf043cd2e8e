import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import {
  noResult,
  sharedFields,
  type FromLauncher,
  type LaunchResult,
  type RunFields,
  type RunMessage,
  type SharedField,
  type ShellSpec,
  type SlotFolder,
  type ToLauncher,
} from './launcher/protocol.ts';

export type { LaunchResult, PrepareSpec, ShellSpec, SlotFolder } from './launcher/protocol.ts';

/**
 * The server's side of the launcher (launcher/main.ts): one small Node process, started on
 * first use and restarted if it dies, that prepares a datum's folder, starts its process through
 * a long-lived `sh` of its worker slot (in the slot's sandbox) and hashes its outputs. Forking the
 * server (a large process) for every datum blocks its event loop for milliseconds; forking a
 * small shell costs about what a shell loop does.
 */

const launcherPath = fileURLToPath(new URL('./launcher/main.ts', import.meta.url));
/** The TypeScript loader the server itself runs with (tsx), for the launcher's modules. */
const loaderUrl = pathToFileURL(
  path.join(
    path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')),
    'dist/loader.mjs',
  ),
).href;

export interface LaunchRequest extends RunFields {
  signal?: AbortSignal;
  onLine?: (line: string) => void;
}

interface Pending {
  onLine?: (line: string) => void;
  resolve: (result: LaunchResult) => void;
}

const sameArgv = (a: string[], b: string[]) =>
  a === b || (a.length === b.length && a.every((arg, i) => arg === b[i]));

export class Launcher {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private outBuffer: string[] = [];
  private closed = false;
  /** The shells' argv the current launcher process has been sent, by key. */
  private sentShells = new Map<string, string[]>();
  /** The shared fields of the last request sent for each shell key (see RunMessage). */
  private sentFields = new Map<string, Partial<Record<SharedField, unknown>>>();

  /** `logDir`: a folder of its own, where processes' output is staged while they run. */
  constructor(private readonly logDir: string) {}

  private ensure(): ChildProcess {
    if (this.child) return this.child;
    const child = spawn(process.execPath, ['--import', loaderUrl, launcherPath, this.logDir], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { PATH: process.env.PATH ?? '' },
    });
    this.child = child;
    this.sentShells = new Map();
    this.sentFields = new Map();
    child.stdin?.on('error', () => undefined);
    const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
    lines.on('line', (text) => {
      let message: FromLauncher;
      try {
        message = JSON.parse(text) as FromLauncher;
      } catch {
        return;
      }
      const pending = this.pending.get(message.id);
      if (!pending) return;
      if (message.t === 'line') pending.onLine?.(message.line);
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

  private send(message: ToLauncher): void {
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
      const { signal: _signal, onLine: _onLine, shell, ...fields } = request;
      if (!shell) return this.send({ t: 'run', id, ...fields });
      // A shell's argv goes once (the launcher keeps it until `forget`).
      const known = this.knowShell(shell);
      const message: RunMessage = {
        ...fields,
        shell: known ? { key: shell.key, sandboxed: shell.sandboxed } : shell,
      };
      this.leaveOutShared(shell.key, message);
      this.send({ t: 'run', id, ...message });
    });
  }

  /**
   * Starts the shells of `slots` (their folders made first) before their first requests, written
   * at once: the sandboxes start while the server goes on preparing the job. (A slot's first
   * request then finds its shell running; one that comes first simply starts it.)
   */
  warm(slots: { shell: ShellSpec; slot: SlotFolder }[], group: string, limit: number): void {
    if (this.closed || slots.length === 0) return;
    this.ensure();
    for (const { shell, slot } of slots) {
      const known = this.knowShell(shell);
      this.send({
        t: 'warm',
        shell: known ? { key: shell.key, sandboxed: shell.sandboxed } : shell,
        slot,
        group,
        limit,
      });
    }
    this.flush();
  }

  /** Whether the launcher has `shell`'s argv already (else it is noted as sent now). */
  private knowShell(shell: ShellSpec): boolean {
    const sent = this.sentShells.get(shell.key);
    const known = sent !== undefined && sameArgv(sent, shell.argv);
    if (!known) {
      this.sentShells.set(shell.key, shell.argv);
      this.sentFields.delete(shell.key);
    }
    return known;
  }

  /**
   * Leaves out of `message` the shared fields that are the same (the same object, or an equal
   * string) as in the last request sent for `key`, naming them in `same`.
   */
  private leaveOutShared(key: string, message: RunMessage): void {
    let last = this.sentFields.get(key);
    if (!last) this.sentFields.set(key, (last = {}));
    const same: SharedField[] = [];
    const fields = message as Partial<Record<SharedField, unknown>>;
    for (const name of sharedFields) {
      const value = name === 'slot' ? message.prepare?.slot : fields[name];
      if (value === undefined) continue;
      if (last[name] === value) {
        same.push(name);
        if (name === 'slot') message.prepare = { ...message.prepare!, slot: undefined };
        else delete fields[name];
      } else last[name] = value;
    }
    if (same.length > 0) message.same = same;
  }

  /** Forgets the slot folders under `prefix` (their job ended and removed them). */
  forget(prefix: string): void {
    for (const key of this.sentShells.keys())
      if (key === prefix || key.startsWith(prefix + path.sep)) this.sentShells.delete(key);
    for (const key of this.sentFields.keys())
      if (key === prefix || key.startsWith(prefix + path.sep)) this.sentFields.delete(key);
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
