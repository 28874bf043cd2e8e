/**
 * Pipeline overhead of the embedded platform (not part of the test suite):
 *   npx tsx perf/pipeline-overhead.ts [datums] [rounds]
 * Prints the time of a job of N trivial datums (one `cp` per datum, glob "/*" over N tiny
 * files) against N runs of the same command in a plain shell loop, as a ratio (target ≤ 1.3),
 * and datums per second with parallelism 1 and 2.
 *
 * The machine may be shared, so each round times a shell loop, a job with parallelism 1, a job
 * with parallelism 2, again a shell loop, the shells' floor (below) and a last shell loop; each
 * ratio uses the mean of the two loops around it. Every round is printed; the summary gives the median over the rounds. The first
 * round's first job also starts the pipeline (its repos and the process launcher).
 *
 * It also prints, per datum, the CPU time of the server (this process) and of the launcher and
 * the launcher's wake-ups: figures that other processes' load distorts far less than wall time.
 *
 * And the floor of a job's shell side: the same N commands handed straight to sandboxed slot
 * shells (launcher/slot-shells.ts, the token FIFO, the same command and environment, no server
 * or launcher work between datums), with a job's parallelism-1 slots and with one slot, as a
 * ratio to the shell loops of its round: what is left for the server and launcher to add.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunFields } from '../server/src/platform/pps/runner/launcher/protocol.ts';
import {
  SlotShells,
  type ShellEntry,
} from '../server/src/platform/pps/runner/launcher/slot-shells.ts';
import {
  sandboxAvailability,
  sandboxShellArgv,
  sandboxUid,
} from '../server/src/platform/pps/runner/sandbox.ts';
import { modifyFile, ok, repo } from '../server/test/helpers/api-client.ts';
import { startTestServer } from '../server/test/helpers/in-process-server.ts';

const count = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 3);

/**
 * Folders of the shell loops, removed only at the end: on ext4 without a journal, files created
 * soon after many deletions nearby are slow to allocate, so removing a loop's 2,000 files before
 * the next measurement would slow whatever runs next (job or loop) for the benchmark's sake.
 */
const loopDirs: string[] = [];

async function shellLoop(): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ivory-perf-shell-'));
  loopDirs.push(dir);
  await mkdir(path.join(dir, 'in'));
  await mkdir(path.join(dir, 'out'));
  for (let i = 0; i < count; i++) await writeFile(path.join(dir, 'in', `f${i}.txt`), `line ${i}\n`);
  const started = process.hrtime.bigint();
  execFileSync('sh', ['-c', 'for f in in/*; do cp -r "$f" out/; done'], { cwd: dir });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

let floorRuns = 0;

/**
 * The floor of a job's shell side (ms for `count` datums): `slots` sandboxed slot shells, each
 * with an input folder (one file) per datum it runs, handed every datum's `cp` at once in turn (as a job's workers take them),
 * one running at a time; nothing is prepared or collected between them. Each shell has run
 * one command before the clock starts (a job's sandboxes start while it is planned).
 */
async function shellsFloor(slots: number): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ivory-perf-floor-'));
  loopDirs.push(dir);
  await mkdir(path.join(dir, 'logs'));
  const shells = new SlotShells(path.join(dir, 'logs'));
  const sandboxed = sandboxAvailability().available;
  const group = `floor-${++floorRuns}`;
  const specs = await Promise.all(
    Array.from({ length: slots }, async (_, k) => {
      const pfs = path.join(dir, `slot-${k}`, 'pfs');
      await mkdir(path.join(pfs, 'tiny'), { recursive: true });
      await mkdir(path.join(pfs, 'out'));
      // A folder per datum the slot runs (the ids of its residue mod `slots`): each datum writes
      // a new file, as a job's datums do (a job moves each output away after its datum).
      for (let id = k; id < count + slots; id += slots) {
        await mkdir(path.join(pfs, 'tiny', `d${id}`));
        await writeFile(path.join(pfs, 'tiny', `d${id}`, `f${id}.txt`), `line ${id}\n`);
      }
      if (sandboxed && process.getuid?.() === 0)
        chownSync(path.join(pfs, 'out'), sandboxUid, sandboxUid);
      const argv = sandboxed
        ? sandboxShellArgv({ pfs, out: path.join(pfs, 'out'), hidden: [] })
        : ['/bin/sh'];
      return { key: pfs, argv, sandboxed, pfs: sandboxed ? '/pfs' : pfs };
    }),
  );
  // A job's datum environment (see datum-launch.ts), the same object for every request.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/tmp',
    TMPDIR: '/tmp',
    PACH_JOB_ID: 'f'.repeat(32),
    PACH_OUTPUT_COMMIT_ID: 'f'.repeat(32),
    PPS_PROJECT_NAME: 'default',
    PPS_PIPELINE_NAME: 'overhead',
    PFS: '/pfs',
    PFS_OUT: '/pfs/out',
    PFS_TINY: '/pfs/tiny',
  };
  let failed = 0;
  const runAll = (ids: number[]) =>
    new Promise<void>((resolve) => {
      let left = ids.length;
      for (const id of ids) {
        const spec = specs[id % slots]!;
        const request: RunFields = {
          cmd: ['cp', '-r', `${spec.pfs}/tiny/d${id}/.`, `${spec.pfs}/out/`],
          cwd: '/',
          env,
          extraEnv: { PACH_DATUM_ID: String(id).padStart(64, '0') },
          stdin: '',
          timeoutMs: 0,
          group,
          limit: 1,
          shell: { key: spec.key, argv: spec.argv, sandboxed: spec.sandboxed },
        };
        const entry: ShellEntry = {
          id: id + 1,
          request,
          started: 0,
          onStart: () => undefined,
          onLine: () => undefined,
          onExit: (_, status) => {
            if (status !== 0) failed++;
            if (--left === 0) resolve();
          },
        };
        shells.run(entry);
      }
    });
  try {
    await runAll(Array.from({ length: slots }, (_, k) => count + k));
    const started = process.hrtime.bigint();
    await runAll(Array.from({ length: count }, (_, i) => i));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (failed > 0) throw new Error(`${failed} commands of the shells' floor failed`);
    return ms;
  } finally {
    shells.close();
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const ticksPerSecond = 100;

/** CPU time (ms) of a process and its voluntary context switches (its wake-ups). */
function processCpu(pid: number): { self: number; wakeups: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // utime and stime are fields 14 and 15 (here 11 and 12: the first three are cut).
    const [utime = 0, stime = 0] = fields.slice(11, 13);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const wakeups = Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { self: ((utime + stime) * 1000) / ticksPerSecond, wakeups };
  } catch {
    return { self: 0, wakeups: 0 };
  }
}

/** The pid of the server's process launcher (a child of this process running launcher/main). */
function launcherPid(): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('launcher/main'))
        return Number(name);
    } catch {
      // gone
    }
  }
  return undefined;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

async function main(): Promise<void> {
  const server = await startTestServer({ logLevel: 'error' });
  const url = server.url;
  try {
    await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('tiny') });
    const commit = await ok(url, 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('tiny'), name: 'master' },
    });
    const messages: Parameters<typeof modifyFile>[1] = [{ setCommit: commit }];
    for (let i = 0; i < count; i++)
      messages.push({
        addFile: { path: `/f${i}.txt`, raw: Buffer.from(`line ${i}\n`).toString('base64') },
      });
    await modifyFile(url, messages);
    await ok(url, 'pfs_v2.API/FinishCommit', { commit });

    let created = false;
    /**
     * CPU ms per datum of this process (the server, with its threads) and of the launcher, and
     * the launcher's wake-ups (voluntary context switches) per datum: measures that the load of
     * other processes distorts far less than wall time. (The first job starts the launcher: it
     * has no launcher figures.)
     */
    const cpu: Record<number, { server: number[]; launcher: number[]; wakeups: number[] }> = {
      1: { server: [], launcher: [], wakeups: [] },
      2: { server: [], launcher: [], wakeups: [] },
    };
    const runJob = async (parallelism: number): Promise<number> => {
      let pid = launcherPid();
      const serverBefore = process.cpuUsage();
      const launcherBefore = pid ? processCpu(pid) : undefined;
      const started = process.hrtime.bigint();
      await ok(url, 'pps_v2.API/CreatePipelineV2', {
        createPipelineRequestJson: JSON.stringify({
          pipeline: { name: 'overhead' },
          transform: { cmd: ['cp', '-r', '/pfs/tiny/.', '/pfs/out/'] },
          parallelismSpec: { constant: parallelism },
          input: { pfs: { repo: 'tiny', glob: '/*' } },
        }),
        update: created,
        reprocess: created,
      });
      created = true;
      const info = await ok(url, 'pps_v2.API/InspectPipeline', { pipeline: { name: 'overhead' } });
      const job = await ok(url, 'pps_v2.API/InspectJob', {
        job: { pipeline: { name: 'overhead' }, id: info.specCommit.id },
        wait: true,
      });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const serverUsed = process.cpuUsage(serverBefore);
      pid ??= launcherPid();
      if (pid && launcherBefore) {
        const after = processCpu(pid);
        cpu[parallelism]!.server.push((serverUsed.user + serverUsed.system) / 1000 / count);
        cpu[parallelism]!.launcher.push((after.self - launcherBefore.self) / count);
        cpu[parallelism]!.wakeups.push((after.wakeups - launcherBefore.wakeups) / count);
      }
      if (job.state !== 'JOB_SUCCESS' || job.dataProcessed !== String(count))
        throw new Error(`job ended ${job.state}: ${job.reason} (${job.dataProcessed} processed)`);
      return ms;
    };

    const fmt = (n: number) => n.toFixed(0).padStart(6);
    const ratio = (n: number) => n.toFixed(2).padStart(5);
    console.log(
      `pipeline overhead, ${count} datums (one \`cp\` each, glob "/*"), ${rounds} rounds`,
    );
    const loops: number[] = [];
    const p1: number[] = [];
    const p2: number[] = [];
    const r1: number[] = [];
    const r2: number[] = [];
    /** The shells' floor with a parallelism-1 job's slots (8) and with one, as ratios. */
    const f8: number[] = [];
    const f1: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const before = await shellLoop();
      const job1 = await runJob(1);
      const middle = await shellLoop();
      const job2 = await runJob(2);
      const after = await shellLoop();
      const floor8 = await shellsFloor(8);
      const floor1 = await shellsFloor(1);
      const last = await shellLoop();
      loops.push(before, middle, after, last);
      f8.push(floor8 / ((after + last) / 2));
      f1.push(floor1 / ((after + last) / 2));
      p1.push(job1);
      p2.push(job2);
      r1.push(job1 / ((before + middle) / 2));
      r2.push(job2 / ((middle + after) / 2));
      console.log(
        `  round ${round}: shell loops ${fmt(before)} ${fmt(middle)} ${fmt(after)} ms;` +
          ` job p1 ${fmt(job1)} ms (ratio ${ratio(r1.at(-1) as number)});` +
          ` job p2 ${fmt(job2)} ms (ratio ${ratio(r2.at(-1) as number)});` +
          ` shells' floor 8 slots ${fmt(floor8)} ms (ratio ${ratio(f8.at(-1) as number)}),` +
          ` 1 slot ${fmt(floor1)} ms (ratio ${ratio(f1.at(-1) as number)}); shell loop ${fmt(last)} ms`,
      );
    }
    const perDatum = (values: number[]) =>
      values.length
        ? `${median(values).toFixed(3)} (${values.map((v) => v.toFixed(3)).join(' ')})`
        : 'n/a';
    for (const parallelism of [1, 2]) {
      const c = cpu[parallelism]!;
      console.log(
        `  CPU ms per datum, parallelism ${parallelism} (median (rounds)): server ${perDatum(c.server)};` +
          ` launcher ${perDatum(c.launcher)}; launcher wake-ups per datum ${perDatum(c.wakeups)}`,
      );
    }
    console.log(`  plain shell loop (${count} x cp), median: ${fmt(median(loops))} ms`);
    console.log(`  job, parallelism 1, median:            ${fmt(median(p1))} ms`);
    console.log(`  job, parallelism 2, median:            ${fmt(median(p2))} ms`);
    console.log(`  overhead ratio, parallelism 1, median:  ${ratio(median(r1))}  (target <= 1.3)`);
    console.log(`  overhead ratio, parallelism 2, median:  ${ratio(median(r2))}  (target <= 1.3)`);
    console.log(
      `  shells' floor (no server or launcher work between datums), median ratio: 8 slots` +
        ` ${ratio(median(f8))}, 1 slot ${ratio(median(f1))}`,
    );
    console.log(
      `  datums per second, parallelism 1:      ${(count / (median(p1) / 1000)).toFixed(1).padStart(6)}`,
    );
    console.log(
      `  datums per second, parallelism 2:      ${(count / (median(p2) / 1000)).toFixed(1).padStart(6)}`,
    );
  } finally {
    await server.close();
    for (const dir of loopDirs) await rm(dir, { recursive: true, force: true });
  }
}

await main();
