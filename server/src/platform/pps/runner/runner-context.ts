import type { PfsStore } from '../../pfs/pfs-store.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { Launcher } from './launcher.ts';
import type { LogStore } from '../logs.ts';
import type { JobRow, JobState, PpsStore } from '../pps-store.ts';
import type { SecretStore } from '../secrets.ts';
import type { PipelineSpec } from '../spec.ts';
import type { WorkerSlots } from './worker-slots.ts';

/**
 * What the runner's parts share: job scheduling (runner.ts), running a job (job-run.ts),
 * launching datums (datum-launch.ts, with job-datums.ts, datum-env.ts and slot-launch.ts), output staging and ending jobs (job-output.ts) and cron
 * ticks (cron-schedule.ts). The Runner is the context.
 */

export interface RunnerOptions {
  dataDir: string;
  pfs: PfsStore;
  blobs: BlobStore;
  store: PpsStore;
  logs: LogStore;
  secrets: SecretStore;
}

export interface RunningJob {
  job: JobRow;
  controller: AbortController;
  /** Set when the job was stopped on purpose (StopJob / DeletePipeline / timeout). */
  stopReason: { state: JobState; reason: string } | null;
  done: Promise<void>;
}

/**
 * With roles on: why a pipeline may not run a job over these repos now (its creator's or its
 * robot principal's binding was revoked), or null when it may.
 */
export type PipelineAuthority = (check: {
  project: string;
  pipeline: string;
  /** Who created the job's pipeline version ('' when the platform did, or sign-in was off). */
  creator: string;
  inputs: { project: string; repo: string }[];
  /** Repos it writes besides its output: its cron inputs' (the creator must write them). */
  writes?: { project: string; repo: string }[];
  /** Secrets it reads (the creator must still be allowed to). */
  secrets?: string[];
  /** Whether it writes its output now (a job: true, the default; a cron tick: false). */
  output?: boolean;
}) => string | null;

export interface RunnerContext {
  readonly o: RunnerOptions;
  readonly launcher: Launcher;
  /** What each worker slot of a running job is doing (worker status, RestartDatum). */
  readonly workers: WorkerSlots;
  /** `<dataDir>/work`: the jobs' folders. */
  readonly workDir: string;
  /** Whether sign-in is on: then pipelines never run without a sandbox. */
  readonly signIn: boolean;
  /** Set when roles are on (the platform wires it to the authorizer). */
  readonly authority: PipelineAuthority | null;
  isClosed(): boolean;
  jobDir(job: JobRow): string;
  spec(project: string, name: string, version?: number): PipelineSpec;
  /** Updates a job (and its pipeline's last job state with its state) in one transaction. */
  update(job: JobRow, fields: Partial<Omit<JobRow, 'rowid'>>): void;
  /** Reads a job's row again into `job` (and its running state), and tells its listeners. */
  refresh(job: JobRow): void;
  emitJob(job: JobRow): void;
  stop(running: RunningJob, state: JobState, reason: string): void;
  log(job: JobRow, datumId: string, message: string, user: boolean, master?: boolean): void;
  systemLog(job: JobRow, datumId: string, message: string, master?: boolean): void;
}
