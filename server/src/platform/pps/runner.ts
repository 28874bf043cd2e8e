import { EventEmitter, setMaxListeners } from 'node:events';
import { statSync } from 'node:fs';
import { open, mkdir, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { failedPrecondition, notFound } from '../../errors.ts';
import type { NewFile, PfsStore } from '../pfs/pfs-store.ts';
import type { CommitRow, RepoRow } from '../pfs/rows.ts';
import { isOpen } from '../pfs/rows.ts';
import { fsyncDir, type BlobStore } from '../storage/blob-store.ts';
import { parseCron } from './cron.ts';
import { planDatums, type DatumFile, type InputCommits } from './datums.ts';
import type { LogStore } from './logs.ts';
import {
  emptyStats,
  isTerminal,
  type DatumRow,
  type DatumState,
  type InputCommitRef,
  type JobRow,
  type JobState,
  type OutputFile,
  type PipelineStateRow,
  type PpsStore,
  type Stats,
} from './pps-store.ts';
import type { SecretStore } from './secrets.ts';
import { inputLeaves, readPipelineSpec, type CronInputSpec, type PipelineSpec } from './spec.ts';
import { Launcher, type LaunchRequest, type ShellSpec } from './launcher.ts';
import { sandboxAvailability, sandboxShellArgv, sandboxUid } from './sandbox.ts';
import {
  prepareSpec,
  processResult,
  rewritePfs,
  slotDirs,
  stageDir,
  type DatumDirs,
  type ProcessResult,
} from './worker.ts';

/** Environment variables passed through from the server to datum processes. */
const passThroughEnv = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'USER', 'SHELL'];

interface RunningJob {
  job: JobRow;
  controller: AbortController;
  /** Set when the job was stopped on purpose (StopJob / DeletePipeline / timeout). */
  stopReason: { state: JobState; reason: string } | null;
  done: Promise<void>;
}

/** Outputs of at least this many files are made durable with one filesystem sync. */
const syncWholeFsFrom = 32;

/** A running job's datum bookkeeping: counters kept in memory, results written in batches. */
interface JobRun {
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
}

/** Runs `work` over `items`, `limit` at a time. */
async function parallel<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

export interface RunnerOptions {
  dataDir: string;
  pfs: PfsStore;
  blobs: BlobStore;
  store: PpsStore;
  logs: LogStore;
  secrets: SecretStore;
}

/**
 * Runs pipelines: a finished commit on an input branch creates a job (same global ID); jobs of
 * one pipeline run one at a time; datums run as host processes, `parallelismSpec.constant` at
 * once. Outputs are staged in the work folder and land in the output commit in one transaction
 * when the job ends.
 */
export class Runner {
  /** Emits 'job' (JobRow) on every job change. */
  readonly jobEvents = new EventEmitter();
  private readonly running = new Map<string, RunningJob>();
  private readonly cronTimers = new Map<string, NodeJS.Timeout>();
  private unsubscribe: (() => void) | null = null;
  private pumpScheduled = false;
  private closed = false;
  private readonly workDir: string;
  private readonly cpuLimit = Math.max(1, os.cpus().length);
  private readonly launcher: Launcher;
  /** Job runs started by this process (part of each run's slot token). */
  private runCount = 0;
  private workReady: Promise<void> | null = null;
  private started = false;
  /** Whether sign-in is on: then pipelines never run without a sandbox. */
  private signIn = false;

  constructor(private readonly o: RunnerOptions) {
    this.jobEvents.setMaxListeners(0);
    this.workDir = path.join(o.dataDir, 'work');
    this.launcher = new Launcher(path.join(this.workDir, '.launcher'));
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
    for (const timer of this.cronTimers.values()) clearTimeout(timer);
    this.cronTimers.clear();
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
      running.done = this.runJob(running, inputs)
        .catch((error: unknown) => {
          console.error('pps: job crashed', error);
          return this.endJob(
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
      commits.set(leaf.name, commit);
    }
    return commits;
  }

  // ---- running a job --------------------------------------------------------------------

  private jobDir(job: JobRow): string {
    return path.join(this.workDir, job.id, job.project, job.pipeline);
  }

  private async runJob(running: RunningJob, inputs: InputCommits | Error): Promise<void> {
    const { store, pfs } = this.o;
    let job = running.job;
    if (inputs instanceof Error) return this.endJob(job, 'JOB_FAILURE', inputs.message);
    const sandbox = sandboxAvailability();
    if (!sandbox.available && this.signIn)
      return this.endJob(
        job,
        'JOB_FAILURE',
        `${sandbox.reason}: with sign-in on, pipeline code only runs in a sandbox (install bubblewrap)`,
      );
    // (Starts the launcher on the first job, while the job is planned.)
    const workReady = (this.workReady ??= this.spreadJobFolders());
    const spec = this.spec(job.project, job.pipeline, job.pipeline_version);
    const inputRefs = [...inputs].map(([name, commit]) => ({ name, commitRowid: commit.rowid }));
    const now = Date.now();
    this.update(job, {
      state: 'JOB_STARTING',
      started_at: job.started_at ?? now,
      input_commits: JSON.stringify(inputRefs),
    });
    this.systemLog(
      job,
      '',
      `started job ${job.id} (pipeline version ${job.pipeline_version})`,
      true,
    );
    if (!sandbox.available)
      this.systemLog(
        job,
        '',
        `warning: ${sandbox.reason}; this job's code runs unsandboxed, as the server's user`,
        true,
      );

    // The output commit: open on the output branch, same global ID, provenance = the inputs.
    const outRepo = pfs.findRepo({ project: job.project, name: job.pipeline, type: 'user' });
    if (!outRepo) return this.endJob(job, 'JOB_FAILURE', `output repo ${job.pipeline} not found`);
    let output = job.output_commit_rowid ? pfs.commitByRowid(job.output_commit_rowid) : undefined;
    if (!output) {
      const existing = pfs.findCommit(outRepo, job.id);
      if (existing)
        return this.endJob(job, 'JOB_FAILURE', `output repo already has a commit ${job.id}`);
      const branch = pfs.findBranch(outRepo, spec.outputBranch);
      const head = branch?.head_rowid ? pfs.commitByRowid(branch.head_rowid) : undefined;
      if (head && isOpen(head)) pfs.finishCommit(head, '', 'superseded by a newer job');
      output = pfs.startCommit(outRepo, spec.outputBranch, null, '', 'AUTO', job.id);
      pfs.addProvenance(output, [...inputs.values()]);
      this.update(job, { output_commit_rowid: output.rowid });
      job = running.job;
    }

    const jobTimer =
      spec.jobTimeoutMs > 0
        ? setTimeout(
            () =>
              this.stop(running, 'JOB_FAILURE', `job timed out after ${spec.jobTimeoutMs / 1000}s`),
            spec.jobTimeoutMs,
          )
        : undefined;
    try {
      // Datums: planned once (kept across restarts); earlier outputs are reused (SKIPPED).
      let datums = store.datums(job.rowid);
      if (datums.length === 0) {
        store.insertDatums(job.rowid, planDatums(pfs, spec.input, inputs));
        datums = store.datums(job.rowid);
      }
      const jobDir = this.jobDir(job);
      const pending: DatumRow[] = [];
      store.transaction(() => {
        for (const datum of datums) {
          if (datum.state === 'SUCCESS' || datum.state === 'SKIPPED' || datum.state === 'RECOVERED')
            continue;
          if (datum.state === 'FAILED') continue;
          const reused = store.reusableOutput(
            job.project,
            job.pipeline,
            job.salt,
            datum.id,
            job.rowid,
          );
          if (reused !== null) {
            store.updateDatum(job.rowid, datum.id, {
              state: 'SKIPPED',
              output: reused,
              stored: 1,
              finished_at: Date.now(),
            });
            datum.state = 'SKIPPED';
          } else pending.push(datum);
        }
      });
      // Staged outputs of datums that succeeded before a restart must still be there.
      const staged = stageDir(jobDir);
      for (const datum of datums.filter((d) => d.state === 'SUCCESS' && d.stored === 0)) {
        const outputs = JSON.parse(datum.output ?? '[]') as OutputFile[];
        const present = await Promise.all(
          outputs.map(
            async (f) =>
              (await this.o.blobs.has(f.hash)) ||
              stat(path.join(staged, f.hash)).then(
                (s) => s.size === f.sizeBytes,
                () => false,
              ),
          ),
        );
        if (!present.every(Boolean)) {
          store.updateDatum(job.rowid, datum.id, { state: 'STARTING', output: null });
          datum.state = 'STARTING';
          pending.push(datum);
        }
      }
      pending.sort((a, b) => a.seq - b.seq);
      this.update(job, { state: 'JOB_RUNNING', data_total: datums.length });
      const run = this.newJobRun(running, spec, jobDir, output, sandbox.available);
      this.flushDatums(run);
      await workReady;

      // `slots` datums are on their way at once: prepared (inputs copied), queued at the
      // launcher, running, or having their outputs hashed; the launcher runs `parallelism` of
      // them at a time. So preparing and finishing datums overlaps with running the others,
      // and the launcher can report several exits at once while the next datums run.
      // Each worker reuses one slot folder for its datums.
      const slots = run.parallelism * 2 + 6;
      let next = 0;
      const workers = Array.from({ length: Math.min(slots, pending.length) }, async (_, k) => {
        const dirs = slotDirs(jobDir, k);
        while (next < pending.length && !running.controller.signal.aborted) {
          const datum = pending[next++] as DatumRow;
          await this.runDatum(run, datum, dirs);
        }
      });
      try {
        await Promise.all(workers);
      } finally {
        this.flushDatums(run);
      }
    } finally {
      clearTimeout(jobTimer);
    }

    if (running.controller.signal.aborted) {
      if (!running.stopReason) return; // server shutting down: resume on the next start
      return this.endJob(job, running.stopReason.state, running.stopReason.reason);
    }

    this.update(job, { state: 'JOB_FINISHING' });
    const finalDatums = store.datums(job.rowid);
    await this.storeOutputs(job, finalDatums);
    const failed = finalDatums.filter((d) => d.state === 'FAILED');
    if (failed.length > 0) {
      const first = failed[0] as DatumRow;
      return this.endJob(
        job,
        'JOB_FAILURE',
        `datum ${first.id} failed: ${first.reason}`,
        finalDatums,
      );
    }
    return this.endJob(job, 'JOB_SUCCESS', '', finalDatums);
  }

  /** Updates a job (and its pipeline's last job state with its state) in one transaction. */
  private update(job: JobRow, fields: Partial<Omit<JobRow, 'rowid'>>): void {
    const { store } = this.o;
    store.transaction(() => {
      store.updateJob(job.rowid, fields);
      if (fields.state) store.setLastJobState(job.project, job.pipeline, fields.state);
    });
    this.refresh(job);
  }

  /** Reads a job's row again into `job` (and its running state), and tells its listeners. */
  private refresh(job: JobRow): void {
    const fresh = this.o.store.jobByRowid(job.rowid);
    if (!fresh) return;
    const running = this.running.get(this.jobKey(fresh));
    if (running && running.job.rowid === fresh.rowid) running.job = fresh;
    Object.assign(job, fresh);
    this.emitJob(fresh);
  }

  /** A job's running state: its datum counters and the datum results not yet written. */
  private newJobRun(
    running: RunningJob,
    spec: PipelineSpec,
    jobDir: string,
    output: CommitRow,
    sandboxed: boolean,
  ): JobRun {
    const job = running.job;
    const counts = new Map(
      (
        this.o.store.db
          .prepare('SELECT state, COUNT(*) AS n FROM pps_datums WHERE job_rowid = ? GROUP BY state')
          .all(job.rowid) as { state: string; n: number }[]
      ).map((row) => [row.state, row.n]),
    );
    const stats = this.o.store.db
      .prepare(
        `SELECT COALESCE(SUM(json_extract(stats, '$.downloadMs')), 0) AS downloadMs,
           COALESCE(SUM(json_extract(stats, '$.processMs')), 0) AS processMs,
           COALESCE(SUM(json_extract(stats, '$.uploadMs')), 0) AS uploadMs,
           COALESCE(SUM(json_extract(stats, '$.downloadBytes')), 0) AS downloadBytes,
           COALESCE(SUM(json_extract(stats, '$.uploadBytes')), 0) AS uploadBytes
         FROM pps_datums WHERE job_rowid = ? AND state != 'SKIPPED'`,
      )
      .get(job.rowid) as Stats;
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
      counts,
      total: [...counts.values()].reduce((a, b) => a + b, 0),
      stats,
      results: [],
      flushTimer: null,
    };
  }

  /** Queues a datum's result; results are written together (every 200 ms, or 200 of them). */
  private recordDatum(
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
  private flushDatums(run: JobRun): void {
    if (run.flushTimer) clearTimeout(run.flushTimer);
    run.flushTimer = null;
    const results = run.results;
    run.results = [];
    const job = run.running.job;
    if (isTerminal(this.o.store.jobByRowid(job.rowid)?.state ?? 'JOB_KILLED')) return;
    const count = (state: string) => run.counts.get(state) ?? 0;
    this.o.store.unsyncedTransaction(() => {
      for (const result of results) this.o.store.updateDatum(job.rowid, result.id, result.fields);
      this.o.store.updateJob(job.rowid, {
        data_processed: count('SUCCESS'),
        data_skipped: count('SKIPPED'),
        data_failed: count('FAILED'),
        data_recovered: count('RECOVERED'),
        data_total: run.total,
        stats: JSON.stringify(run.stats),
      });
    });
    this.refresh(job);
  }

  /** The environment every datum of the job shares (secrets are opened once per job). */
  private jobEnv(spec: PipelineSpec, job: JobRow, output: CommitRow): Record<string, string> {
    const env: Record<string, string> = {};
    for (const key of passThroughEnv) {
      const value = process.env[key];
      if (value !== undefined) env[key] = value;
    }
    Object.assign(env, spec.transform.env);
    for (const secret of spec.transform.secrets) {
      if (!secret.envVar) continue;
      const values = this.o.secrets.open(secret.name);
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

  /** A datum's environment: /pfs is the real /pfs in a sandbox, else the slot's folder. */
  private datumEnv(run: JobRun, datumId: string, dirs: DatumDirs): Record<string, string> {
    const pfs = run.sandboxed ? '/pfs' : dirs.pfs;
    const env: Record<string, string> = {
      ...(run.baseEnv as Record<string, string>),
      ...(run.sandboxed ? { HOME: '/tmp', TMPDIR: '/tmp' } : {}),
      PACH_DATUM_ID: datumId,
      PFS: pfs,
      PFS_OUT: path.join(pfs, 'out'),
    };
    for (const name of run.inputNames)
      env[`PFS_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`] = path.join(pfs, name);
    return env;
  }

  /** The long-lived shell of a worker slot: in a sandbox that sees only the slot's /pfs. */
  private slotShell(run: JobRun, dirs: DatumDirs): ShellSpec {
    if (!run.sandboxed) return { key: dirs.root, argv: ['/bin/sh'] };
    return {
      key: dirs.root,
      argv: sandboxShellArgv({
        inputs: run.inputNames.map((name) => [name, path.join(dirs.pfs, name)]),
        out: dirs.out,
        hidden: [this.o.dataDir, this.workDir],
      }),
    };
  }

  /** Runs one datum (its tries, then errCmd); its result is queued with recordDatum. */
  private async runDatum(run: JobRun, datum: DatumRow, dirs: DatumDirs): Promise<void> {
    const { spec } = run;
    const job = run.running.job;
    const signal = run.running.controller.signal;
    const files = JSON.parse(datum.data) as DatumFile[];
    const started = Date.now();
    const stats = emptyStats();
    if (run.baseEnv instanceof Error) {
      const reason = run.baseEnv.message;
      this.systemLog(job, datum.id, `datum failed: ${reason}`);
      this.recordDatum(
        run,
        datum.id,
        { state: 'FAILED', reason, started_at: started, finished_at: Date.now() },
        stats,
      );
      return;
    }
    const env = this.datumEnv(run, datum.id, dirs);
    // In a sandbox /pfs is real: commands run as written. Else /pfs is the slot's folder.
    const rewrite = (list: string[]) =>
      run.sandboxed ? list : list.map((s) => rewritePfs(s, dirs.pfs));
    const workingDir = spec.transform.workingDir;
    const cwd = run.sandboxed ? workingDir || '/' : rewritePfs(workingDir, dirs.pfs) || dirs.root;
    const hostCwd = workingDir ? rewritePfs(workingDir, dirs.pfs) : '';
    const shell = this.slotShell(run, dirs);
    const launch = (
      cmd: string[],
      stdin: string[],
      acceptReturnCode: number[],
      extra: Pick<LaunchRequest, 'prepare' | 'collect'> = {},
    ) =>
      this.launcher.run({
        cmd: rewrite(cmd),
        stdin: stdin.length > 0 ? rewrite(stdin).join('\n') + '\n' : '',
        env,
        cwd,
        shell,
        timeoutMs: spec.datumTimeoutMs,
        group: run.group,
        limit: run.parallelism,
        accept: acceptReturnCode,
        ...extra,
        signal,
        onLine: (line) => this.log(job, datum.id, line, true),
      });
    let lastReason = '';
    for (let attempt = 1; attempt <= spec.datumTries && !signal.aborted; attempt++) {
      const prepared = prepareSpec(this.o.blobs, dirs, files, run.inputNames, run.slotToken);
      if (run.sandboxed && process.getuid?.() === 0 && prepared.spec.slot)
        prepared.spec.slot.outOwner = sandboxUid;
      // A working folder under /pfs is made in the slot (elsewhere, in a sandbox, it must exist).
      if (hostCwd.startsWith(dirs.pfs + path.sep) || (hostCwd && !run.sandboxed))
        prepared.spec.dirs.push(hostCwd);
      this.systemLog(
        job,
        datum.id,
        `started datum ${datum.id} (attempt ${attempt} of ${spec.datumTries})`,
      );
      const launched = await launch(
        spec.transform.cmd,
        spec.transform.stdin,
        spec.transform.acceptReturnCode,
        {
          prepare: prepared.spec,
          collect: { out: dirs.out, stage: stageDir(run.jobDir) },
        },
      );
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
        this.systemLog(
          job,
          datum.id,
          `finished datum ${datum.id} in ${((Date.now() - started) / 1000).toFixed(3)}s`,
        );
        return;
      }
      lastReason = result.reason;
      this.systemLog(job, datum.id, `datum failed: ${result.reason}`);
    }
    if (signal.aborted) return;
    let state: 'FAILED' | 'RECOVERED' = 'FAILED';
    if (spec.transform.errCmd.length > 0) {
      this.systemLog(job, datum.id, 'running errCmd');
      const launched = await launch(spec.transform.errCmd, spec.transform.errStdin, []);
      if (signal.aborted) return;
      stats.processMs += launched.ms;
      const result = processResult(
        launched,
        spec.transform.errCmd[0] ?? '',
        [],
        spec.datumTimeoutMs,
      );
      if (result.ok) state = 'RECOVERED';
      this.systemLog(
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

  /**
   * Moves staged outputs of successful datums into the blob store. Their bytes are made durable
   * first (one filesystem sync for many files, else an fsync each), then they are renamed to
   * their content address and the blob folders are synced (the same way): the output commit,
   * written after this, never names a blob that a crash could lose or leave half-written.
   */
  private async storeOutputs(job: JobRow, datums: DatumRow[]): Promise<void> {
    const jobDir = this.jobDir(job);
    const staged = stageDir(jobDir);
    const toStore = datums.filter((d) => d.state === 'SUCCESS' && d.stored === 0);
    const byHash = new Map<string, string>();
    for (const datum of toStore) {
      for (const file of JSON.parse(datum.output ?? '[]') as OutputFile[])
        if (!byHash.has(file.hash)) byHash.set(file.hash, path.join(staged, file.hash));
    }
    const blobDirs = new Set<string>();
    const toMove: { from: string; hash: string }[] = [];
    for (const [hash, from] of byHash) {
      const target = this.o.blobs.pathOf(hash);
      blobDirs.add(path.dirname(target));
      // One synchronous stat each: far cheaper than as many thread-pool round trips.
      if (!statSync(target, { throwIfNoEntry: false })?.isFile()) toMove.push({ from, hash });
    }
    if (toMove.length > 0) {
      const synced = toMove.length >= syncWholeFsFrom && (await this.syncFilesystem(jobDir));
      const made = new Set<string>();
      await parallel(toMove, 8, async (move) => {
        if (!synced) {
          const handle = await open(move.from, 'r');
          try {
            await handle.sync();
          } finally {
            await handle.close();
          }
        }
        const target = this.o.blobs.pathOf(move.hash);
        const dir = path.dirname(target);
        if (!made.has(dir)) {
          await mkdir(dir, { recursive: true });
          made.add(dir);
        }
        await rename(move.from, target);
      });
    }
    // The blob folders' entries (the new ones, and any another writer has not synced yet): one
    // filesystem sync for many folders, else an fsync each.
    if (!(blobDirs.size >= syncWholeFsFrom && (await this.syncFilesystem(jobDir))))
      await parallel([...blobDirs], 8, (dir) => fsyncDir(dir));
    // Without the WAL fsync: the output commit, written next, syncs it; if it is lost, a
    // restart finds these outputs in the blob store and marks them again.
    this.o.store.unsyncedTransaction(() => {
      for (const datum of toStore) this.o.store.updateDatum(job.rowid, datum.id, { stored: 1 });
    });
  }

  /**
   * Marks the work folder as the top of separate folder trees (`chattr +T`), so that ext4 places
   * each job's folder in a block group of its own rather than beside the last jobs' (elsewhere
   * it fails, harmlessly). Without a journal, ext4 skips the inodes freed in the last 30 s one by
   * one when it allocates one: in the group where a finished job's folder was just removed,
   * every file a datum creates would cost a scan over the removed files.
   */
  private async spreadJobFolders(): Promise<void> {
    try {
      await mkdir(this.workDir, { recursive: true });
      await this.launcher.run({
        cmd: ['chattr', '+T', this.workDir],
        cwd: this.workDir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        stdin: '',
        timeoutMs: 2_000,
        group: 'sync',
        limit: 4,
      });
    } catch {
      // no work folder yet: the launcher makes it
    }
  }

  /** syncfs(2) on the filesystem of `dir` (through `sync -f`); false if that is not available. */
  private async syncFilesystem(dir: string): Promise<boolean> {
    const result = await this.launcher.run({
      cmd: ['sync', '-f', dir],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdin: '',
      timeoutMs: 0,
      group: 'sync',
      limit: 4,
    });
    return result.error === '' && result.code === 0;
  }

  /**
   * Ends a job: its output commit finishes (with the files on success, with `error` otherwise).
   * `datums`: its datums when the caller has just read them.
   */
  private async endJob(
    job: JobRow,
    state: JobState,
    reason: string,
    datums?: DatumRow[],
  ): Promise<void> {
    const { store, pfs } = this.o;
    const current = store.jobByRowid(job.rowid);
    if (!current || isTerminal(current.state)) return;
    const jobDatums = datums ?? store.datums(job.rowid);
    const meta = await this.writeJobMeta(current, state, reason, jobDatums).catch(
      (error: unknown) => {
        console.error('pps: could not write job metadata', error);
        return null;
      },
    );
    if (isTerminal(store.jobByRowid(job.rowid)?.state ?? 'JOB_KILLED')) return;
    const output = current.output_commit_rowid
      ? pfs.commitByRowid(current.output_commit_rowid)
      : undefined;
    const finishJob = () => {
      store.updateJob(job.rowid, { state, reason, finished_at: Date.now() });
      store.setLastJobState(job.project, job.pipeline, state);
      if (meta) this.landJobMeta(current, output, meta);
    };
    if (output && isOpen(output)) {
      let files: OutputFile[] = [];
      if (state === 'JOB_SUCCESS') {
        const byPath = new Map<string, OutputFile>();
        for (const datum of jobDatums) {
          if (datum.state !== 'SUCCESS' && datum.state !== 'SKIPPED') continue;
          for (const file of JSON.parse(datum.output ?? '[]') as OutputFile[])
            byPath.set(file.path, file);
        }
        files = [...byPath.values()];
      }
      try {
        pfs.finishCommitWithFiles(
          output,
          files,
          state === 'JOB_SUCCESS' ? '' : reason || state,
          finishJob,
        );
      } catch (error) {
        const message = `could not write the output commit: ${(error as Error).message}`;
        pfs.finishCommitWithFiles(output, [], message, () => {
          store.updateJob(job.rowid, {
            state: 'JOB_FAILURE',
            reason: message,
            finished_at: Date.now(),
          });
          store.setLastJobState(job.project, job.pipeline, 'JOB_FAILURE');
        });
      }
    } else {
      pfs.transaction(finishJob);
    }
    const ended = store.jobByRowid(job.rowid) as JobRow;
    this.systemLog(ended, '', `job ${ended.state}${ended.reason ? `: ${ended.reason}` : ''}`, true);
    this.emitJob(ended);
    this.launcher.forget(this.jobDir(job));
    await rm(this.jobDir(job), { recursive: true, force: true }).catch(() => undefined);
  }

  /** The job's metadata (the job, then every datum with its inputs and outputs) as a blob. */
  private async writeJobMeta(
    job: JobRow,
    state: JobState,
    reason: string,
    rows: DatumRow[],
  ): Promise<NewFile> {
    const datums = rows.map((datum) => ({
      id: datum.id,
      state: datum.state,
      reason: datum.reason,
      inputs: (JSON.parse(datum.data) as DatumFile[]).map((f) => ({
        input: f.input,
        path: f.path,
        hash: f.hash,
        sizeBytes: f.sizeBytes,
      })),
      outputs: JSON.parse(datum.output ?? '[]') as OutputFile[],
      stats: JSON.parse(datum.stats || '{}') as unknown,
    }));
    const document = {
      job: {
        project: job.project,
        pipeline: job.pipeline,
        id: job.id,
        pipelineVersion: job.pipeline_version,
        state,
        reason,
        restart: job.restart,
        created: new Date(job.created_at).toISOString(),
        started: job.started_at === null ? null : new Date(job.started_at).toISOString(),
        finished: new Date().toISOString(),
        stats: JSON.parse(job.stats || '{}') as unknown,
      },
      datums,
    };
    const blob = await this.o.blobs.writeBytes(
      Buffer.from(JSON.stringify(document, null, 1) + '\n'),
    );
    return { path: '/job.json', hash: blob.hash, sizeBytes: blob.sizeBytes };
  }

  /** The job's commit in the pipeline's meta repo: same ID, same provenance as its output. */
  private landJobMeta(job: JobRow, output: CommitRow | undefined, file: NewFile): void {
    const { pfs } = this.o;
    const repo = pfs.findRepo({ project: job.project, name: job.pipeline, type: 'meta' });
    if (!repo || pfs.findCommit(repo, job.id)) return;
    const commit = pfs.startCommit(repo, 'master', null, `job ${job.id}`, 'AUTO', job.id);
    if (output) pfs.addProvenance(commit, pfs.directProvenance(output));
    pfs.finishCommitWithFiles(commit, [file], '');
  }

  // ---- control --------------------------------------------------------------------------

  private stop(running: RunningJob, state: JobState, reason: string): void {
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
    await this.endJob(job, state, reason);
  }

  /** Stops every job of a pipeline (before deleting it). */
  async stopPipelineJobs(project: string, pipeline: string, reason: string): Promise<void> {
    for (const job of this.o.store.activeJobs()) {
      if (job.project === project && job.pipeline === pipeline) await this.stopJob(job, reason);
    }
  }

  // ---- cron -----------------------------------------------------------------------------

  scheduleCrons(state: PipelineStateRow): void {
    this.clearCrons(state.project, state.name);
    if (state.stopped || this.closed) return;
    let spec: PipelineSpec;
    try {
      spec = this.spec(state.project, state.name);
    } catch {
      return;
    }
    for (const leaf of inputLeaves(spec.input)) {
      if (leaf.kind !== 'cron') continue;
      const schedule = parseCron(leaf.spec);
      const key = `${state.project}/${state.name}/${leaf.name}`;
      const arm = () => {
        const delay = Math.max(0, schedule.next(Date.now()) - Date.now());
        const timer = setTimeout(
          () => {
            if (this.closed) return;
            void this.tick(leaf).catch((error: unknown) =>
              console.error('pps: cron tick failed', error),
            );
            arm();
          },
          Math.min(delay, 2 ** 31 - 1),
        );
        timer.unref();
        this.cronTimers.set(key, timer);
      };
      arm();
    }
  }

  clearCrons(project: string, name: string): void {
    for (const [key, timer] of this.cronTimers) {
      if (key.startsWith(`${project}/${name}/`)) {
        clearTimeout(timer);
        this.cronTimers.delete(key);
      }
    }
  }

  /** A cron tick: a commit with a file named by the time (all earlier ones removed if overwrite). */
  async tick(leaf: CronInputSpec): Promise<void> {
    const repo = this.o.pfs.getRepo({ project: leaf.project, name: leaf.repo, type: 'user' });
    const time = new Date().toISOString();
    const blob = await this.o.blobs.writeBytes(Buffer.from(''));
    this.o.pfs.landCommit(
      repo,
      'master',
      `cron tick ${time}`,
      [{ path: `/${time}`, hash: blob.hash, sizeBytes: 0 }],
      leaf.overwrite ? ['/'] : [],
    );
  }

  async runCron(project: string, name: string): Promise<void> {
    const spec = this.spec(project, name);
    const crons = inputLeaves(spec.input).filter(
      (leaf): leaf is CronInputSpec => leaf.kind === 'cron',
    );
    if (crons.length === 0) throw failedPrecondition(`pipeline ${name} has no cron input`);
    for (const leaf of crons) await this.tick(leaf);
  }

  // ---- logs -----------------------------------------------------------------------------

  private log(job: JobRow, datumId: string, message: string, user: boolean, master = false): void {
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

  private systemLog(job: JobRow, datumId: string, message: string, master = false): void {
    this.log(job, datumId, message, false, master);
  }
}
