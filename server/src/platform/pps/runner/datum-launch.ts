import type { CommitRow } from '../../pfs/rows.ts';
import path from 'node:path';
import { datumMatches, type DatumFile } from '../datums.ts';
import { datumEnv } from './datum-env.ts';
import { goDuration } from './go-duration.ts';
import type { LaunchRequest, LaunchResult } from './launcher.ts';
import { emptyStats, type DatumRow, type Stats } from '../pps-store.ts';
import type { PipelineSpec } from '../spec.ts';
import { JobDatums, type JobRun } from './job-datums.ts';
import type { RunnerContext, RunningJob } from './runner-context.ts';
import { slotLaunch, type SlotLaunch } from './slot-launch.ts';
import {
  prepareSpec,
  processResult,
  slotDirs,
  type DatumDirs,
  type ProcessResult,
} from './worker.ts';

export type { JobRun } from './job-datums.ts';

/**
 * Launching a job's datums through the launcher: each datum's tries in its worker slot's shell
 * (sandbox), then errCmd, and its result (queued with the job's counters, see JobDatums). The
 * parts live beside it: the run's bookkeeping (job-datums.ts), the environment (datum-env.ts)
 * and what a worker slot's datums share (slot-launch.ts).
 */
export class DatumLauncher {
  private readonly results: JobDatums;

  constructor(private readonly c: RunnerContext) {
    this.results = new JobDatums(c);
  }

  /** A job's running state (see JobDatums.newJobRun). */
  newJobRun(
    running: RunningJob,
    spec: PipelineSpec,
    jobDir: string,
    output: CommitRow,
    sandboxed: boolean,
  ): JobRun {
    return this.results.newJobRun(running, spec, jobDir, output, sandboxed);
  }

  /** Reads a run's datum counters and stats as stored (before its datums run). */
  countDatums(run: JobRun): void {
    this.results.countDatums(run);
  }

  /** Writes the queued datum results and the job's counters. */
  flushDatums(run: JobRun): void {
    this.results.flushDatums(run);
  }

  /**
   * Starts the shells (sandboxes) of the job's first `count` worker slots before their datums
   * come: each takes milliseconds to start, which then pass while the job is still prepared
   * rather than between its first datums.
   */
  warmSlots(run: JobRun, count: number): void {
    if (run.baseEnv instanceof Error) return;
    const slots = Array.from({ length: count }, (_, k) => this.slot(run, slotDirs(run.jobDir, k)));
    this.c.launcher.warm(slots, run.group, run.parallelism);
  }

  /** What the run's datums in a worker slot share; its sandbox never sees the data folder. */
  private slot(run: JobRun, dirs: DatumDirs): SlotLaunch {
    return slotLaunch(run, dirs, [this.c.o.dataDir, this.c.workDir]);
  }

  /**
   * Runs one datum (its tries, then errCmd); its result is queued with recordDatum. While it
   * runs, its worker slot shows it (WorkerSlots: InspectJob's worker status); RestartDatum
   * stops its process and it runs again, the try not counted. Its log says, in pachd's words,
   * when the user code begins, and how each try ends (`errored running user code after …`).
   */
  async runDatum(run: JobRun, datum: DatumRow, dirs: DatumDirs): Promise<void> {
    const { spec } = run;
    const job = run.running.job;
    const signal = run.running.controller.signal;
    const files = JSON.parse(datum.data) as DatumFile[];
    const started = Date.now();
    const stats = emptyStats();
    if (run.baseEnv instanceof Error) {
      const reason = run.baseEnv.message;
      this.c.systemLog(job, datum.id, `errored running user code after 0s: ${reason}`);
      this.results.recordDatum(
        run,
        datum.id,
        { state: 'FAILED', reason, started_at: started, finished_at: Date.now() },
        stats,
      );
      return;
    }
    const shared = this.slot(run, dirs);
    const extraEnv = datumEnv(datum.id, files, shared.pfsRoot, (rowid) =>
      this.commitId(run, rowid),
    );
    const slotName = path.basename(dirs.root);
    const data = datumMatches(files).map((m) => ({ path: m.path, hash: m.hash }));
    const launch = (
      cmd: string[],
      stdin: string,
      acceptReturnCode: number[],
      attemptSignal: AbortSignal,
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
        signal: attemptSignal,
        onLine: (line) => this.c.log(job, datum.id, line, true),
      });
    let lastReason = '';
    try {
      for (let attempt = 1; attempt <= spec.datumTries && !signal.aborted;) {
        const prepared = prepareSpec(this.c.o.blobs, shared.slot, files);
        if (shared.makeCwd) prepared.spec.dirs.push(shared.makeCwd);
        // This try's own signal: the job's, or RestartDatum's for this datum alone.
        const restart = new AbortController();
        const onJobAbort = () => restart.abort();
        signal.addEventListener('abort', onJobAbort);
        this.c.workers.begin(job, slotName, {
          workerId: `${job.project}-${job.pipeline}-v${job.pipeline_version}-${slotName}`,
          data,
          started: Date.now(),
          restart,
        });
        this.c.systemLog(
          job,
          datum.id,
          `beginning to run user code (try ${attempt} of ${spec.datumTries})`,
        );
        const tryStarted = Date.now();
        const launched = await launch(
          shared.cmd,
          shared.stdin,
          spec.transform.acceptReturnCode,
          restart.signal,
          { prepare: prepared.spec, collect: shared.collect },
        );
        signal.removeEventListener('abort', onJobAbort);
        if (signal.aborted) return;
        if (restart.signal.aborted) {
          this.c.systemLog(job, datum.id, 'restarting datum: RestartDatum asked for it');
          continue;
        }
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
        const took = goDuration(Date.now() - tryStarted);
        if (result.ok) {
          // The outputs stay staged (named by their hash) until the job finishes.
          const outputs = launched.outputs;
          stats.uploadBytes = outputs.reduce((n, f) => n + f.sizeBytes, 0);
          this.results.recordDatum(
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
          this.c.systemLog(job, datum.id, `finished running user code after ${took}`);
          return;
        }
        lastReason = result.reason;
        this.c.systemLog(
          job,
          datum.id,
          `errored running user code after ${took}: ${result.reason}`,
        );
        attempt++;
      }
    } finally {
      this.c.workers.end(job, slotName);
    }
    if (signal.aborted) return;
    const state = await this.recover(run, datum, shared, stats, launch);
    if (signal.aborted) return;
    this.results.recordDatum(
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

  /** After a datum's last failed try: its errCmd, whose success marks it RECOVERED. */
  private async recover(
    run: JobRun,
    datum: DatumRow,
    shared: SlotLaunch,
    stats: Stats,
    launch: (
      cmd: string[],
      stdin: string,
      acceptReturnCode: number[],
      signal: AbortSignal,
    ) => Promise<LaunchResult>,
  ): Promise<'FAILED' | 'RECOVERED'> {
    const { spec } = run;
    const job = run.running.job;
    if (spec.transform.errCmd.length === 0) return 'FAILED';
    this.c.systemLog(job, datum.id, 'running errCmd');
    const launched = await launch(
      shared.errCmd,
      shared.errStdin,
      [],
      run.running.controller.signal,
    );
    stats.processMs += launched.ms;
    const result = processResult(launched, spec.transform.errCmd[0] ?? '', [], spec.datumTimeoutMs);
    this.c.systemLog(
      job,
      datum.id,
      result.ok ? 'errCmd succeeded: datum recovered' : `errCmd failed: ${result.reason}`,
    );
    return result.ok ? 'RECOVERED' : 'FAILED';
  }

  /** An input commit's ID (looked up once per job run). */
  private commitId(run: JobRun, rowid: number): string {
    let id = run.commitIds.get(rowid);
    if (id === undefined) {
      id = this.c.o.pfs.commitByRowid(rowid)?.id ?? '';
      run.commitIds.set(rowid, id);
    }
    return id;
  }
}
