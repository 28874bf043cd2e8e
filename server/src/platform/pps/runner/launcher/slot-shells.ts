import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  ftruncateSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import type { DatumLimits } from '../../resources.ts';
import { noUserNamespacesFilter } from '../sandbox-seccomp.ts';
import { datumCgroups, type CgroupCounters, type SlotCgroup } from './cgroups.ts';
import { limitedArgv, limitReason } from './limits.ts';
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
  /** Handed to a second shell: its first died on its own before it started. */
  rerun?: boolean;
  onStart(entry: ShellEntry): void;
  onLine(entry: ShellEntry, line: string): void;
  /**
   * `status`: the exit status, or null when the shell died under it. `limit`: the limit it
   * broke, as a reason naming it ('' for none).
   */
  onExit(entry: ShellEntry, status: number | null, signal: string | null, limit: string): void;
}

interface Group {
  fifo: string;
  fd: number;
  limit: number;
  shells: Set<Shell>;
  /** When a process of the group last exited (as the launcher heard). */
  lastExit: number;
}

interface Shell {
  key: string;
  group: Group;
  child: ChildProcess;
  /** Requests handed to it, in order: the first runs (or waits for a token). */
  queue: ShellEntry[];
  /** Requests whose output may still be in the log (the first owns what is read next). */
  logOwners: ShellEntry[];
  dead: boolean;
  /** Killed here (kill, forget, close), not gone yet: the slot's next request gets a new one. */
  dying: boolean;
  logPath: string;
  logFd: number;
  logOffset: number;
  logText: string;
  decoder: StringDecoder;
  /** Its limits, and its control group (null: none, or rlimits only). */
  limits: DatumLimits | null;
  cgroup: SlotCgroup | null;
  /** The group's counters when its current process started (after the last one ended). */
  counters: CgroupCounters | null;
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
  /** Shared environments as the shell's assignments, by object (see assignments). */
  private readonly quotedEnv = new WeakMap<Record<string, string>, string>();
  /** Whether a name is a program on a PATH, by PATH and name, until `forget`. */
  private readonly programsOnPath = new Map<string, boolean>();
  private count = 0;

  /** `logDir`: where the shells' logs and the jobs' token FIFOs live. */
  constructor(private readonly logDir: string) {
    /** Reads the logs of busy shells while their processes run (lines reach the server soon). */
    setInterval(() => {
      for (const shell of this.shells.values()) if (shell.queue.length > 0) this.readLog(shell);
    }, 200).unref();
  }

  /** Hands a prepared request to its slot's shell (started first when there is none). */
  run(entry: ShellEntry): void {
    const spec = entry.request.shell as ShellSpec;
    const { group, limit } = entry.request;
    const shell = this.liveShell(spec.key) ?? this.newShell(spec, group, limit);
    const command = this.shellCommand(entry.id, entry.request);
    entry.queuedAt = performance.now();
    shell.queue.push(entry);
    shell.logOwners.push(entry);
    shell.child.stdin?.write(command);
  }

  /** Starts a slot's shell ahead of its first request (unless it has one). */
  warm(spec: ShellSpec, group: string, limit: number): void {
    if (!this.liveShell(spec.key)) this.newShell(spec, group, limit);
  }

  /** Whether a slot has a shell (alive or not gone yet). */
  has(key: string): boolean {
    return this.shells.has(key);
  }

  /** The slot's shell, unless it has none that can take a request. */
  private liveShell(key: string): Shell | undefined {
    const current = this.shells.get(key);
    return current &&
      !current.dying &&
      current.child.exitCode === null &&
      current.child.signalCode === null
      ? current
      : undefined;
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
        else shell.child.stdin?.end();
      }
    this.programsOnPath.clear();
  }

  /** Kills every shell (the server is gone). */
  close(): void {
    for (const shell of this.shells.values()) this.killShell(shell);
  }

  private filterPath = '';

  /** The sandbox's seccomp filter (sandbox-seccomp.ts), written once into the log folder. */
  private filterFile(): string {
    if (!this.filterPath) {
      const filter = noUserNamespacesFilter();
      if (!filter) throw new Error(`no seccomp filter is known for ${process.arch}`);
      const file = path.join(this.logDir, 'no-user-namespaces.bpf');
      writeFileSync(file, filter);
      this.filterPath = file;
    }
    return this.filterPath;
  }

  private group(name: string, limit: number): Group {
    let group = this.groups.get(name);
    if (!group) {
      const fifo = path.join(this.logDir, `tokens-${++this.count}`);
      const made = spawnSync('mkfifo', ['-m', '0600', fifo]);
      if (made.status !== 0) throw new Error(`cannot make a FIFO: ${String(made.stderr)}`);
      // Read and write: never blocks to open, and never sees an end while this process lives.
      const fd = openSync(fifo, 'r+');
      rmSync(fifo, { force: true });
      group = { fifo, fd, limit: Math.max(1, limit), shells: new Set(), lastExit: 0 };
      writeSync(group.fd, '\n'.repeat(group.limit));
      this.groups.set(name, group);
    }
    return group;
  }

  private newShell(spec: ShellSpec, groupName: string, limit: number): Shell {
    const group = this.group(groupName, limit);
    const logPath = path.join(this.logDir, String(++this.count));
    const logFd = openSync(logPath, 'a+');
    let cgroup: SlotCgroup | null = null;
    if (spec.limits) {
      try {
        cgroup = datumCgroups()?.create(`slot-${this.count}`, spec.limits) ?? null;
      } catch {
        cgroup = null; // rlimits only
      }
    }
    const argv = spec.limits ? limitedArgv(spec.argv, spec.limits, cgroup) : spec.argv;
    const [program = '/bin/sh', ...args] = argv;
    // fd 3: the log (appending); fd 4: the job's tokens; fd 5: the sandbox's seccomp filter.
    const filterFd = spec.argv.includes('--seccomp') ? openSync(this.filterFile(), 'r') : null;
    let child: ChildProcess;
    try {
      child = spawn(program, args, {
        stdio: [
          'pipe',
          'pipe',
          'ignore',
          logFd,
          group.fd,
          ...(filterFd === null ? [] : [filterFd]),
        ],
        env: {},
        detached: true,
      });
    } finally {
      if (filterFd !== null) closeSync(filterFd);
    }
    const shell: Shell = {
      key: spec.key,
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
      limits: spec.limits ?? null,
      cgroup,
      counters: cgroup?.counters() ?? null,
    };
    this.shells.set(spec.key, shell);
    group.shells.add(shell);
    child.stdin?.on('error', () => undefined);
    const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
    lines.on('line', (line) => {
      const [kind, id, value, tmpFree] = line.split(' ');
      const entry = shell.queue[0];
      if (!entry || entry.id !== Number(id)) return;
      if (kind === 'S') {
        entry.started = performance.now();
        entry.tokenTaken = true;
        entry.onStart(entry);
      } else if (kind === 'X') this.onProcessExit(shell, Number(value), tmpFree ?? '');
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

  /** Why the shell's process that just ended broke a limit ('' when it did not). */
  private limitBroken(shell: Shell, signal: string | null, tmpFree: string): string {
    if (!shell.limits) return '';
    const before = shell.counters;
    const after = shell.cgroup?.counters() ?? null;
    shell.counters = after;
    return limitReason(shell.limits, { before, after, signal, tmpFree });
  }

  private onProcessExit(shell: Shell, status: number, tmpFree: string): void {
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
    if (shell.logOffset > logLimit && shell.logOwners.length === 0) {
      ftruncateSync(shell.logFd, 0);
      shell.logOffset = 0;
    }
    const signal =
      status >= 128 && status - 128 in signalNames ? (signalNames[status - 128] as string) : null;
    const limit = this.limitBroken(shell, signal, tmpFree);
    if (signal) entry.onExit(entry, null, signal, limit);
    else entry.onExit(entry, status, null, limit);
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
    // The shell itself may have been killed at a limit (the out-of-memory killer picks it too).
    const limit = held.length > 0 ? this.limitBroken(shell, null, '') : '';
    shell.cgroup?.remove();
    // A process that started and never put its token back (killed, or it killed its shell).
    if (held[0]?.tokenTaken) writeSync(group.fd, '\n');
    const rerun: ShellEntry[] = [];
    for (const entry of held) {
      // What it printed last may lack its marker: it is still its own.
      if (shell.logOwners[0] === entry) this.sendLines(entry, shell.logText, true);
      shell.logText = '';
      shell.logOwners = shell.logOwners.filter((owner) => owner !== entry);
      // A shell that died on its own (a process of the last datum killed it, its sandbox
      // ended) before this one started: it runs in a new shell, once (a shell that cannot
      // start at all fails it the second time).
      if (!shell.dying && !entry.tokenTaken && !entry.rerun) {
        entry.rerun = true;
        rerun.push(entry);
      } else entry.onExit(entry, null, null, limit);
    }
    closeSync(shell.logFd);
    rmSync(shell.logPath, { force: true });
    if (group.shells.size === 0)
      for (const [name, g] of this.groups)
        if (g === group) {
          this.groups.delete(name);
          closeSync(g.fd);
        }
    for (const entry of rerun) {
      try {
        this.run(entry);
      } catch {
        entry.onExit(entry, null, null, '');
      }
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
   * A request's variables as the shell's assignments (`K='v' `…): its shared `env` quoted once
   * (the datums of a slot share one object), then its `extraEnv` (which then names no variable
   * of `env`: dash keeps the last of two assignments, but one is clearer).
   */
  private assignments(request: RunFields): string {
    const quoteAll = (env: Record<string, string>) =>
      Object.entries(env)
        .map(([k, v]) => `${k}=${quote(v)} `)
        .join('');
    const extra = request.extraEnv;
    if (extra && Object.keys(extra).some((key) => Object.hasOwn(request.env, key)))
      return quoteAll({ ...request.env, ...extra });
    let shared = this.quotedEnv.get(request.env);
    if (shared === undefined) this.quotedEnv.set(request.env, (shared = quoteAll(request.env)));
    return extra ? shared + quoteAll(extra) : shared;
  }

  /**
   * The shell command that runs a request: wait for a token, cd, environment, the program with
   * its stdin (a here-document) and its output to the log (fd 3); then the token back, in a
   * sandbox whatever the process left running killed, the marker and the exit line. The token
   * goes back first: the group's next process starts at once, while this shell finishes (in a
   * sandbox, `kill -1` walks every process of the machine: it is no part of the time between
   * two processes).
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
    const merged = request.extraEnv ? { ...request.env, ...request.extraEnv } : request.env;
    const env = Object.entries(merged ?? {});
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
      (name.includes('/') || this.isProgramOnPath(name, merged?.PATH ?? defaultPath));
    let run: string;
    if (simple) {
      const assignments = this.assignments(request);
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
    // A failed process of a sandbox with a size-limited /tmp: its free blocks, to tell a full
    // /tmp (the disk limit) from any other failure. (Only then: it costs a process.)
    const tmpCheck =
      request.shell?.sandboxed && (request.shell.limits?.diskBytes ?? 0) > 0
        ? `f=; [ "$s" -eq 0 ] || f=$(stat -f -c %a /tmp 2>/dev/null); `
        : 'f=; ';
    let command =
      `read t <&4; ${start}; ${run}; printf '\\n' >&4; ${sweep}${tmpCheck}` +
      `printf '%s' ${quote(marker(id))} >&3; echo "X ${id} $s $f"\n`;
    if (request.stdin) {
      const body = request.stdin.endsWith('\n') ? request.stdin : `${request.stdin}\n`;
      command += `${body}${endOfInput}\n`;
    }
    return command;
  }
}
