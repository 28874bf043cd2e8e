import path from 'node:path';
import type { ShellSpec, SlotFolder } from './launcher.ts';
import { slotEnv } from './datum-env.ts';
import type { JobRun } from './job-datums.ts';
import { datumLimits } from '../resources.ts';
import { sandboxShellArgv, sandboxUid } from './sandbox.ts';
import { rewritePfs, slotFolder, stageDir, type DatumDirs } from './worker.ts';

const runsAsRoot = process.getuid?.() === 0;

/**
 * What a job's datums in one worker slot share, made once: the same objects for every datum, so
 * the launcher is sent them once (see RunMessage) and quotes the environment once.
 */
export interface SlotLaunch {
  shell: ShellSpec;
  /** The datums' environment but PACH_DATUM_ID (each request's `extraEnv`). */
  env: Record<string, string>;
  slot: SlotFolder;
  collect: { out: string; stage: string };
  cwd: string;
  /** A working folder the slot must have (made by prepare), or ''. */
  makeCwd: string;
  cmd: string[];
  stdin: string;
  errCmd: string[];
  errStdin: string;
  /** /pfs as its processes see it: /pfs in a sandbox, else the slot's folder. */
  pfsRoot: string;
}

/**
 * The long-lived shell of a worker slot: in a sandbox that sees only the slot's /pfs (`hidden`:
 * the folders it must never see).
 */
export function slotShell(run: JobRun, dirs: DatumDirs, hidden: string[]): ShellSpec {
  // Its datums' limits (resources.ts): the pipeline's, clamped to today's maxima. Its /tmp is a
  // tmpfs of the disk limit's size, so an output link into /tmp cannot be followed from outside.
  const { limits, requests } = run.spec.resources;
  const datum = datumLimits(limits, requests, { clamp: true });
  return !run.sandboxed
    ? { key: dirs.root, argv: ['/bin/sh'], sandboxed: false, limits: datum }
    : {
        key: dirs.root,
        sandboxed: true,
        limits: datum,
        argv: sandboxShellArgv(
          { pfs: dirs.pfs, out: dirs.out, hidden },
          { tmpBytes: datum.diskBytes },
        ),
      };
}

/**
 * What the job's datums in a worker slot share (made on its first datum, then kept in the run).
 * The run's environment must have been made (`baseEnv` not an Error).
 */
export function slotLaunch(run: JobRun, dirs: DatumDirs, hidden: string[]): SlotLaunch {
  let shared = run.slots.get(dirs.root);
  if (shared) return shared;
  const { transform } = run.spec;
  // In a sandbox /pfs is real: commands run as written. Else /pfs is the slot's folder.
  const rewrite = (list: string[]) =>
    run.sandboxed ? list : list.map((s) => rewritePfs(s, dirs.pfs));
  const stdin = (list: string[]) => (list.length > 0 ? rewrite(list).join('\n') + '\n' : '');
  const slot = slotFolder(dirs, run.inputNames, run.slotToken);
  if (run.sandboxed) {
    if (runsAsRoot) slot.outOwner = sandboxUid;
    slot.linkInputs = true;
  }
  const workingDir = transform.workingDir;
  const hostCwd = workingDir ? rewritePfs(workingDir, dirs.pfs) : '';
  shared = {
    shell: slotShell(run, dirs, hidden),
    env: slotEnv(run.baseEnv as Record<string, string>, run.inputNames, run.sandboxed, dirs),
    slot,
    collect: { out: dirs.out, stage: stageDir(run.jobDir) },
    cwd: run.sandboxed ? workingDir || '/' : hostCwd || dirs.root,
    // A working folder under /pfs is made in the slot (elsewhere, in a sandbox, it must exist).
    makeCwd: hostCwd.startsWith(dirs.pfs + path.sep) || (hostCwd && !run.sandboxed) ? hostCwd : '',
    cmd: rewrite(transform.cmd),
    stdin: stdin(transform.stdin),
    errCmd: rewrite(transform.errCmd),
    errStdin: stdin(transform.errStdin),
    pfsRoot: run.sandboxed ? '/pfs' : dirs.pfs,
  };
  run.slots.set(dirs.root, shared);
  return shared;
}
