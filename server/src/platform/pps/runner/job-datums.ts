import os from 'node:os';
import type { CommitRow } from '../../pfs/rows.ts';
import {
  emptyStats,
  isTerminal,
  type DatumRow,
  type DatumState,
  type Stats,
} from '../pps-store.ts';
import { inputLeaves, type PipelineSpec } from '../spec.ts';
import { jobEnv } from './datum-env.ts';
import type { RunnerContext, RunningJob } from './runner-context.ts';
import type { SlotLaunch } from './slot-launch.ts';

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
  /** Its input commits' IDs by row (for its datums' `<input>_COMMIT`). */
  commitIds: Map<number, string>;
}

/**
 * A job's datum results: its run state (counters read once, then kept in memory) and the
 * results queued and written in batches together with the job's counters.
 */
export class JobDatums {
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
      baseEnv = jobEnv(this.c.o.secrets, spec, job, output);
    } catch (error) {
      baseEnv = error as Error;
    }
    return {
      running,
      spec,
      jobDir,
      inputNames: [...new Set(inputLeaves(spec.input).map((leaf) => leaf.name))],
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
      commitIds: new Map(),
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
}
