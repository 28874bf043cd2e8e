import { existsSync } from 'node:fs';
import { formatBytes, type DatumLimits } from '../../resources.ts';
import type { CgroupCounters, SlotCgroup } from './cgroups.ts';

/**
 * A worker slot's limits on its shell (and so on every datum process it starts): its control
 * group (cgroups.ts) for memory, processes and CPU where the machine has one; rlimits (prlimit)
 * otherwise — address space for memory, processes per user — and always for the size of any
 * one file written (the disk limit) and no core dumps. The sandbox's /tmp is a tmpfs of the
 * disk limit's size (sandbox.ts). And why a datum that ended broke a limit, if it did.
 */

const PRLIMIT = '/usr/bin/prlimit';

/**
 * Joins the control groups given as arguments (their cgroup.procs files, after a count), then
 * execs the rest: everything the shell starts is in them from its first instruction.
 */
const JOIN_SCRIPT =
  'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n - 1)); done; exec "$@"';

/** The argv that starts a slot's shell within its limits. */
export function limitedArgv(
  argv: string[],
  limits: DatumLimits,
  group: SlotCgroup | null,
): string[] {
  const rlimits = ['--core=0'];
  if (limits.diskBytes > 0) rlimits.push(`--fsize=${limits.diskBytes}`);
  if (!group) {
    if (limits.memoryBytes > 0) rlimits.push(`--as=${limits.memoryBytes}`);
    if (limits.pids > 0) rlimits.push(`--nproc=${limits.pids}`);
  }
  const limited = existsSync(PRLIMIT) ? [PRLIMIT, ...rlimits, '--', ...argv] : argv;
  if (!group) return limited;
  return [
    '/bin/sh',
    '-c',
    JOIN_SCRIPT,
    'ivory-join',
    String(group.procsFiles.length),
    ...group.procsFiles,
    ...limited,
  ];
}

/** What a datum's end says about its limits: the counters before and after it, and its end. */
export interface LimitEvidence {
  before: CgroupCounters | null;
  after: CgroupCounters | null;
  /** The signal that ended it (SIGXFSZ: a file over the size limit). */
  signal: string | null;
  /** Free blocks of its /tmp when it failed ('' unknown). */
  tmpFree: string;
}

/** Why a datum broke one of its limits ('' when it did not), naming the limit. */
export function limitReason(limits: DatumLimits, evidence: LimitEvidence): string {
  const { before, after } = evidence;
  if (before && after && after.oomKills > before.oomKills)
    return `over its memory limit (${formatBytes(limits.memoryBytes)}): killed by the out-of-memory killer`;
  if (before && after && after.forksRefused > before.forksRefused)
    return `hit its process limit (${limits.pids} processes and threads): a fork was refused`;
  if (evidence.signal === 'SIGXFSZ')
    return `a file grew over its disk limit (${formatBytes(limits.diskBytes)})`;
  if (evidence.tmpFree === '0')
    return `its /tmp is full: over its disk limit (${formatBytes(limits.diskBytes)})`;
  return '';
}
