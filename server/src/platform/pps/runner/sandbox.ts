import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { noUserNamespacesFilter } from './sandbox-seccomp.ts';

/**
 * The sandbox datum processes run in: bubblewrap (`bwrap`), one per worker slot of a job. Inside,
 * a process sees the host's system folders read-only (/usr, /bin, /lib*, /sbin and a few files
 * of /etc), the project's own code read-only (so a datum may run a script of the project with
 * /usr/bin/node), its datum's inputs read-only at /pfs/<input> (an input the datum has no file
 * of is absent), /pfs/out writable, a private /tmp, /proc of its own processes and a minimal
 * /dev. It never sees the data folder (nor secret.key in it,
 * nor any job's folder) and has no network: it runs in namespaces of its own (mount, pid, net,
 * ipc, uts) as an unprivileged uid: nobody (65534) when the server runs as root, else the
 * server's own uid in a user namespace; a seccomp filter refuses it user namespaces of its own.
 * Its /tmp is a tmpfs of the datum's disk limit (the other limits: launcher/limits.ts).
 */

/** The file descriptor the launcher hands bubblewrap the seccomp filter on. */
export const SECCOMP_FD = 5;

/** Where bubblewrap is (IVORY_BWRAP, read when a job starts; by default Debian's). */
export const bwrapPath = (): string => process.env.IVORY_BWRAP || '/usr/bin/bwrap';
const setprivPath = '/usr/bin/setpriv';
/** The unprivileged uid and gid datum processes run as when the server runs as root. */
export const sandboxUid = 65534;

/** The repository's root (server/src/platform/pps → four up): its code and node_modules. */
export const projectRoot = path.resolve(fileURLToPath(new URL('../../../../..', import.meta.url)));

/** Files and folders of /etc that programs commonly need (names, certificates, time zone). */
const etcPieces = [
  'passwd',
  'group',
  'hosts',
  'nsswitch.conf',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'ssl',
  'ca-certificates',
  'localtime',
  'timezone',
  'mime.types',
  'os-release',
];
const systemFolders = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt'];

export interface SandboxAvailability {
  available: boolean;
  /** Why not, when not. */
  reason: string;
}

const checked = new Map<string, SandboxAvailability>();

/** Whether bubblewrap is installed and can make a sandbox here (checked once per path). */
export function sandboxAvailability(): SandboxAvailability {
  const bwrap = bwrapPath();
  let known = checked.get(bwrap);
  if (!known) {
    known = probe(bwrap);
    checked.set(bwrap, known);
  }
  return known;
}

function probe(bwrap: string): SandboxAvailability {
  if (!existsSync(bwrap))
    return { available: false, reason: `bubblewrap (${bwrap}) is not installed` };
  const probe = spawnSync(bwrap, [...hostArgs([]), ...identityArgs('/bin/true')], {
    timeout: 10_000,
    encoding: 'utf8',
  });
  return probe.status === 0
    ? { available: true, reason: '' }
    : {
        available: false,
        reason: `bubblewrap cannot make a sandbox here: ${(probe.stderr || probe.error?.message || `exit ${probe.status}`).trim()}`,
      };
}

/** Binds a host path read-only at the same place (a link stays a link). */
function bindSame(host: string): string[] {
  let info;
  try {
    info = lstatSync(host);
  } catch {
    return [];
  }
  if (info.isSymbolicLink()) return ['--symlink', readlinkSync(host), host];
  return ['--ro-bind', host, host];
}

const isUnder = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith('/') ? parent : parent + '/');

/** A path with its links resolved (as given when it does not exist). */
function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/**
 * The host's part of the sandbox: system folders, /etc pieces, the project's code (read-only),
 * with every folder in `hidden` masked by an empty tmpfs where it lies under one of them.
 */
function hostArgs(hidden: string[], tmpBytes = 0): string[] {
  const args: string[] = [];
  const bound: string[] = [];
  for (const dir of systemFolders) {
    const bind = bindSame(dir);
    if (bind[0] === '--ro-bind') bound.push(dir);
    args.push(...bind);
  }
  // A private /tmp first: the project's code, bound below, may itself live under /tmp. It is
  // RAM: its size is the datum's disk limit.
  args.push('--perms', '1777', ...(tmpBytes > 0 ? ['--size', String(tmpBytes)] : []));
  args.push('--tmpfs', '/tmp');
  args.push('--dir', '/etc');
  for (const name of etcPieces) args.push(...bindSame(path.join('/etc', name)));
  // The project's code, unless it lies in a folder bound already or inside a hidden one.
  if (
    !bound.some((dir) => isUnder(projectRoot, dir)) &&
    !hidden.some((dir) => isUnder(projectRoot, dir))
  ) {
    // Its parent folders as bwrap would make them are root's alone (0700): open them to all.
    const parents: string[] = [];
    for (let dir = path.dirname(projectRoot); dir !== '/'; dir = path.dirname(dir))
      if (dir !== '/tmp') parents.unshift(dir);
    for (const dir of parents) args.push('--perms', '0755', '--dir', dir);
    args.push('--ro-bind', projectRoot, projectRoot);
    bound.push(projectRoot);
  }
  // Where a hidden folder lies under a bound one (compared with links resolved), it is covered
  // at its path inside. (One that does not exist holds nothing to hide.)
  for (const dir of hidden) {
    if (!existsSync(dir)) continue;
    for (const b of bound) {
      const [realDir, realBound] = [real(dir), real(b)];
      if (realDir !== realBound && isUnder(realDir, realBound))
        args.push('--perms', '0000', '--tmpfs', path.join(b, path.relative(realBound, realDir)));
    }
  }
  args.push(
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--hostname',
    'datum',
    '--die-with-parent',
    '--chdir',
    '/',
  );
  return args;
}

/**
 * Who the shell runs as: as root, bwrap keeps the capabilities to switch user and `setpriv`
 * becomes nobody with none left; otherwise a user namespace with the caller's own uid.
 * Returns bwrap's options and what runs before the program (both end where the program starts).
 */
function identityArgs(program: string): string[] {
  if (process.getuid?.() !== 0) return ['--unshare-user', '--', program];
  return [
    ...['--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP'],
    '--',
    setprivPath,
    `--reuid=${sandboxUid}`,
    `--regid=${sandboxUid}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--no-new-privs',
    program,
  ];
}

export interface SandboxFolders {
  /**
   * Host folder seen read-only at /pfs: a worker slot's, holding an input's folder only while
   * its datum has files of that input (so an input that is not part of a datum is absent).
   */
  pfs: string;
  /** Host folder seen (writable) at /pfs/out; it lies in `pfs`. */
  out: string;
  /** Host folders never visible inside, even where they lie under a bound folder. */
  hidden: string[];
}

export interface SandboxOptions {
  /** The size of its /tmp (a tmpfs), in bytes; 0 = as large as the kernel allows. */
  tmpBytes?: number;
}

/**
 * The argv that starts a shell (/bin/sh reading commands on stdin) in a new sandbox. Where this
 * machine's seccomp filter is known (sandbox-seccomp.ts), bubblewrap reads it from fd 5 (the
 * launcher opens it there) and its processes can make no user namespace.
 */
export function sandboxShellArgv(folders: SandboxFolders, options: SandboxOptions = {}): string[] {
  const args = [bwrapPath(), ...hostArgs(folders.hidden, options.tmpBytes)];
  args.push('--ro-bind', folders.pfs, '/pfs');
  args.push('--bind', folders.out, '/pfs/out', '--clearenv', '--setenv', 'PATH', defaultPath);
  if (noUserNamespacesFilter()) args.push('--seccomp', String(SECCOMP_FD));
  args.push(...identityArgs('/bin/sh'));
  return args;
}

const defaultPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
