import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { DatumLimits } from '../../resources.ts';

/**
 * Control groups for datum processes: one per worker slot (its shell and everything the shell
 * starts), with the slot's memory, process and CPU limits, and the counters that tell whether a
 * datum hit one (an out-of-memory kill, a refused fork).
 *
 * - cgroup v2 where the machine delegates it (the unified hierarchy at /sys/fs/cgroup, with the
 *   memory and pids controllers, and our own cgroup writable): our processes move into a leaf of
 *   our cgroup, which then enables the controllers for `ivory-datums-<pid>`, whose children are
 *   the slots (the rule of no processes in an inner cgroup).
 * - cgroup v1 where its memory and pids hierarchies are mounted and writable (as root on this
 *   kind of machine): a group per slot under our own group in each hierarchy.
 * - none otherwise: the launcher falls back to rlimits (limits.ts).
 */

export interface CgroupCounters {
  /** Processes the out-of-memory killer ended. */
  oomKills: number;
  /** Forks refused at the process limit. */
  forksRefused: number;
}

export interface SlotCgroup {
  /** The files a process writes its pid to, to join the group (one per hierarchy). */
  procsFiles: string[];
  counters(): CgroupCounters;
  /** Kills what is left in it and removes it (retried while the kernel still holds it). */
  remove(): void;
}

interface Backend {
  kind: 'v2' | 'v1';
  create(name: string, limits: DatumLimits): SlotCgroup;
}

const CPU_PERIOD_US = 100_000;

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** A counter of a flat-keyed cgroup file (`oom_kill 3`); 0 when missing. */
function counter(file: string, key: string): number {
  const match = new RegExp(`^${key} (\\d+)$`, 'm').exec(read(file));
  return match ? Number(match[1]) : 0;
}

function write(file: string, value: string | number): void {
  writeFileSync(file, String(value));
}

/** Writes a setting the kernel may lack (e.g. swap accounting off): ignored when absent. */
function writeIfPresent(file: string, value: string | number): void {
  if (existsSync(file)) write(file, value);
}

/** Kills every process of a group, then removes it; retried a few times while it is busy. */
function removeGroup(dirs: string[], procsFile: (dir: string) => string, tries = 20): void {
  for (const dir of dirs) {
    for (const pid of read(procsFile(dir)).split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
  const left = dirs.filter((dir) => {
    try {
      rmdirSync(dir);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code !== 'ENOENT';
    }
  });
  if (left.length > 0 && tries > 0)
    setTimeout(() => removeGroup(left, procsFile, tries - 1), 100).unref();
}

/** Our own cgroup path in each hierarchy (/proc/self/cgroup): `0` for v2, else the controllers. */
function ownGroups(): Map<string, string> {
  const groups = new Map<string, string>();
  for (const line of read('/proc/self/cgroup').split('\n')) {
    const [id, controllers = '', where = ''] = line.split(':');
    if (!id) continue;
    if (controllers === '') groups.set('', where);
    for (const name of controllers.split(',')) if (name) groups.set(name, where);
  }
  return groups;
}

/** Where each cgroup v1 controller is mounted (/proc/self/mountinfo). */
function v1Mounts(): Map<string, string> {
  const mounts = new Map<string, string>();
  for (const line of read('/proc/self/mountinfo').split('\n')) {
    const [before, after] = line.split(' - ');
    if (!before || !after) continue;
    const [fstype, , options = ''] = after.split(' ');
    if (fstype !== 'cgroup') continue;
    const mountPoint = before.split(' ')[4] ?? '';
    for (const option of options.split(','))
      if (['memory', 'pids', 'cpu'].includes(option)) mounts.set(option, mountPoint);
  }
  return mounts;
}

function v1Backend(): Backend | null {
  const mounts = v1Mounts();
  const own = ownGroups();
  const memoryMount = mounts.get('memory');
  const pidsMount = mounts.get('pids');
  if (!memoryMount || !pidsMount) return null;
  const base = (controller: string) => {
    const mount = mounts.get(controller);
    return mount
      ? path.join(mount, own.get(controller) ?? '/', `ivory-datums-${process.pid}`)
      : null;
  };
  const bases = { memory: base('memory')!, pids: base('pids')!, cpu: base('cpu') };
  // Try it: the hierarchies must be writable here.
  for (const dir of Object.values(bases)) if (dir) mkdirSync(dir, { recursive: true });
  return {
    kind: 'v1',
    create(name, limits) {
      const memory = path.join(bases.memory, name);
      const pids = path.join(bases.pids, name);
      const cpu = bases.cpu ? path.join(bases.cpu, name) : null;
      const dirs = [memory, pids, ...(cpu ? [cpu] : [])];
      for (const dir of dirs) mkdirSync(dir, { recursive: true });
      if (limits.memoryBytes > 0) {
        write(path.join(memory, 'memory.limit_in_bytes'), limits.memoryBytes);
        // With swap accounting, swap counts too (no slipping past the limit into swap).
        writeIfPresent(path.join(memory, 'memory.memsw.limit_in_bytes'), limits.memoryBytes);
      }
      if (limits.memoryRequestBytes > 0)
        write(path.join(memory, 'memory.soft_limit_in_bytes'), limits.memoryRequestBytes);
      if (limits.pids > 0) write(path.join(pids, 'pids.max'), limits.pids);
      if (cpu && limits.cpu > 0) {
        write(path.join(cpu, 'cpu.cfs_period_us'), CPU_PERIOD_US);
        write(
          path.join(cpu, 'cpu.cfs_quota_us'),
          Math.max(1000, Math.round(limits.cpu * CPU_PERIOD_US)),
        );
      }
      if (cpu && limits.cpuRequest > 0)
        write(path.join(cpu, 'cpu.shares'), Math.max(2, Math.round(limits.cpuRequest * 1024)));
      return {
        procsFiles: dirs.map((dir) => path.join(dir, 'cgroup.procs')),
        counters: () => ({
          oomKills: counter(path.join(memory, 'memory.oom_control'), 'oom_kill'),
          forksRefused: counter(path.join(pids, 'pids.events'), 'max'),
        }),
        remove: () => removeGroup(dirs, (dir) => path.join(dir, 'cgroup.procs')),
      };
    },
  };
}

const V2_ROOT = '/sys/fs/cgroup';

function v2Backend(): Backend | null {
  if (!existsSync(path.join(V2_ROOT, 'cgroup.controllers'))) return null;
  const own = path.join(V2_ROOT, ownGroups().get('') ?? '/');
  const available = read(path.join(own, 'cgroup.controllers')).split(/\s+/);
  if (!available.includes('memory') || !available.includes('pids')) return null;
  const controllers = ['memory', 'pids', ...(available.includes('cpu') ? ['cpu'] : [])];
  const enable = controllers.map((name) => `+${name}`).join(' ');
  // An inner group holds no processes: ours move to a leaf of their own first.
  const enabled = read(path.join(own, 'cgroup.subtree_control')).split(/\s+/);
  if (!controllers.every((name) => enabled.includes(name))) {
    const leaf = path.join(own, 'ivory-server');
    mkdirSync(leaf, { recursive: true });
    for (const pid of read(path.join(own, 'cgroup.procs')).split('\n').filter(Boolean))
      appendFileSync(path.join(leaf, 'cgroup.procs'), pid);
    write(path.join(own, 'cgroup.subtree_control'), enable);
  }
  const base = path.join(own, `ivory-datums-${process.pid}`);
  mkdirSync(base, { recursive: true });
  write(path.join(base, 'cgroup.subtree_control'), enable);
  return {
    kind: 'v2',
    create(name, limits) {
      const dir = path.join(base, name);
      mkdirSync(dir, { recursive: true });
      if (limits.memoryBytes > 0) {
        write(path.join(dir, 'memory.max'), limits.memoryBytes);
        writeIfPresent(path.join(dir, 'memory.swap.max'), 0);
      }
      if (limits.memoryRequestBytes > 0)
        write(path.join(dir, 'memory.low'), limits.memoryRequestBytes);
      if (limits.pids > 0) write(path.join(dir, 'pids.max'), limits.pids);
      if (controllers.includes('cpu') && limits.cpu > 0)
        write(
          path.join(dir, 'cpu.max'),
          `${Math.max(1000, Math.round(limits.cpu * CPU_PERIOD_US))} ${CPU_PERIOD_US}`,
        );
      if (controllers.includes('cpu') && limits.cpuRequest > 0)
        write(
          path.join(dir, 'cpu.weight'),
          Math.min(10_000, Math.max(1, Math.round(limits.cpuRequest * 100))),
        );
      return {
        procsFiles: [path.join(dir, 'cgroup.procs')],
        counters: () => ({
          oomKills: counter(path.join(dir, 'memory.events'), 'oom_kill'),
          forksRefused: counter(path.join(dir, 'pids.events'), 'max'),
        }),
        remove: () => removeGroup([dir], (group) => path.join(group, 'cgroup.procs')),
      };
    },
  };
}

let backend: Backend | null | undefined;

/** The machine's cgroups for datums (found once), or null: limits fall back to rlimits. */
export function datumCgroups(): Backend | null {
  if (backend !== undefined) return backend;
  backend = null;
  for (const candidate of [v2Backend, v1Backend]) {
    try {
      backend = candidate();
    } catch {
      backend = null;
    }
    if (backend) break;
  }
  return backend;
}

/** Removes the groups earlier launchers (of processes now gone) left behind. */
export function removeStaleGroups(): void {
  const roots = [...v1Mounts().entries()].map(([controller, mount]) =>
    path.join(mount, ownGroups().get(controller) ?? '/'),
  );
  roots.push(path.join(V2_ROOT, ownGroups().get('') ?? '/'));
  for (const root of roots) {
    let names: string[] = [];
    try {
      names = readdirSync(root).filter((name) => /^ivory-datums-\d+$/.test(name));
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = Number(name.slice('ivory-datums-'.length));
      if (pid === process.pid || existsSync(`/proc/${pid}`)) continue;
      const dir = path.join(root, name);
      let slots: string[] = [];
      try {
        slots = readdirSync(dir, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => path.join(dir, entry.name));
      } catch {
        continue;
      }
      removeGroup([...slots], (group) => path.join(group, 'cgroup.procs'));
      setTimeout(
        () => removeGroup([dir], (group) => path.join(group, 'cgroup.procs')),
        500,
      ).unref();
    }
  }
}

/**
 * When the launcher ends: kills what is left in its groups and removes them (waiting at most
 * `waitMs` for the kernel to let them go; the next launcher removes what is left then).
 */
export async function releaseGroups(waitMs = 500): Promise<void> {
  if (!backend) return;
  const own = ownGroups();
  const bases = [
    ...[...v1Mounts().entries()].map(([controller, mount]) =>
      path.join(mount, own.get(controller) ?? '/', `ivory-datums-${process.pid}`),
    ),
    path.join(V2_ROOT, own.get('') ?? '/', `ivory-datums-${process.pid}`),
  ].filter((dir) => existsSync(dir));
  const slotsOf = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => path.join(dir, entry.name));
    } catch {
      return [];
    }
  };
  const deadline = Date.now() + waitMs;
  for (;;) {
    const slots = bases.flatMap(slotsOf);
    removeGroup(slots, (group) => path.join(group, 'cgroup.procs'), 0);
    if (slots.every((slot) => !existsSync(slot))) break;
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  removeGroup(bases, (group) => path.join(group, 'cgroup.procs'), 0);
}
