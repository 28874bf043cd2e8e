import type { CommitRow } from '../../pfs/rows.ts';
import type { DatumFile } from '../datums.ts';
import type { LaunchRequest } from './launcher.ts';
import { emptyStats, type DatumRow } from '../pps-store.ts';
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
      this.results.recordDatum(
        run,
        datum.id,
        { state: 'FAILED', reason, started_at: started, finished_at: Date.now() },
        stats,
      );
      return;
    }
    const shared = this.slot(run, dirs);
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
}
