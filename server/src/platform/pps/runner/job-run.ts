import { stat } from 'node:fs/promises';
import path from 'node:path';
import { isOpen } from '../../pfs/rows.ts';
import type { DatumLauncher } from './datum-launch.ts';
import { planDatums, type InputCommits } from '../datums.ts';
import type { JobOutputs } from './job-output.ts';
import type { DatumRow, JobRow, OutputFile } from '../pps-store.ts';
import type { RunnerContext, RunningJob } from './runner-context.ts';
import { sandboxAvailability } from './sandbox.ts';
import { inputLeaves } from '../spec.ts';
import { slotDirs, stageDir } from './worker.ts';

/**
 * Running one job: its output commit, its datums (planned once, reused outputs skipped), handed
 * to worker slots that run them one after another; then its outputs are stored and it ends.
 */
export class JobRunner {
  /** Prepares the work folder once (with the first job). */
  private workReady: Promise<void> | null = null;
  /** Whether it has. */
  private workIsReady = false;

  constructor(
    private readonly c: RunnerContext,
    private readonly datums: DatumLauncher,
    private readonly outputs: JobOutputs,
  ) {}

  /** Why the job's pipeline may not run it now (roles on), or null. */
  private authorityDenies(job: JobRow, inputs: InputCommits): string | null {
    if (!this.c.authority) return null;
    const { pfs, store } = this.c.o;
    const specRepo = pfs.findRepo({ project: job.project, name: job.pipeline, type: 'spec' });
    const version = store.version(job.project, job.pipeline, job.pipeline_version);
    const specCommit = specRepo ? pfs.findCommit(specRepo, version.spec_commit_id) : undefined;
    const spec = this.c.spec(job.project, job.pipeline, job.pipeline_version);
    // Cron inputs are written by the platform's ticks: the creator must (still) write them.
    const cronInputs = new Set(
      inputLeaves(spec.input)
        .filter((leaf) => leaf.kind === 'cron')
        .map((leaf) => leaf.name),
    );
    const inputRepos: { project: string; repo: string }[] = [];
    const cronRepos: { project: string; repo: string }[] = [];
    for (const [name, commit] of inputs) {
      const repo = pfs.repoById(commit.repo_id);
      if (repo)
        (cronInputs.has(name) ? cronRepos : inputRepos).push({
          project: repo.project,
          repo: repo.name,
        });
    }
    return this.c.authority({
      project: job.project,
      pipeline: job.pipeline,
      creator: specCommit?.created_by ?? '',
      inputs: inputRepos,
      writes: cronRepos,
      secrets: spec.transform.secrets.map((secret) => secret.name),
    });
  }

  /**
   * Runs a job to its end (or until it is stopped: a job stopped by the server's shutdown is
   * left to resume on the next start). `inputs`: the commits it reads, or why it cannot run.
   */
  async run(running: RunningJob, inputs: InputCommits | Error): Promise<void> {
    const { store, pfs } = this.c.o;
    let job = running.job;
    if (inputs instanceof Error) return this.outputs.endJob(job, 'JOB_FAILURE', inputs.message);
    const sandbox = sandboxAvailability();
    if (!sandbox.available && this.c.signIn)
      return this.outputs.endJob(
        job,
        'JOB_FAILURE',
        `${sandbox.reason}: with sign-in on, pipeline code only runs in a sandbox (install bubblewrap)`,
      );
    // (Starts the launcher on the first job, while the job is planned.)
    const workReady = (this.workReady ??= this.outputs.spreadJobFolders().finally(() => {
      this.workIsReady = true;
    }));
    const spec = this.c.spec(job.project, job.pipeline, job.pipeline_version);
    const inputRefs = [...inputs].map(([name, commit]) => ({ name, commitRowid: commit.rowid }));
    const now = Date.now();
    this.c.update(job, {
      state: 'JOB_STARTING',
      started_at: job.started_at ?? now,
      input_commits: JSON.stringify(inputRefs),
    });
    this.c.systemLog(
      job,
      '',
      `started job ${job.id} (pipeline version ${job.pipeline_version})`,
      true,
    );
    if (!sandbox.available)
      this.c.systemLog(
        job,
        '',
        `warning: ${sandbox.reason}; this job's code runs unsandboxed, as the server's user`,
        true,
      );

    // It runs as its creator's permissions: checked again now (a binding may have been
    // revoked since it was created). Refused, it writes nothing, not even its output commit.
    const denied = this.authorityDenies(job, inputs);
    if (denied) return this.outputs.endJob(job, 'JOB_FAILURE', denied);

    // The output commit: open on the output branch, same global ID, provenance = the inputs.
    const outRepo = pfs.findRepo({ project: job.project, name: job.pipeline, type: 'user' });
    if (!outRepo)
      return this.outputs.endJob(job, 'JOB_FAILURE', `output repo ${job.pipeline} not found`);
    let output = job.output_commit_rowid ? pfs.commitByRowid(job.output_commit_rowid) : undefined;
    if (!output) {
      const existing = pfs.findCommit(outRepo, job.id);
      if (existing)
        return this.outputs.endJob(
          job,
          'JOB_FAILURE',
          `output repo already has a commit ${job.id}`,
        );
      const branch = pfs.findBranch(outRepo, spec.outputBranch);
      const head = branch?.head_rowid ? pfs.commitByRowid(branch.head_rowid) : undefined;
      if (head && isOpen(head)) pfs.finishCommit(head, '', 'superseded by a newer job');
      output = pfs.startCommit(outRepo, spec.outputBranch, null, '', 'AUTO', job.id);
      pfs.addProvenance(output, [...inputs.values()]);
      this.c.update(job, { output_commit_rowid: output.rowid });
      job = running.job;
    }
    // An input commit that carries an error (the job that wrote it failed) makes this job
    // unrunnable, as pachd does; its output commit ends with that reason, so the jobs after it
    // are unrunnable too.
    const failedInputs = [...inputs].filter(([, commit]) => commit.error).map(([name]) => name);
    if (failedInputs.length > 0)
      return this.outputs.endJob(
        job,
        'JOB_UNRUNNABLE',
        `unrunnable because the following upstream pipelines failed: ${failedInputs.join(', ')}`,
      );

    const jobTimer =
      spec.jobTimeoutMs > 0
        ? setTimeout(
            () =>
              this.c.stop(
                running,
                'JOB_FAILURE',
                `job timed out after ${spec.jobTimeoutMs / 1000}s`,
              ),
            spec.jobTimeoutMs,
          )
        : undefined;
    try {
      const jobDir = this.c.jobDir(job);
      const run = this.datums.newJobRun(running, spec, jobDir, output, sandbox.available);
      // `slots` datums are on their way at once: prepared (inputs copied), queued at the
      // launcher, running, or having their outputs hashed; the launcher runs `parallelism` of
      // them at a time. So preparing and finishing datums overlaps with running the others,
      // and the launcher can report several exits at once while the next datums run.
      // Each worker reuses one slot folder for its datums.
      const slots = run.parallelism * 2 + 6;
      // One query first: a new salt (or a first job) has nothing to reuse, so its datums are
      // not looked up one by one.
      const mayReuse = store.hasReusableOutputs(job.project, job.pipeline, job.salt, job.rowid);
      // Datums: planned once (kept across restarts); earlier outputs are reused (SKIPPED).
      let datums = store.datums(job.rowid);
      if (datums.length === 0) {
        const planned = planDatums(pfs, spec.input, inputs);
        // With nothing to reuse, every planned datum runs: the slots' sandboxes start now,
        // while the datums are stored, rather than between the first datums. (Not before the
        // work folder is ready: see spreadJobFolders.)
        if (!mayReuse && this.workIsReady)
          this.datums.warmSlots(run, Math.min(slots, planned.length));
        store.insertDatums(job.rowid, planned);
        datums = store.datums(job.rowid);
      }
      const pending: DatumRow[] = [];
      store.transaction(() => {
        for (const datum of datums) {
          if (datum.state === 'SUCCESS' || datum.state === 'SKIPPED' || datum.state === 'RECOVERED')
            continue;
          if (datum.state === 'FAILED') continue;
          if (!mayReuse) {
            pending.push(datum);
            continue;
          }
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
              (await this.c.o.blobs.has(f.hash)) ||
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
      this.c.update(job, { state: 'JOB_RUNNING', data_total: datums.length });
      this.datums.countDatums(run);
      this.datums.flushDatums(run);
      await workReady;

      let next = 0;
      const workers = Array.from({ length: Math.min(slots, pending.length) }, async (_, k) => {
        const dirs = slotDirs(jobDir, k);
        while (next < pending.length && !running.controller.signal.aborted) {
          const datum = pending[next++] as DatumRow;
          await this.datums.runDatum(run, datum, dirs);
        }
      });
      try {
        await Promise.all(workers);
      } finally {
        this.datums.flushDatums(run);
      }
    } finally {
      clearTimeout(jobTimer);
    }

    if (running.controller.signal.aborted) {
      if (!running.stopReason) return; // server shutting down: resume on the next start
      return this.outputs.endJob(job, running.stopReason.state, running.stopReason.reason);
    }

    this.c.update(job, { state: 'JOB_FINISHING' });
    const finalDatums = store.datums(job.rowid);
    const failed = finalDatums.find((d) => d.state === 'FAILED');
    const state = failed ? 'JOB_FAILURE' : 'JOB_SUCCESS';
    const reason = failed ? `datum ${failed.id} failed: ${failed.reason}` : '';
    // The job's metadata blob is written while its outputs are stored (both wait on the disk).
    const current = store.jobByRowid(job.rowid) ?? job;
    const meta = this.outputs.writeJobMeta(current, state, reason, finalDatums);
    meta.catch(() => undefined);
    await this.outputs.storeOutputs(job, finalDatums);
    return this.outputs.endJob(job, state, reason, finalDatums, meta);
  }
}
