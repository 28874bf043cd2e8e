// The launcher: a small Node process the pipeline runner starts once and keeps (launcher.ts is
// the server's side). It prepares, starts and collects datum processes on the server's behalf:
// forking the large server process for every datum costs several milliseconds of blocking
// time, forking a shell of this one costs little. Started with the server's TypeScript loader.
//
// Protocol (protocol.ts): JSON lines in on stdin (`run`, `warm`, `kill`, `forget`), out on stdout
// (`line`, `exit`). A request's `prepare` runs as soon as it arrives, while earlier processes
// still run (slot-files.ts); then it is handed to its slot's shell (slot-shells.ts), which runs
// it when the job has a free token; `collect` runs after a successful exit. Lines, and the exits
// of successful requests whose job has more than twice its `limit` prepared ahead, are written
// within 10 ms, several at once; other exits at once. When stdin ends (the server is gone),
// every process it started is killed and it exits.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import type {
  FromLauncher,
  LaunchResult,
  RunFields,
  RunMessage,
  SharedField,
  ShellSpec,
  SlotFolder,
  ToLauncher,
  WarmMessage,
} from './protocol.ts';
import { noResult, sharedFields } from './protocol.ts';
import {
  collect,
  distrustSlot,
  forgetFolders,
  prepare,
  readySlot,
  resetSlot,
} from './slot-files.ts';
import { releaseGroups, removeStaleGroups } from './cgroups.ts';
import { SlotShells, type ShellEntry } from './slot-shells.ts';

/** Where the shells' output is staged while they run (argv[2]). */
const logDir = process.argv[2] as string;
rmSync(logDir, { recursive: true, force: true });
mkdirSync(logDir, { recursive: true });
removeStaleGroups();
const shells = new SlotShells(logDir);

interface Entry extends ShellEntry {
  phase: 'preparing' | 'queued' | 'running' | 'collecting';
  timedOut: boolean;
  killed: boolean;
  prepareMs: number;
  timer: NodeJS.Timeout | null;
  /** Kills a utility process (a request without a shell). */
  stop: (() => void) | null;
}

/** Requests being prepared, queued, running or collected, by id. */
const entries = new Map<number, Entry>();

/**
 * Messages to the server are written together: at once (on the next turn of the event loop)
 * when `soon`, else within `batchMs`. A write wakes the server, which costs more than the
 * message; exits of a group with enough prepared requests ahead can wait for the next ones.
 */
const batchMs = 10;
let outBuffer: string[] = [];
let flushTimer: NodeJS.Timeout | undefined;
let flushSoon = false;
function send(message: FromLauncher, soon = true): void {
  outBuffer.push(JSON.stringify(message));
  if (soon) {
    if (!flushSoon) {
      flushSoon = true;
      setImmediate(flushOut);
    }
  } else if (!flushTimer && !flushSoon) flushTimer = setTimeout(flushOut, batchMs);
}
function flushOut(): void {
  flushSoon = false;
  clearTimeout(flushTimer);
  flushTimer = undefined;
  if (outBuffer.length === 0) return;
  const text = outBuffer.join('\n') + '\n';
  outBuffer = [];
  process.stdout.write(text);
}

function exitMessage(entry: Entry, fields: Partial<LaunchResult>): FromLauncher {
  return {
    t: 'exit',
    id: entry.id,
    ...noResult,
    timedOut: entry.timedOut,
    killed: entry.killed,
    prepareMs: entry.prepareMs,
    ...fields,
  };
}

function end(entry: Entry, fields: Partial<LaunchResult>, soon = true): void {
  clearTimeout(entry.timer ?? undefined);
  entries.delete(entry.id);
  send(exitMessage(entry, fields), soon);
}

/**
 * Whether a group has enough requests prepared ahead (waiting in its shells) that the server
 * can hear of its exits a little later: it sends the next requests when it does.
 */
function wellFed(group: string, limit: number): boolean {
  let ahead = 0;
  for (const entry of entries.values())
    if (entry.request.group === group && entry.phase === 'queued') ahead++;
  return ahead > 2 * limit;
}

function onStart(shellEntry: ShellEntry): void {
  const entry = shellEntry as Entry;
  entry.phase = 'running';
  if (entry.request.timeoutMs > 0)
    entry.timer = setTimeout(() => {
      entry.timedOut = true;
      shells.kill(entry);
    }, entry.request.timeoutMs);
}

function onLine(entry: ShellEntry, line: string): void {
  send({ t: 'line', id: entry.id, line }, false);
}

/** A request's process ended (or its shell died): its outputs are collected, its slot emptied. */
function onExit(
  shellEntry: ShellEntry,
  code: number | null,
  signal: string | null,
  limit = '',
): void {
  const entry = shellEntry as Entry;
  const request = entry.request;
  clearTimeout(entry.timer ?? undefined);
  const ms = entry.started ? Math.round(performance.now() - entry.started) : 0;
  const slot = request.prepare?.slot;
  if (code === null && signal === null) {
    // The shell died under it.
    if (slot) distrustSlot(slot.root);
    if (entry.killed || entry.timedOut) return end(entry, { signal: 'SIGKILL', ms });
    if (limit) return end(entry, { signal: 'SIGKILL', ms, limit });
    return end(entry, { error: 'the shell that started it exited', ms });
  }
  const succeeded =
    !limit &&
    !entry.killed &&
    !entry.timedOut &&
    !signal &&
    (code === 0 || (code !== null && (request.accept ?? []).includes(code)));
  if (!request.collect || !succeeded) {
    if (slot && !succeeded) distrustSlot(slot.root);
    return end(entry, { code, signal, ms, limit });
  }
  entry.phase = 'collecting';
  const collectStarted = performance.now();
  const sandboxed = request.shell?.sandboxed;
  const sandboxPfs = sandboxed ? slot?.pfs : undefined;
  collect({ ...request.collect, sandboxPfs, sandboxTmp: sandboxed ? slot?.tmp : undefined }).then(
    ({ outputs, outEmpty }) => {
      try {
        if (slot) resetSlot(slot, outEmpty);
      } catch {
        // left as it is: the next prepare empties it
      }
      const collectMs = Math.round(performance.now() - collectStarted);
      end(entry, { code, signal, ms, outputs, collectMs }, !wellFed(request.group, request.limit));
    },
    (error: Error) => {
      if (slot) distrustSlot(slot.root);
      end(entry, { code, signal, ms, collectError: error.message });
    },
  );
}

/** A utility command (no shell, no sandbox): started directly. */
function runDirect(entry: Entry): void {
  const { request } = entry;
  const [program = '', ...args] = request.cmd;
  const started = performance.now();
  const child = spawn(program, args, {
    cwd: request.cwd,
    env: request.extraEnv ? { ...request.env, ...request.extraEnv } : request.env,
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  entry.phase = 'running';
  entry.stop = () => child.kill('SIGKILL');
  if (request.timeoutMs > 0)
    entry.timer = setTimeout(() => {
      entry.timedOut = true;
      child.kill('SIGKILL');
    }, request.timeoutMs);
  child.on('error', (error) => end(entry, { error: error.message }));
  child.on('exit', (code, signal) =>
    end(entry, { code, signal, ms: Math.round(performance.now() - started) }),
  );
}

/** The shells' argv, by key, as the server sent them with a key's first request. */
const shellArgv = new Map<string, string[]>();
/** The shells' limits, by key, sent with their argv. */
const shellLimits = new Map<string, ShellSpec['limits']>();
/** The shared fields of each shell key's last request (see RunMessage). */
const lastShared = new Map<string, Partial<Record<SharedField, unknown>>>();

/**
 * A request as sent, with its shell's argv and the shared fields it left out filled in (or why
 * they cannot be).
 */
function complete(message: RunMessage & { id: number }): (RunFields & { id: number }) | string {
  const { shell, same, ...fields } = message;
  if (!shell) return { ...(fields as RunFields & { id: number }), shell: undefined };
  let argv = shell.argv;
  if (argv) {
    shellArgv.set(shell.key, argv);
    shellLimits.set(shell.key, shell.limits);
    lastShared.delete(shell.key);
  } else argv = shellArgv.get(shell.key);
  if (!argv) return `no shell is known for ${shell.key}`;
  let last = lastShared.get(shell.key);
  if (!last) lastShared.set(shell.key, (last = {}));
  const values = fields as Partial<Record<SharedField, unknown>>;
  for (const name of sharedFields) {
    if (same?.includes(name)) {
      if (last[name] === undefined) return `no earlier ${name} is known for ${shell.key}`;
      if (name === 'slot') fields.prepare = { ...fields.prepare!, slot: last.slot as SlotFolder };
      else values[name] = last[name];
    } else {
      const value = name === 'slot' ? fields.prepare?.slot : values[name];
      if (value !== undefined) last[name] = value;
    }
  }
  return {
    ...(fields as RunFields & { id: number }),
    shell: { ...shell, argv, limits: shellLimits.get(shell.key) },
  };
}

async function receive(message: RunMessage & { id: number }): Promise<void> {
  // (Its slot is not warmed after this: it may hold this request's inputs by then.)
  if (message.shell) toWarm.delete(message.shell.key);
  const completed = complete(message);
  const request: RunFields & { id: number } =
    typeof completed === 'string'
      ? { cmd: [], cwd: '/', env: {}, stdin: '', ...message, shell: undefined }
      : completed;
  const entry: Entry = {
    id: request.id,
    request,
    started: 0,
    onStart,
    onLine,
    onExit,
    phase: 'preparing',
    timedOut: false,
    killed: false,
    prepareMs: 0,
    timer: null,
    stop: null,
  };
  entries.set(request.id, entry);
  if (typeof completed === 'string') return end(entry, { error: completed });
  if (request.prepare) {
    const begun = performance.now();
    try {
      await prepare(request.prepare);
    } catch (error) {
      if (request.prepare.slot) distrustSlot(request.prepare.slot.root);
      return end(entry, { prepareError: (error as Error).message });
    }
    entry.prepareMs = Math.round(performance.now() - begun);
  }
  if (entry.killed) return end(entry, {});
  if (!request.shell) return runDirect(entry);
  entry.phase = 'queued';
  try {
    shells.run(entry);
  } catch (error) {
    end(entry, { error: (error as Error).message });
  }
}

/**
 * Slots whose shells start ahead of their first requests, by shell key: one per turn of the
 * event loop, so that requests and exits are handled in between (a spawn blocks this process
 * until the sandbox's program has started). A slot's request takes it off this list: it starts
 * its own shell if it has none yet.
 */
const toWarm = new Map<string, WarmMessage & { argv: string[] }>();

/** Notes a slot to warm (its folder made first: a sandbox binds it). */
function warm(message: WarmMessage): void {
  const { shell } = message;
  // A request of the slot came first: the slot may hold its inputs already.
  if (lastShared.has(shell.key)) return;
  if (shell.argv) {
    shellArgv.set(shell.key, shell.argv);
    shellLimits.set(shell.key, shell.limits);
    lastShared.delete(shell.key);
  }
  const argv = shellArgv.get(shell.key);
  if (!argv) return;
  toWarm.set(shell.key, { ...message, argv });
  if (toWarm.size === 1) setImmediate(warmNext);
}

/** Starts the next slot's shell to warm. Whatever fails, the slot's first request meets again. */
function warmNext(): void {
  const next = toWarm.values().next();
  if (next.done) return;
  const { shell, slot, argv, group, limit } = next.value;
  toWarm.delete(shell.key);
  try {
    if (!shells.has(shell.key)) {
      readySlot(slot);
      shells.warm({ ...shell, argv, limits: shellLimits.get(shell.key) }, group, limit);
    }
  } catch {
    distrustSlot(slot.root);
  }
  if (toWarm.size > 0) setImmediate(warmNext);
}

function kill(id: number): void {
  const entry = entries.get(id);
  if (!entry) return;
  entry.killed = true;
  if (entry.stop) entry.stop();
  else if (entry.phase === 'queued' || entry.phase === 'running') shells.kill(entry);
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => {
  if (!line) return;
  let message: ToLauncher;
  try {
    message = JSON.parse(line) as ToLauncher;
  } catch {
    return;
  }
  if (message.t === 'run') void receive(message);
  else if (message.t === 'warm') warm(message);
  else if (message.t === 'kill') kill(message.id);
  else if (message.t === 'forget') {
    const under = (key: string) =>
      key === message.prefix || key.startsWith(message.prefix + path.sep);
    for (const key of shellArgv.keys()) if (under(key)) shellArgv.delete(key);
    for (const key of shellLimits.keys()) if (under(key)) shellLimits.delete(key);
    for (const key of lastShared.keys()) if (under(key)) lastShared.delete(key);
    for (const key of toWarm.keys()) if (under(key)) toWarm.delete(key);
    forgetFolders(message.prefix);
    shells.forget(message.prefix);
  }
});
input.on('close', () => {
  shells.close();
  for (const entry of entries.values()) entry.stop?.();
  flushOut();
  void releaseGroups().finally(() => process.exit(0));
});
process.stdout.on('error', () => process.exit(0));
