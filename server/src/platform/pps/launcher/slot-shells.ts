import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  readSync as readFd,
  ftruncateSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import type { RunFields, ShellSpec } from './protocol.ts';

/**
 * The shells that start datum processes: one long-lived `sh` per worker slot of a job (inside
 * that slot's sandbox, or plain), each in a process group of its own. Forking a small shell
 * costs far less than forking a Node process; a shell starts its process with vfork when it can.
 *
 * At most `limit` processes of a job run at once: the job's shells share a FIFO holding `limit`
 * one-byte tokens. A shell is handed its slot's next request at once; it waits for a token
 * (`read`), reports the start ("S <id>"), runs the process, puts the token back and reports the
 * exit ("X <id> <status>"). So the next process starts the moment the last one exits, without
 * waiting for this process. Every process writes its stdout and stderr to its shell's log (fd 3,
 * appending); after each process the shell appends a marker line naming it, so output is never
 * credited to the wrong process. Killing a process (a timeout, a stop) kills the shell's whole
 * process group (and sandbox); the shell is started again for the slot's next request.
 */

export interface ShellEntry {
  id: number;
  request: RunFields;
  /**
   * When its process started: from the shell's "S" line when it has a timeout; else taken, when
   * it exits, as the later of when it was handed to its shell and the group's last exit.
   */
  started: number;
  /** When it was handed to its shell. */
  queuedAt?: number;
  /** Whether its shell took a token for it (an "S" line, or its start marker in the log). */
  tokenTaken?: boolean;
  onStart(entry: ShellEntry): void;
  onLine(entry: ShellEntry, line: string): void;
  /** `status`: the exit status, or null when the shell died under it. */
  onExit(entry: ShellEntry, status: number | null, signal: string | null): void;
}

interface Group {
  fifo: string;
  /** The FIFO as the shells read it (blocking). */
  fd: number;
  /** The same FIFO, non-blocking: where the launcher puts tokens back or takes them away. */
  ctl: number;
  limit: number;
  /** Tokens still to take away (the limit went down while some were held). */
  debt: number;
  shells: Set<Shell>;
  /** When a process of the group last exited (as the launcher heard). */
  lastExit: number;
}

interface Shell {
  key: string;
  argv: string[];
  identity: string;
  sandboxed: boolean;
  /** Since when it has been kept idle after its job ended (0 while a job uses it). */
  idleSince: number;
  group: Group;
  child: ChildProcess;
  /** Requests handed to it, in order: the first runs (or waits for a token). */
  queue: ShellEntry[];
  /** Requests whose output may still be in the log (the first owns what is read next). */
  logOwners: ShellEntry[];
  dead: boolean;
  /** Killed, not gone yet: the slot's next request gets a new shell. */
  dying: boolean;
  logPath: string;
  logFd: number;
  logOffset: number;
  logText: string;
  decoder: StringDecoder;
}

const readBuffer = Buffer.alloc(64 * 1024);
/** A shell's log file is emptied when a process ends and it has grown past this. */
const logLimit = 1024 * 1024;
const signalNames: Record<number, string> = Object.fromEntries(
  Object.entries(osConstants.signals).map(([name, n]) => [n, name]),
);
/** Part of the log markers: a process cannot end another's output by accident. */
const markerNonce = randomBytes(8).toString('hex');
const marker = (id: number) => `\x1e${markerNonce}:${id}\x1e\n`;
/** Written to the log when a process without a timeout starts (no line to wake the launcher). */
const startMarker = (id: number) => `\x1e${markerNonce}:S${id}\x1e\n`;
const startMarkers = new RegExp(`\x1e${markerNonce}:S(\\d+)\x1e\n`, 'g');
const quote = (text: string) => `'${String(text).replace(/'/g, "'\\''")}'`;
const shellName = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** dash's search path when the environment has none. */
const defaultPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Names dash reads as its own (builtins, keywords): it would not run a program of that name. */
const shellWords = new Set(
  (
    '. : [ alias bg break cd chdir command continue echo eval exec exit export false fc fg ' +
    'getopts hash jobs kill local printf pwd read readonly return set shift test times trap ' +
    'true type ulimit umask unalias unset wait if then else elif fi case esac for while until ' +
    'do done { } ! in'
  ).split(' '),
);

export class SlotShells {
  private readonly groups = new Map<string, Group>();
  private readonly shells = new Map<string, Shell>();
  /** Whether a name is a program on a PATH, by PATH and name, until `forget`. */
  private readonly programsOnPath = new Map<string, boolean>();
  private count = 0;

  /**
   * `logDir`: where the shells' logs and the jobs' token FIFOs live. `idleMs`: how long a
   * sandbox kept after its job ended waits for the pipeline's next job before it ends.
   */
  constructor(
    private readonly logDir: string,
    private readonly idleMs = 60_000,
  ) {
    /** Reads the logs of busy shells while their processes run (lines reach the server soon). */
    setInterval(() => {
      const now = performance.now();
      for (const shell of this.shells.values()) {
        if (shell.queue.length > 0) this.readLog(shell);
        else if (shell.idleSince && now - shell.idleSince > this.idleMs) this.endShell(shell);
      }
    }, 200).unref();
  }

  /**
   * Hands a prepared request to its slot's shell: the slot's current one when it was started
   * the same way (a sandbox kept from the pipeline's last job), else a new one.
   */
  run(entry: ShellEntry): void {
    const spec = entry.request.shell as ShellSpec;
    const current = this.shells.get(spec.key);
    const reusable =
      current &&
      !current.dying &&
      this.groups.get(entry.request.group) === current.group &&
      current.identity === (spec.identity ?? '') &&
      current.argv.length === spec.argv.length &&
      current.argv.every((arg, i) => arg === spec.argv[i]);
    if (current && !reusable) {
      if (current.queue.length > 0) this.killShell(current);
      else this.endShell(current);
    }
    const shell = current && reusable ? current : this.newShell(spec, entry.request);
    shell.idleSince = 0;
    // (A group outlives a job when its sandboxes are kept: the next job may have a new limit.)
    if (shell.group.limit !== Math.max(1, entry.request.limit))
      this.setLimit(shell.group, entry.request.limit);
    const command = this.shellCommand(entry.id, entry.request);
    entry.queuedAt = performance.now();
    shell.queue.push(entry);
    shell.logOwners.push(entry);
    shell.child.stdin?.write(command);
  }

  /** Kills the shell running (or holding) `entry`; it reports the entry's exit. */
  kill(entry: ShellEntry): void {
    for (const shell of this.shells.values())
      if (shell.queue.includes(entry)) return this.killShell(shell);
  }

  /** Ends the shells of the slots under `prefix` (their job ended) and their job's token FIFO. */
  forget(prefix: string): void {
    const under = (key: string) => key === prefix || key.startsWith(prefix + path.sep);
    for (const shell of this.shells.values())
      if (under(shell.key)) {
        if (shell.queue.length > 0) this.killShell(shell);
        else this.endShell(shell);
      }
    this.programsOnPath.clear();
  }

  /**
   * The job of the sandboxes under `prefix` ended: they are kept for the pipeline's next job
   * (until `idleMs` passes), their /tmp emptied now. One still busy (a stopped job) is killed;
   * one whose /tmp cannot be emptied ends.
   */
  release(prefix: string): void {
    const under = (key: string) => key === prefix || key.startsWith(prefix + path.sep);
    for (const shell of this.shells.values()) {
      if (!under(shell.key) || shell.dying) continue;
      if (!shell.sandboxed) this.endShell(shell);
      else if (shell.queue.length > 0) this.killShell(shell);
      else {
        shell.idleSince = performance.now();
        // (Its processes run as the sandbox's one user, so they can only leave files it may
        // delete; mount points of the project's code, if any, stay, and the shell then ends.)
        shell.child.stdin?.write(
          'find /tmp -xdev -mindepth 1 -delete </dev/null >/dev/null 2>&1 3>&- 4>&- || exit\n',
        );
      }
    }
    this.programsOnPath.clear();
  }

  private endShell(shell: Shell): void {
    shell.dying = true;
    shell.child.stdin?.end();
  }

  /**
   * A group's limit for its next job: tokens are added, or taken away from the FIFO (those held
   * by running processes when they come back).
   */
  private setLimit(group: Group, wanted: number): void {
    const limit = Math.max(1, wanted);
    if (limit > group.limit) {
      const extra = limit - group.limit;
      const paid = Math.min(group.debt, extra);
      group.debt -= paid;
      if (extra > paid) writeSync(group.ctl, '\n'.repeat(extra - paid));
    } else group.debt += group.limit - limit;
    group.limit = limit;
    this.payDebt(group);
  }

  private payDebt(group: Group): void {
    while (group.debt > 0) {
      try {
        const n = readFd(group.ctl, readBuffer, 0, Math.min(group.debt, readBuffer.length), null);
        if (n <= 0) return;
        group.debt -= n;
      } catch {
        return; // none there now (EAGAIN): they are held
      }
    }
  }

  /** Kills every shell (the server is gone). */
  close(): void {
    for (const shell of this.shells.values()) this.killShell(shell);
  }

  private group(name: string, limit: number): Group {
    let group = this.groups.get(name);
    if (!group) {
      const fifo = path.join(this.logDir, `tokens-${++this.count}`);
      const made = spawnSync('mkfifo', ['-m', '0600', fifo]);
      if (made.status !== 0) throw new Error(`cannot make a FIFO: ${String(made.stderr)}`);
      // Read and write: never blocks to open, and never sees an end while this process lives.
      const fd = openSync(fifo, 'r+');
      const ctl = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
      rmSync(fifo, { force: true });
      group = {
        fifo,
        fd,
        ctl,
        limit: Math.max(1, limit),
        debt: 0,
        shells: new Set(),
        lastExit: 0,
      };
      writeSync(group.ctl, '\n'.repeat(group.limit));
      this.groups.set(name, group);
    }
    return group;
  }

  private newShell(spec: ShellSpec, request: RunFields): Shell {
    const group = this.group(request.group, request.limit);
    const logPath = path.join(this.logDir, String(++this.count));
    const logFd = openSync(logPath, 'a+');
    const [program = '/bin/sh', ...args] = spec.argv;
    // fd 3: the log (appending); fd 4: the job's tokens.
    const child = spawn(program, args, {
      stdio: ['pipe', 'pipe', 'ignore', logFd, group.fd],
      env: {},
      detached: true,
    });
    const shell: Shell = {
      key: spec.key,
      argv: spec.argv,
      identity: spec.identity ?? '',
      sandboxed: spec.sandboxed,
      idleSince: 0,
      group,
      child,
      queue: [],
      logOwners: [],
      dead: false,
      dying: false,
      logPath,
      logFd,
      logOffset: 0,
      logText: '',
      decoder: new StringDecoder('utf8'),
    };
    this.shells.set(spec.key, shell);
    group.shells.add(shell);
    child.stdin?.on('error', () => undefined);
    const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
    lines.on('line', (line) => {
      const [kind, id, value] = line.split(' ');
      const entry = shell.queue[0];
      if (!entry || entry.id !== Number(id)) return;
      if (kind === 'S') {
        entry.started = performance.now();
        entry.tokenTaken = true;
        entry.onStart(entry);
      } else if (kind === 'X') this.onProcessExit(shell, Number(value));
    });
    // 'close': every line it printed has been read by then.
    child.on('close', () => this.onShellGone(shell));
    child.on('error', () => this.onShellGone(shell));
    return shell;
  }

  private killShell(shell: Shell): void {
    if (shell.dead) return;
    shell.dying = true;
    try {
      process.kill(-(shell.child.pid as number), 'SIGKILL');
    } catch {
      shell.child.kill('SIGKILL');
    }
  }

  private onProcessExit(shell: Shell, status: number): void {
    const entry = shell.queue.shift() as ShellEntry;
    this.readLog(shell);
    if (shell.logOwners[0] === entry) {
      // Its marker was not found (it cannot be missing, but its output must end with it).
      shell.logText = this.sendLines(entry, shell.logText, true);
      shell.logOwners.shift();
    }
    const now = performance.now();
    if (!entry.started) entry.started = Math.max(entry.queuedAt ?? now, shell.group.lastExit);
    shell.group.lastExit = now;
    if (shell.group.debt > 0) this.payDebt(shell.group);
    if (shell.logOffset > logLimit && shell.logOwners.length === 0) {
      ftruncateSync(shell.logFd, 0);
      shell.logOffset = 0;
    }
    if (status >= 128 && status - 128 in signalNames)
      entry.onExit(entry, null, signalNames[status - 128] as string);
    else entry.onExit(entry, status, null);
  }

  private onShellGone(shell: Shell): void {
    if (shell.dead) return;
    shell.dead = true;
    this.readLog(shell);
    if (this.shells.get(shell.key) === shell) this.shells.delete(shell.key);
    const group = shell.group;
    group.shells.delete(shell);
    const held = shell.queue;
    shell.queue = [];
    // A process that started and never put its token back (killed, or it killed its shell).
    if (held[0]?.tokenTaken) {
      if (group.debt > 0) group.debt--;
      else writeSync(group.ctl, '\n');
    }
    for (const entry of held) {
      // What it printed last may lack its marker: it is still its own.
      if (shell.logOwners[0] === entry) this.sendLines(entry, shell.logText, true);
      shell.logText = '';
      shell.logOwners = shell.logOwners.filter((owner) => owner !== entry);
      entry.onExit(entry, null, null);
    }
    closeSync(shell.logFd);
    rmSync(shell.logPath, { force: true });
    if (group.shells.size === 0)
      for (const [name, g] of this.groups)
        if (g === group) {
          this.groups.delete(name);
          closeSync(g.fd);
          closeSync(g.ctl);
        }
  }

  /** Sends the complete lines of `text` as `entry`'s output; returns the unfinished last line. */
  private sendLines(entry: ShellEntry | undefined, text: string, final: boolean): string {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      if (entry) entry.onLine(entry, text.slice(start, newline));
      start = newline + 1;
    }
    const rest = text.slice(start);
    if (!final) return rest;
    if (entry && rest) entry.onLine(entry, rest);
    return '';
  }

  /** Reads what the shell's processes added to its log and credits it to its owners. */
  private readLog(shell: Shell): void {
    for (;;) {
      let n = 0;
      try {
        n = readSync(shell.logFd, readBuffer, 0, readBuffer.length, shell.logOffset);
      } catch {
        break;
      }
      if (n === 0) break;
      shell.logOffset += n;
      shell.logText += shell.decoder.write(readBuffer.subarray(0, n));
      if (n < readBuffer.length) break; // the end of the file, for now
    }
    // Start markers: the process named took a token; they are not output.
    if (shell.logText.includes(`${markerNonce}:S`))
      shell.logText = shell.logText.replace(startMarkers, (_, id: string) => {
        const started = shell.queue.find((entry) => entry.id === Number(id));
        if (started) started.tokenTaken = true;
        return '';
      });
    for (;;) {
      const owner = shell.logOwners[0];
      const at = owner ? shell.logText.indexOf(marker(owner.id)) : -1;
      if (!owner || at === -1) {
        shell.logText = this.sendLines(owner, shell.logText, false);
        return;
      }
      this.sendLines(owner, shell.logText.slice(0, at), true);
      shell.logText = shell.logText.slice(at + marker(owner.id).length);
      shell.logOwners.shift();
    }
  }

  /**
   * Whether the shell finds `name` as a program file on `searchPath`: in one of its absolute
   * folders, before any relative one (those depend on the working folder).
   */
  private isProgramOnPath(name: string, searchPath: string): boolean {
    const key = `${searchPath}\0${name}`;
    let found = this.programsOnPath.get(key);
    if (found !== undefined) return found;
    found = false;
    for (const dir of searchPath.split(':')) {
      if (!path.isAbsolute(dir)) break;
      const candidate = path.join(dir, name);
      try {
        if (statSync(candidate).isFile()) {
          accessSync(candidate, constants.X_OK);
          found = true;
          break;
        }
      } catch {
        // not there, or not executable: the next folder
      }
    }
    this.programsOnPath.set(key, found);
    return found;
  }

  /**
   * The shell command that runs a request: wait for a token, cd, environment, the program with
   * its stdin (a here-document) and its output to the log (fd 3); then the token back, the
   * marker and the exit line. In a sandbox, whatever the process left running is killed first.
   *
   * When the program is a file the shell will find (a path, or a name on PATH that is not one of
   * the shell's own words) and every variable has a shell name, it runs as a simple command in a
   * group (`{ cd dir && VAR=value prog args; }`), which dash starts with vfork: cheaper than the
   * fork of a subshell, about a sixth of a trivial datum's time. (The shell's own working folder
   * changes with it; every command sets it.) Otherwise (`echo`, `exit`, a name on a relative PATH
   * folder, variables that need `env -i`) it runs in a subshell that execs it, where the program
   * runs rather than a builtin, and nothing it does touches this shell.
   */
  private shellCommand(id: number, request: RunFields): string {
    const env = Object.entries(request.env ?? {});
    const [name = ''] = request.cmd;
    const argv = request.cmd.map(quote).join(' ');
    const endOfInput = `IVORY_STDIN_${markerNonce}_${id}`;
    const input = request.stdin ? `<<'${endOfInput}'` : '</dev/null';
    const redirect = `${input} >&3 2>&3 3>&- 4>&-`;
    const shellNames = env.every(([key]) => shellName.test(key));
    const simple =
      shellNames &&
      name !== '' &&
      !name.includes('=') &&
      !shellWords.has(name) &&
      (name.includes('/') || this.isProgramOnPath(name, request.env?.PATH ?? defaultPath));
    let run: string;
    if (simple) {
      const assignments = env.map(([k, v]) => `${k}=${quote(v)} `).join('');
      run = `{ cd ${quote(request.cwd)} && ${assignments}${argv}; } ${redirect}; s=$?`;
    } else {
      // `env -i` (one more exec) only when a variable's name is not a shell name.
      const exec = shellNames
        ? `${env.length > 0 ? `export ${env.map(([k, v]) => quote(`${k}=${v}`)).join(' ')}; ` : ''}exec ${argv}`
        : `exec env -i ${env.map(([k, v]) => quote(`${k}=${v}`)).join(' ')} ${argv}`;
      run = `(cd ${quote(request.cwd)} && ${exec}) ${redirect} & wait $!; s=$?`;
    }
    // (Only in a sandbox: there -1 is every other process of the sandbox, nothing else.)
    const sweep = request.shell?.sandboxed ? 'kill -9 -1 2>/dev/null; ' : '';
    // Its start: a line to the launcher when a timeout must start with it, else a marker in the
    // log (the launcher reads it only if the shell dies: whether it holds a token).
    const start =
      request.timeoutMs > 0 ? `echo "S ${id}"` : `printf '%s' ${quote(startMarker(id))} >&3`;
    let command =
      `read t <&4; ${start}; ${run}; ${sweep}printf '\\n' >&4; ` +
      `printf '%s' ${quote(marker(id))} >&3; echo "X ${id} $s"\n`;
    if (request.stdin) {
      const body = request.stdin.endsWith('\n') ? request.stdin : `${request.stdin}\n`;
      command += `${body}${endOfInput}\n`;
    }
    return command;
  }
}
