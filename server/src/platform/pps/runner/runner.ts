import { EventEmitter, setMaxListeners } from 'node:events';
import path from 'node:path';
import { notFound } from '../../../errors.ts';
import type { CommitRow, RepoRow } from '../../pfs/rows.ts';
import { isOpen } from '../../pfs/rows.ts';
import { CronSchedule } from './cron-schedule.ts';
import { DatumLauncher } from './datum-launch.ts';
import type { InputCommits } from '../datums.ts';
import { JobOutputs } from './job-output.ts';
import { JobRunner } from './job-run.ts';
import { Launcher } from './launcher.ts';
import {
  isTerminal,
  type InputCommitRef,
  type JobRow,
  type JobState,
  type PipelineStateRow,
} from '../pps-store.ts';
import type {
  PipelineAuthority,
  RunnerContext,
  RunnerOptions,
  RunningJob,
} from './runner-context.ts';
import { sandboxAvailability } from './sandbox.ts';
import { WorkerSlots } from './worker-slots.ts';
import {
  inputCommitKey,
  inputLeaves,
  readPipelineSpec,
  type CronInputSpec,
  type PipelineSpec,
} from '../spec.ts';

export type { RunnerOptions } from './runner-context.ts';

/**
 * Runs pipelines: a finished commit on an input branch creates a job (same global ID); jobs of
 * one pipeline run one at a time; datums run as host processes, `parallelismSpec.constant` at
 * once. Outputs are staged in the work folder and land in the output commit in one transaction
 * when the job ends.
 */
export class Runner implements RunnerContext {
  /** Emits 'job' (JobRow) on every job change. */
  readonly jobEvents = new EventEmitter();
  private readonly running = new Map<string, RunningJob>();
  private unsubscribe: (() => void) | null = null;
  private pumpScheduled = false;
  private closed = false;
  private started = false;
  readonly workDir: string;
  readonly launcher: Launcher;
  readonly workers = new WorkerSlots();
  signIn = false;
  authority: PipelineAuthority | null = null;
  private readonly outputs = new JobOutputs(this);
  private readonly jobs = new JobRunner(this, new DatumLauncher(this), this.outputs);
  private readonly crons = new CronSchedule(this);

  constructor(readonly o: RunnerOptions) {
    this.jobEvents.setMaxListeners(0);
    this.workDir = path.join(o.dataDir, 'work');
    this.launcher = new Launcher(path.join(this.workDir, '.launcher'));
  }

  isClosed(): boolean {
    return this.closed;
  }

  // ---- lifecycle ------------------------------------------------------------------------

  /** Recovers jobs a previous process left unfinished, then starts listening and scheduling. */
  start(
    subscribe: (listener: (commit: CommitRow) => void) => () => void,
    options: { signIn?: boolean } = {},
  ): void {
    this.signIn = options.signIn ?? false;
    const sandbox = sandboxAvailability();
    if (!sandbox.available)
      console.warn(
        this.signIn
          ? `pps: ${sandbox.reason}; sign-in is on, so pipelines will not run until it is installed`
          : `pps: ${sandbox.reason}; pipelines run unsandboxed, as the server's user`,
      );
    // Jobs created before this (the seed's) are first runs: only a job a previous process had
    // started is resumed.
    for (const job of this.o.store.activeJobs()) {
      if (job.state !== 'JOB_CREATED') {
        this.o.store.updateJob(job.rowid, { state: 'JOB_CREATED', restart: job.restart + 1 });
        this.systemLog(job, '', 'the server restarted: resuming the job');
      }
    }
    this.started = true;
    this.unsubscribe = subscribe((commit) => this.onCommitFinished(commit));
    for (const state of this.o.store.listStates()) this.scheduleCrons(state);
    this.kick();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    this.crons.close();
    const jobs = [...this.running.values()];
    for (const running of jobs) running.controller.abort();
    await Promise.all(jobs.map((running) => running.done));
    this.launcher.close();
    this.o.logs.flush();
  }

  private jobKey(job: { project: string; pipeline: string }): string {
    return `${job.project}/${job.pipeline}`;
  }

  spec(project: string, name: string, version?: number): PipelineSpec {
    const state = this.o.store.findState(project, name);
    if (!state) throw notFound(`pipeline ${name} not found in project ${project}`);
    const row = this.o.store.version(project, name, version ?? state.version);
    return readPipelineSpec(JSON.parse(row.effective_spec) as Record<string, unknown>);
  }

  isRunning(project: string, pipeline: string): boolean {
    return this.running.has(`${project}/${pipeline}`);
  }

  // ---- triggering -----------------------------------------------------------------------

  private onCommitFinished(commit: CommitRow): void {
    if (this.closed) return;
    try {
      const repo = this.o.pfs.repoById(commit.repo_id);
      if (!repo || repo.type !== 'user' || commit.branch_name === null) return;
      for (const state of this.o.store.listStates()) {
        if (state.stopped) continue;
        const spec = this.spec(state.project, state.name);
        const watches = inputLeaves(spec.input).some(
          (leaf) =>
            leaf.project === repo.project &&
            leaf.repo === repo.name &&
            (leaf.kind === 'cron' ? 'master' : leaf.branch) === commit.branch_name,
        );
        if (watches) this.createJob(state, commit.id, null);
      }
    } catch (error) {
      console.error('pps: could not start jobs for a commit', error);
    }
  }

  /** Creates a job (JOB_CREATED) unless the pipeline already has one with this ID. */
  createJob(
    state: PipelineStateRow,
    id: string,
    inputs: InputCommitRef[] | null,
  ): JobRow | undefined {
    const version = this.o.store.version(state.project, state.name, state.version);
    const job = this.o.store.transaction(() => {
      const inserted = this.o.store.insertJob({
        project: state.project,
        pipeline: state.name,
        id,
        version: state.version,
        salt: version.salt,
        inputCommits: inputs,
      });
      if (inserted) this.o.store.setLastJobState(state.project, state.name, 'JOB_CREATED');
      return inserted;
    });
    if (job) {
      this.emitJob(job);
      this.kick();
    }
    return job;
  }

  /** Creates a job over the current heads of every input when they all have commits. */
  jobFromHeads(state: PipelineStateRow, id: string): JobRow | undefined {
    const spec = this.spec(state.project, state.name);
    for (const leaf of inputLeaves(spec.input)) {
      const repo = this.o.pfs.findRepo({ project: leaf.project, name: leaf.repo, type: 'user' });
      if (!repo) return undefined;
      if (!this.latestFinished(repo, leaf.kind === 'cron' ? 'master' : leaf.branch))
        return undefined;
    }
    return this.createJob(state, id, null);
  }

  private latestFinished(repo: RepoRow, branchName: string): CommitRow | undefined {
    const branch = this.o.pfs.findBranch(repo, branchName);
    let commit = branch?.head_rowid ? this.o.pfs.commitByRowid(branch.head_rowid) : undefined;
    while (commit && isOpen(commit))
      commit =
        commit.parent_rowid === null ? undefined : this.o.pfs.commitByRowid(commit.parent_rowid);
    return commit;
  }

  emitJob(job: JobRow): void {
    this.jobEvents.emit('job', job);
  }

  /** Starts whatever jobs can start (soon, once per tick). */
  kick(): void {
    if (this.pumpScheduled || this.closed || !this.started) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    if (this.closed) return;
    const busy = new Set(this.running.keys());
    for (const job of this.o.store.activeJobs()) {
      const key = this.jobKey(job);
      if (busy.has(key)) continue;
      busy.add(key);
      const state = this.o.store.findState(job.project, job.pipeline);
      if (!state || state.stopped) continue;
      const inputs = this.resolveInputs(job);
      if (inputs === 'wait') continue;
      const running: RunningJob = {
        job,
        controller: new AbortController(),
        stopReason: null,
        done: Promise.resolve(),
      };
      // Each datum on its way listens to it (parallelism × 2 + 6 at once).
      setMaxListeners(0, running.controller.signal);
      this.running.set(key, running);
      running.done = this.jobs
        .run(running, inputs)
        .catch((error: unknown) => {
          console.error('pps: job crashed', error);
          return this.outputs.endJob(
            running.job,
            'JOB_FAILURE',
            `internal error: ${(error as Error).message}`,
          );
        })
        .catch(() => undefined)
        .finally(() => {
          this.running.delete(key);
          this.kick();
        });
    }
  }

  /**
   * The commit each input reads: the one with the job's ID when the input has it (same commit
   * set), else the branch's latest finished commit. 'wait' while an upstream part of the set is
   * still being computed.
   */
  private resolveInputs(job: JobRow): InputCommits | 'wait' | Error {
    const commits: InputCommits = new Map();
    let spec: PipelineSpec;
    try {
      spec = this.spec(job.project, job.pipeline, job.pipeline_version);
    } catch (error) {
      return error as Error;
    }
    if (job.input_commits) {
      for (const ref of JSON.parse(job.input_commits) as InputCommitRef[]) {
        const commit = this.o.pfs.commitByRowid(ref.commitRowid);
        if (!commit) return new Error(`an input commit of job ${job.id} was deleted`);
        commits.set(ref.name, commit);
      }
      return commits;
    }
    for (const leaf of inputLeaves(spec.input)) {
      const repo = this.o.pfs.findRepo({ project: leaf.project, name: leaf.repo, type: 'user' });
      if (!repo) return new Error(`input repo ${leaf.project}/${leaf.repo} not found`);
      const sameSet = this.o.pfs.findCommit(repo, job.id);
      if (sameSet && isOpen(sameSet)) return 'wait';
      // An upstream pipeline that will write this commit set's commit to the repo: wait for it.
      if (!sameSet && this.o.store.findJob(repo.project, repo.name, job.id)) {
        const upstream = this.o.store.findJob(repo.project, repo.name, job.id);
        if (upstream && !isTerminal(upstream.state)) return 'wait';
      }
      const commit =
        sameSet ?? this.latestFinished(repo, leaf.kind === 'cron' ? 'master' : leaf.branch);
      if (!commit) return new Error(`input ${leaf.name} has no finished commit on its branch`);
      commits.set(inputCommitKey(spec.input, leaf), commit);
    }
    return commits;
  }

  // ---- running a job --------------------------------------------------------------------

  jobDir(job: JobRow): string {
    return path.join(this.workDir, job.id, job.project, job.pipeline);
  }

  /** Updates a job (and its pipeline's last job state with its state) in one transaction. */
  update(job: JobRow, fields: Partial<Omit<JobRow, 'rowid'>>): void {
    const { store } = this.o;
    store.transaction(() => {
      store.updateJob(job.rowid, fields);
      if (fields.state) store.setLastJobState(job.project, job.pipeline, fields.state);
    });
    this.refresh(job);
  }

  /** Reads a job's row again into `job` (and its running state), and tells its listeners. */
  refresh(job: JobRow): void {
    const fresh = this.o.store.jobByRowid(job.rowid);
    if (!fresh) return;
    const running = this.running.get(this.jobKey(fresh));
    if (running && running.job.rowid === fresh.rowid) running.job = fresh;
    Object.assign(job, fresh);
    this.emitJob(fresh);
  }

  // ---- control --------------------------------------------------------------------------

  stop(running: RunningJob, state: JobState, reason: string): void {
    if (!running.stopReason) running.stopReason = { state, reason };
    running.controller.abort();
  }

  /** Stops a job: kills its processes; it ends as `state` (JOB_KILLED). */
  async stopJob(job: JobRow, reason: string, state: JobState = 'JOB_KILLED'): Promise<void> {
    if (isTerminal(job.state)) return;
    const running = this.running.get(this.jobKey(job));
    if (running && running.job.rowid === job.rowid) {
      this.stop(running, state, reason);
      await running.done;
      return;
    }
    await this.outputs.endJob(job, state, reason);
  }

  /** Stops every job of a pipeline (before deleting it). */
  async stopPipelineJobs(project: string, pipeline: string, reason: string): Promise<void> {
    for (const job of this.o.store.activeJobs()) {
      if (job.project === project && job.pipeline === pipeline) await this.stopJob(job, reason);
    }
  }

  // ---- cron -----------------------------------------------------------------------------

  scheduleCrons(state: PipelineStateRow): void {
    this.crons.scheduleCrons(state);
  }

  clearCrons(project: string, name: string): void {
    this.crons.clearCrons(project, name);
  }

  /** A cron tick: a commit with a file named by the time (all earlier ones removed if overwrite). */
  tick(leaf: CronInputSpec, project: string, pipeline: string): Promise<void> {
    return this.crons.tick(leaf, project, pipeline);
  }

  runCron(project: string, name: string): Promise<void> {
    return this.crons.runCron(project, name);
  }

  // ---- logs -----------------------------------------------------------------------------

  log(job: JobRow, datumId: string, message: string, user: boolean, master = false): void {
    this.o.logs.append({
      project: job.project,
      pipeline: job.pipeline,
      jobId: job.id,
      datumId,
      user,
      master,
      message,
    });
  }

  systemLog(job: JobRow, datumId: string, message: string, master = false): void {
    this.log(job, datumId, message, false, master);
  }
}
