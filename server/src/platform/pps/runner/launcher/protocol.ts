import type { OutputFile } from '../../pps-store.ts';
import type { DatumLimits } from '../../resources.ts';

/**
 * The messages between the server (launcher.ts) and the launcher process (launcher/main.ts):
 * JSON lines. The server sends `run`, `warm` (a slot's shell started ahead), `kill` and `forget`
 * (a job ended: its slots' shells end); the launcher answers `line` (one line of a process's
 * output) and `exit` (its result).
 */

/**
 * The shell a request runs in: one long-lived `sh` per key (a worker slot of a job), started
 * with `argv` (plain `/bin/sh`, or `/bin/sh` inside a sandbox, see sandbox.ts) on the first
 * request of that key and ended by `forget`.
 */
export interface ShellSpec {
  key: string;
  /**
   * Sent with a key's first request only (the server's side leaves it out after that, and the
   * launcher keeps it until `forget`): a sandbox's argv is most of a request's size.
   */
  argv: string[];
  /**
   * Whether `argv` makes a sandbox: then whatever a process leaves running is killed when it
   * ends, and its outputs are taken as untrusted (links only inside /pfs, owned by the server).
   */
  sandboxed: boolean;
  /**
   * What each process of the shell may use (its control group, or rlimits: limits.ts); none
   * when unset. Sent with `argv`.
   */
  limits?: DatumLimits;
}

/**
 * A datum folder that the datums of one job run reuse one after another: emptied after a
 * success, emptied again before the next datum after a failure or when its token is new. Its
 * folders are never removed while the job runs (a sandbox binds them).
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
  /**
   * The host folder its sandbox sees as /tmp, when it has one: an output that is a link into /tmp
   * is read from there.
   */
  tmp?: string;
  /** Made the owner of `out` (uid = gid) when set: the sandbox's unprivileged user. */
  outOwner?: number;
  /**
   * Inputs may be hard links to the stored blobs (no bytes copied) when set: only where a
   * sandbox binds the input folders read-only, so a process can neither write nor chmod them.
   */
  linkInputs?: boolean;
}

export interface PrepareSpec {
  slot?: SlotFolder;
  /** Made (with parents) besides the slot's own folders. */
  dirs: string[];
  /** [source, target, size]: copied (reflinked where the filesystem can). */
  copies: [string, string, number][];
  /** Created empty. */
  empties: string[];
  /**
   * [target, blob]: an `emptyFiles` input's file, created empty, whose bytes are the blob's: an
   * output that is a link to it lands with those bytes (as in pachd), not empty.
   */
  emptied?: [string, string][];
}

/** What a request asks for, as sent (the server's LaunchRequest without its callbacks). */
export interface RunFields {
  cmd: string[];
  cwd: string;
  env: Record<string, string>;
  /**
   * Variables of this request alone, set over `env` (a datum's ID): `env` can then be one object
   * for all the requests of a shell, sent once (see RunMessage) and quoted once.
   */
  extraEnv?: Record<string, string>;
  /** Written to the process's stdin, which is then closed. */
  stdin: string;
  /** Killed (its whole sandbox or process group) after this long; 0 = no limit. */
  timeoutMs: number;
  /** At most `limit` processes of one group run at once. */
  group: string;
  limit: number;
  /** Exit codes that count as success besides 0 (for `collect`). */
  accept?: number[];
  /** The shell it runs in; without one it is started directly (a utility: sync, chattr). */
  shell?: ShellSpec;
  /** Done before the process starts (as soon as the request arrives, while others run). */
  prepare?: PrepareSpec;
  /**
   * Done after a successful exit: each file under `out` is hashed and moved to `stage`/<hash>;
   * then the slot is emptied into its `trash` folder.
   */
  collect?: { out: string; stage: string };
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
  /** The limit it broke, as a reason naming it ('' when none): it failed, whatever its exit. */
  limit: string;
}

export const noResult: LaunchResult = {
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
  limit: '',
};

/**
 * Fields of a shell's requests that are most often the same object for all of them (a job's
 * datums in one worker slot): each is sent with a key's first request, and after only when it
 * changes; `same` names those left out, which the launcher takes from its last request.
 */
export const sharedFields = ['env', 'cmd', 'cwd', 'stdin', 'collect', 'slot'] as const;
export type SharedField = (typeof sharedFields)[number];

/**
 * A request as sent: its shell's argv left out when the launcher has it already, and the shared
 * fields named in `same` left out (`slot` is `prepare.slot`).
 */
export type RunMessage = Omit<RunFields, 'shell' | 'env' | 'cmd' | 'cwd' | 'stdin'> &
  Partial<Pick<RunFields, 'env' | 'cmd' | 'cwd' | 'stdin'>> & {
    shell?: Omit<ShellSpec, 'argv' | 'limits'> & Partial<Pick<ShellSpec, 'argv' | 'limits'>>;
    same?: SharedField[];
  };

/**
 * Starts a slot's shell ahead of its first request, its folder made first (a sandbox binds it):
 * a sandbox takes milliseconds to start, and they then pass while the server still prepares
 * the job rather than between its first datums. `shell.argv` as in a request.
 */
export interface WarmMessage {
  t: 'warm';
  shell: Omit<ShellSpec, 'argv' | 'limits'> & Partial<Pick<ShellSpec, 'argv' | 'limits'>>;
  slot: SlotFolder;
  group: string;
  limit: number;
}

export type ToLauncher =
  | ({ t: 'run'; id: number } & RunMessage)
  | WarmMessage
  | { t: 'kill'; id: number }
  | { t: 'forget'; prefix: string };

export type FromLauncher =
  { t: 'line'; id: number; line: string } | ({ t: 'exit'; id: number } & LaunchResult);
