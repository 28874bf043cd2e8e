import os from 'node:os';
import path from 'node:path';
import type { CommitRow } from '../../pfs/rows.ts';
import type { DatumFile } from '../datums.ts';
import type { LaunchRequest, ShellSpec, SlotFolder } from './launcher.ts';
import {
  emptyStats,
  isTerminal,
  type DatumRow,
  type DatumState,
  type JobRow,
  type Stats,
} from '../pps-store.ts';
import type { RunnerContext, RunningJob } from './runner-context.ts';
import { datumLimits } from '../resources.ts';
import { sandboxShellArgv, sandboxUid } from './sandbox.ts';
import { inputLeaves, type PipelineSpec } from '../spec.ts';
import {
  prepareSpec,
  processResult,
  rewritePfs,
  slotDirs,
  slotFolder,
  stageDir,
  type DatumDirs,
  type ProcessResult,
} from './worker.ts';

const runsAsRoot = process.getuid?.() === 0;

/** Environment variables passed through from the server to datum processes. */
const passThroughEnv = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'USER', 'SHELL'];

/** A running job's datum bookkeeping: counters kept in memory, results written in batches. */
export interface JobRun {
  running: RunningJob;
  spec: PipelineSpec;
  jobDir: string;
  inputNames: string[];
  /** The environment shared by its datums, or why it could not be made (a missing secret). */
  baseEnv: Record<string, string> | Error;
  /** Marks the slot folders of this run (a folder an earlier run left is never trusted). */
  slotToken: string;
  /** Whether its datums run in sandboxes (else as the server's user, with a warning). */
  sandboxed: boolean;
  /** The launcher group: at most `parallelism` of the job's processes run at once. */
  group: string;
  parallelism: number;
  counts: Map<string, number>;
  total: number;
  stats: Stats;
  results: { id: string; fields: Partial<Omit<DatumRow, 'job_rowid' | 'id'>> }[];
  flushTimer: NodeJS.Timeout | null;
  /** What its datums in each worker slot share, by slot folder (made once). */
  slots: Map<string, SlotLaunch>;
}

/**
 * What a job's datums in one worker slot share, made once: the same objects for every datum, so
 * the launcher is sent them once (see RunMessage) and quotes the environment once.
 */
interface SlotLaunch {
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
}

/**
 * Launching a job's datums: each datum's environment and shell (its worker slot's sandbox), its
 * tries and errCmd through the launcher, and its result, written in batches with the job's
 * counters.
 */
export class DatumLauncher {
  private readonly cpuLimit = Math.max(1, os.cpus().length);
  /** Job runs started by this process (part of each run's slot token). */
  private runCount = 0;

  constructor(private readonly c: RunnerContext) {}

  /**
   * A job's running state: its datum counters (read by countDatums, once its datums are
   * planned) and the datum results not yet written.
   */
  newJobRun(
    running: RunningJob,
    spec: PipelineSpec,
    jobDir: string,
    output: CommitRow,
    sandboxed: boolean,
  ): JobRun {
    const job = running.job;
    let baseEnv: Record<string, string> | Error;
    try {
      baseEnv = this.jobEnv(spec, job, output);
    } catch (error) {
      baseEnv = error as Error;
    }
    return {
      running,
      spec,
      jobDir,
      inputNames: inputLeaves(spec.input).map((leaf) => leaf.name),
      baseEnv,
      slotToken: `${job.rowid}.${job.restart}.${++this.runCount}`,
      sandboxed,
      group: `job-${job.rowid}`,
      parallelism: Math.min(spec.parallelism, this.cpuLimit),
      counts: new Map(),
      total: 0,
      stats: emptyStats(),
      results: [],
      flushTimer: null,
      slots: new Map(),
    };
  }

  /** Reads a run's datum counters and stats as stored (before its datums run). */
  countDatums(run: JobRun): void {
    const job = run.running.job;
    const counts = new Map(
      (
        this.c.o.store.db
          .prepare('SELECT state, COUNT(*) AS n FROM pps_datums WHERE job_rowid = ? GROUP BY state')
          .all(job.rowid) as { state: string; n: number }[]
      ).map((row) => [row.state, row.n]),
    );
    const stats = this.c.o.store.db
      .prepare(
        `SELECT COALESCE(SUM(json_extract(stats, '$.downloadMs')), 0) AS downloadMs,
           COALESCE(SUM(json_extract(stats, '$.processMs')), 0) AS processMs,
           COALESCE(SUM(json_extract(stats, '$.uploadMs')), 0) AS uploadMs,
           COALESCE(SUM(json_extract(stats, '$.downloadBytes')), 0) AS downloadBytes,
           COALESCE(SUM(json_extract(stats, '$.uploadBytes')), 0) AS uploadBytes
         FROM pps_datums WHERE job_rowid = ? AND state != 'SKIPPED'`,
      )
      .get(job.rowid) as Stats;
    run.counts = counts;
    run.total = [...counts.values()].reduce((a, b) => a + b, 0);
    run.stats = stats;
  }

  /**
   * Starts the shells (sandboxes) of the job's first `count` worker slots before their datums
   * come: each takes milliseconds to start, which then pass while the job is still prepared
   * rather than between its first datums.
   */
  warmSlots(run: JobRun, count: number): void {
    if (run.baseEnv instanceof Error) return;
    const slots = Array.from({ length: count }, (_, k) =>
      this.slotLaunch(run, slotDirs(run.jobDir, k)),
    );
    this.c.launcher.warm(slots, run.group, run.parallelism);
  }

  /** Queues a datum's result; results are written together (every 200 ms, or 200 of them). */
  recordDatum(
    run: JobRun,
    datumId: string,
    fields: Partial<Omit<DatumRow, 'job_rowid' | 'id'>> & { state: DatumState },
    stats: Stats,
  ): void {
    run.results.push({ id: datumId, fields });
    run.counts.set('STARTING', (run.counts.get('STARTING') ?? 0) - 1);
    run.counts.set(fields.state, (run.counts.get(fields.state) ?? 0) + 1);
    for (const key of Object.keys(stats) as (keyof Stats)[]) run.stats[key] += stats[key];
    if (run.results.length >= 200) this.flushDatums(run);
    else if (!run.flushTimer) run.flushTimer = setTimeout(() => this.flushDatums(run), 200);
  }

  /**
   * Writes the queued datum results and the job's counters in one transaction, without the WAL
   * fsync: a crash of the process keeps it, a power cut may lose it (with the batches before
   * it, until a later commit syncs the WAL); their datums are then simply run again.
   */
  flushDatums(run: JobRun): void {
    if (run.flushTimer) clearTimeout(run.flushTimer);
    run.flushTimer = null;
    const results = run.results;
    run.results = [];
    const job = run.running.job;
    if (isTerminal(this.c.o.store.jobByRowid(job.rowid)?.state ?? 'JOB_KILLED')) return;
    const count = (state: string) => run.counts.get(state) ?? 0;
    this.c.o.store.unsyncedTransaction(() => {
      for (const result of results) this.c.o.store.updateDatum(job.rowid, result.id, result.fields);
      this.c.o.store.updateJob(job.rowid, {
        data_processed: count('SUCCESS'),
        data_skipped: count('SKIPPED'),
        data_failed: count('FAILED'),
        data_recovered: count('RECOVERED'),
        data_total: run.total,
        stats: JSON.stringify(run.stats),
      });
    });
    this.c.refresh(job);
  }

  /** The environment every datum of the job shares (secrets are opened once per job). */
  jobEnv(spec: PipelineSpec, job: JobRow, output: CommitRow): Record<string, string> {
    const env: Record<string, string> = {};
    for (const key of passThroughEnv) {
      const value = process.env[key];
      if (value !== undefined) env[key] = value;
    }
    Object.assign(env, spec.transform.env);
    for (const secret of spec.transform.secrets) {
      if (!secret.envVar) continue;
      const values = this.c.o.secrets.open(secret.name);
      const value = values[secret.key];
      if (value === undefined) throw new Error(`secret ${secret.name} has no key ${secret.key}`);
      env[secret.envVar] = value;
    }
    Object.assign(env, {
      PACH_JOB_ID: job.id,
      PACH_OUTPUT_COMMIT_ID: output.id,
      PPS_PROJECT_NAME: job.project,
      PPS_PIPELINE_NAME: job.pipeline,
    });
    return env;
  }

  /**
   * A slot's datums' environment but PACH_DATUM_ID: /pfs is the real /pfs in a sandbox, else the
   * slot's folder.
   */
  slotEnv(run: JobRun, dirs: DatumDirs): Record<string, string> {
    const pfs = run.sandboxed ? '/pfs' : dirs.pfs;
    const env: Record<string, string> = {
      ...(run.baseEnv as Record<string, string>),
      ...(run.sandboxed ? { HOME: '/tmp', TMPDIR: '/tmp' } : {}),
      PFS: pfs,
      PFS_OUT: path.join(pfs, 'out'),
    };
    for (const name of run.inputNames)
      env[`PFS_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`] = path.join(pfs, name);
    // (Set for each datum: never one of the job's own variables.)
    delete env.PACH_DATUM_ID;
    return env;
  }

  /** The long-lived shell of a worker slot: in a sandbox that sees only the slot's /pfs. */
  slotShell(run: JobRun, dirs: DatumDirs): ShellSpec {
    // Its datums' limits (resources.ts): the pipeline's, clamped to today's maxima.
    const { limits, requests } = run.spec.resources;
    const datum = datumLimits(limits, requests, { clamp: true });
    return !run.sandboxed
      ? { key: dirs.root, argv: ['/bin/sh'], sandboxed: false, limits: datum }
      : {
          key: dirs.root,
          sandboxed: true,
          limits: datum,
          argv: sandboxShellArgv(
            {
              inputs: run.inputNames.map((name) => [name, path.join(dirs.pfs, name)]),
              out: dirs.out,
              hidden: [this.c.o.dataDir, this.c.workDir],
            },
            { tmpBytes: datum.diskBytes },
          ),
        };
  }

  /** What the job's datums in a worker slot share (made on its first datum). */
  slotLaunch(run: JobRun, dirs: DatumDirs): SlotLaunch {
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
      shell: this.slotShell(run, dirs),
      env: this.slotEnv(run, dirs),
      slot,
      collect: { out: dirs.out, stage: stageDir(run.jobDir) },
      cwd: run.sandboxed ? workingDir || '/' : hostCwd || dirs.root,
      // A working folder under /pfs is made in the slot (elsewhere, in a sandbox, it must exist).
      makeCwd:
        hostCwd.startsWith(dirs.pfs + path.sep) || (hostCwd && !run.sandboxed) ? hostCwd : '',
      cmd: rewrite(transform.cmd),
      stdin: stdin(transform.stdin),
      errCmd: rewrite(transform.errCmd),
      errStdin: stdin(transform.errStdin),
    };
    run.slots.set(dirs.root, shared);
    return shared;
  }

  /** Runs one datum (its tries, then errCmd); its result is queued with recordDatum. */
  async runDatum(run: JobRun, datum: DatumRow, dirs: DatumDirs): Promise<void> {
    const { spec } = run;
    const job = run.running.job;
    const signal = run.running.controller.signal;
    const files = JSON.parse(datum.data) as DatumFile[];
    const started = Date.now();
    const stats = emptyStats();
    if (run.baseEnv instanceof Error) {
      const reason = run.baseEnv.message;
      this.c.systemLog(job, datum.id, `datum failed: ${reason}`);
      this.recordDatum(
        run,
        datum.id,
        { state: 'FAILED', reason, started_at: started, finished_at: Date.now() },
        stats,
      );
      return;
    }
    const shared = this.slotLaunch(run, dirs);
    const extraEnv = { PACH_DATUM_ID: datum.id };
    const launch = (
      cmd: string[],
      stdin: string,
      acceptReturnCode: number[],
      extra: Pick<LaunchRequest, 'prepare' | 'collect'> = {},
    ) =>
      this.c.launcher.run({
        cmd,
        stdin,
        env: shared.env,
        extraEnv,
        cwd: shared.cwd,
        shell: shared.shell,
        timeoutMs: spec.datumTimeoutMs,
        group: run.group,
        limit: run.parallelism,
        accept: acceptReturnCode,
        ...extra,
        signal,
        onLine: (line) => this.c.log(job, datum.id, line, true),
      });
    let lastReason = '';
    for (let attempt = 1; attempt <= spec.datumTries && !signal.aborted; attempt++) {
      const prepared = prepareSpec(this.c.o.blobs, shared.slot, files);
      if (shared.makeCwd) prepared.spec.dirs.push(shared.makeCwd);
      this.c.systemLog(
        job,
        datum.id,
        `started datum ${datum.id} (attempt ${attempt} of ${spec.datumTries})`,
      );
      const launched = await launch(shared.cmd, shared.stdin, spec.transform.acceptReturnCode, {
        prepare: prepared.spec,
        collect: shared.collect,
      });
      if (signal.aborted) return;
      stats.downloadMs += launched.prepareMs;
      stats.processMs += launched.ms;
      stats.uploadMs += launched.collectMs;
      stats.downloadBytes = prepared.bytes;
      const result: ProcessResult = launched.prepareError
        ? { ok: false, reason: `cannot prepare the inputs: ${launched.prepareError}` }
        : launched.collectError
          ? { ok: false, reason: `cannot read the outputs: ${launched.collectError}` }
          : processResult(
              launched,
              spec.transform.cmd[0] ?? '',
              spec.transform.acceptReturnCode,
              spec.datumTimeoutMs,
            );
      if (result.ok) {
        // The outputs stay staged (named by their hash) until the job finishes.
        const outputs = launched.outputs;
        stats.uploadBytes = outputs.reduce((n, f) => n + f.sizeBytes, 0);
        this.recordDatum(
          run,
          datum.id,
          {
            state: 'SUCCESS',
            reason: '',
            output: JSON.stringify(outputs),
            stored: 0,
            stats: JSON.stringify(stats),
            started_at: started,
            finished_at: Date.now(),
          },
          stats,
        );
        this.c.systemLog(
          job,
          datum.id,
          `finished datum ${datum.id} in ${((Date.now() - started) / 1000).toFixed(3)}s`,
        );
        return;
      }
      lastReason = result.reason;
      this.c.systemLog(job, datum.id, `datum failed: ${result.reason}`);
    }
    if (signal.aborted) return;
    let state: 'FAILED' | 'RECOVERED' = 'FAILED';
    if (spec.transform.errCmd.length > 0) {
      this.c.systemLog(job, datum.id, 'running errCmd');
      const launched = await launch(shared.errCmd, shared.errStdin, []);
      if (signal.aborted) return;
      stats.processMs += launched.ms;
      const result = processResult(
        launched,
        spec.transform.errCmd[0] ?? '',
        [],
        spec.datumTimeoutMs,
      );
      if (result.ok) state = 'RECOVERED';
      this.c.systemLog(
        job,
        datum.id,
        result.ok ? 'errCmd succeeded: datum recovered' : `errCmd failed: ${result.reason}`,
      );
    }
    this.recordDatum(
      run,
      datum.id,
      {
        state,
        reason: lastReason,
        stats: JSON.stringify(stats),
        started_at: started,
        finished_at: Date.now(),
      },
      stats,
    );
  }
}
