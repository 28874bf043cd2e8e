import { failedPrecondition, notFound } from '../../errors.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import { newCommitId } from '../pfs/pfs-store.ts';
import type { Pps } from '../pps/index.ts';
import type { JobRow } from '../pps/pps-store.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { boltRunTrial } from './bolt-runs.ts';
import { checkFlowName, Flows, readBlob, type Flow } from './flows.ts';
import type { TrialQuery } from './trial-query.ts';
import {
  newTrialId,
  TrialStore,
  type Metric,
  type MetricPoint,
  type Trial,
  type TrialRow,
  type TrialState,
} from './trial-store.ts';

/** The file a stage writes into its output for the trial's metrics. */
export const metricsPath = '/metrics.json';

const failedJobStates = ['JOB_FAILURE', 'JOB_KILLED', 'JOB_UNRUNNABLE'];
const runningJobStates = ['JOB_STARTING', 'JOB_RUNNING', 'JOB_FINISHING', 'JOB_EGRESSING'];

export interface CreateTrialInput {
  project: string;
  flow: string;
  caseName: string;
  parameters: Record<string, string>;
  labels: Record<string, string>;
  description: string;
  author: string;
  rerunOf?: string;
}

/**
 * Trials: creating one commits its parameters to the flow's params repo (the commit's global ID
 * is the trial's job set); job events of that ID (and a slow poll) move its state and, when the
 * run ends, read every stage's /metrics.json.
 */
export class TrialService {
  readonly store: TrialStore;
  readonly flows: Flows;
  private readonly refreshing = new Map<string, Promise<void>>();
  private readonly dirty = new Set<string>();
  /** Job sets being looked at as runs started by a bolt commit (see bolt-runs.ts). */
  private readonly adopting = new Set<string>();
  private readonly onJob = (job: JobRow) => this.jobChanged(job);
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly pfs: PfsStore,
    private readonly pps: Pps,
    private readonly blobs: BlobStore,
    store: TrialStore,
    private readonly pollMs = 5000,
  ) {
    this.store = store;
    this.flows = new Flows(pfs, pps, blobs);
    pps.runner.jobEvents.on('job', this.onJob);
    this.schedulePoll();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pps.runner.jobEvents.off('job', this.onJob);
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([...this.refreshing.values()]);
  }

  // ---- reading --------------------------------------------------------------------------

  get(id: string): TrialRow {
    const row = id ? this.store.get(id) : undefined;
    if (!row) throw notFound(`trial ${JSON.stringify(id)} not found`);
    return row;
  }

  inspect(id: string): Trial {
    return this.store.hydrate([this.get(id)])[0] as Trial;
  }

  list(query: TrialQuery): Trial[] {
    return this.store.hydrate(this.store.list(query));
  }

  count(query: TrialQuery): number {
    return this.store.count(query);
  }

  // ---- changing -------------------------------------------------------------------------

  async create(input: CreateTrialInput): Promise<Trial> {
    checkFlowName(input.flow);
    this.pfs.getProject(input.project);
    const flow = this.flows.find(input.project, input.flow);
    const parameters =
      flow.stages.length > 0
        ? { ...(await this.flows.defaults(flow)), ...input.parameters }
        : { ...input.parameters };
    const createdAt = Date.now();
    const id = newTrialId(createdAt);
    const base = {
      id,
      project: input.project,
      flow: input.flow,
      caseName: input.caseName,
      author: input.author,
      description: input.description,
      rerunOf: input.rerunOf ?? '',
      createdAt,
      parameters,
      labels: input.labels,
    };
    if (flow.stages.length === 0) {
      this.store.insert({
        ...base,
        state: 'UNRUNNABLE',
        reason: `flow ${input.flow} has no pipelines in project ${input.project} (label flow=${input.flow})`,
        jobSetId: '',
      });
      this.store.update(id, { finished_at: createdAt });
      return this.inspect(id);
    }
    // The flow's first stage reads /params.json (the parameters) and /trial.json (who asks).
    const paramsBlob = await this.blobs.writeBytes(
      Buffer.from(JSON.stringify(sortKeys(parameters), null, 2) + '\n'),
    );
    const trialBlob = await this.blobs.writeBytes(
      Buffer.from(
        JSON.stringify(
          {
            id,
            project: input.project,
            flow: input.flow,
            case: input.caseName,
            author: input.author,
            rerunOf: input.rerunOf ?? '',
            labels: sortKeys(input.labels),
          },
          null,
          2,
        ) + '\n',
      ),
    );
    const jobSetId = newCommitId();
    // One transaction: the trial row exists before the commit's jobs announce themselves.
    this.pfs.transaction(() => {
      this.store.insert({ ...base, state: 'PENDING', jobSetId });
      const ref = { project: input.project, name: flow.paramsRepo, type: 'user' as const };
      const repo =
        this.pfs.findRepo(ref) ??
        this.pfs.createRepo(ref, `Parameters of the trials of flow ${input.flow}`, false);
      const commit = this.pfs.startCommit(
        repo,
        'master',
        null,
        `trial ${id}${input.rerunOf ? ` (rerun of ${input.rerunOf})` : ''}`,
        'USER',
        jobSetId,
      );
      this.pfs.putFile(commit, {
        path: '/params.json',
        hash: paramsBlob.hash,
        sizeBytes: paramsBlob.sizeBytes,
      });
      this.pfs.putFile(commit, {
        path: '/trial.json',
        hash: trialBlob.hash,
        sizeBytes: trialBlob.sizeBytes,
      });
      this.pfs.finishCommit(commit, '', '');
    });
    await this.refresh(id);
    return this.inspect(id);
  }

  async rerun(id: string): Promise<Trial> {
    const original = this.inspect(id);
    return this.create({
      project: original.project,
      flow: original.flow,
      caseName: original.case_name,
      parameters: original.parameters,
      labels: original.labels,
      description: original.description,
      author: original.author,
      rerunOf: original.id,
    });
  }

  update(id: string, changes: { description?: string; labels?: Record<string, string> }): Trial {
    const row = this.get(id);
    if (row.state === 'DELETED') throw failedPrecondition(`trial ${id} is deleted`);
    this.store.transaction(() => {
      if (changes.description !== undefined)
        this.store.update(id, { description: changes.description });
      if (changes.labels !== undefined) this.store.setLabels(id, changes.labels);
    });
    return this.inspect(id);
  }

  delete(id: string): void {
    const row = this.get(id);
    if (row.state === 'DELETED') return;
    this.store.update(id, { state: 'DELETED', deleted_at: Date.now() });
  }

  // ---- following the run ----------------------------------------------------------------

  private jobChanged(job: JobRow): void {
    if (this.closed) return;
    try {
      const trials = this.store.byJobSet(job.id);
      if (trials.length === 0 && job.state === 'JOB_CREATED') void this.adoptBoltRun(job);
      for (const trial of trials) void this.refresh(trial.id);
    } catch (error) {
      console.error('trials: could not follow a job', error);
    }
  }

  /** Records a run started by a commit to a flow's bolt as a trial (once per job set). */
  private async adoptBoltRun(job: JobRow): Promise<void> {
    if (this.adopting.has(job.id)) return;
    this.adopting.add(job.id);
    try {
      const trial = await boltRunTrial(this.pfs, this.blobs, this.flows, job);
      if (!trial || this.closed || this.store.byJobSet(job.id).length > 0) return;
      const row = this.store.insert(trial);
      await this.refresh(row.id);
    } catch (error) {
      console.error('trials: could not record a bolt run', error);
    } finally {
      this.adopting.delete(job.id);
    }
  }

  private schedulePoll(): void {
    if (this.closed || this.pollMs <= 0) return;
    this.timer = setTimeout(() => {
      try {
        for (const trial of this.store.active(200)) void this.refresh(trial.id);
      } catch (error) {
        console.error('trials: poll failed', error);
      }
      this.schedulePoll();
    }, this.pollMs);
    this.timer.unref();
  }

  /** Recomputes a trial's state from its jobs (serialised per trial; coalesces bursts). */
  refresh(id: string): Promise<void> {
    const running = this.refreshing.get(id);
    if (running) {
      this.dirty.add(id);
      return running;
    }
    const work = (async () => {
      do {
        this.dirty.delete(id);
        await this.refreshOnce(id);
      } while (this.dirty.has(id) && !this.closed);
    })()
      .catch((error) => console.error(`trials: could not refresh trial ${id}`, error))
      .finally(() => this.refreshing.delete(id));
    this.refreshing.set(id, work);
    return work;
  }

  private async refreshOnce(id: string): Promise<void> {
    const trial = this.store.get(id);
    if (!trial || trial.state === 'DELETED' || trial.finished_at !== null || this.closed) return;
    const flow = this.flows.find(trial.project, trial.flow);
    const stages = this.flows.runStages(flow);
    if (stages.length === 0) {
      const reason =
        flow.stages.length === 0
          ? `flow ${trial.flow} has no pipelines in project ${trial.project}`
          : `no stage of flow ${trial.flow} reads the repo ${flow.paramsRepo}`;
      this.store.update(id, {
        state: flow.stages.length === 0 ? 'UNRUNNABLE' : 'SKIPPED',
        reason,
        finished_at: Date.now(),
      });
      return;
    }
    const jobs = new Map(
      this.pps.store
        .jobsWithId(trial.job_set_id)
        .filter((job) => job.project === trial.project)
        .map((job) => [job.pipeline, job]),
    );
    const flowJobs = stages.flatMap((stage) => {
      const job = jobs.get(stage.pipeline);
      return job ? [{ stage, job }] : [];
    });
    const startedAt = min(flowJobs.map(({ job }) => job.started_at));
    const failed = flowJobs.find(({ job }) => failedJobStates.includes(job.state));
    const allDone =
      flowJobs.length === stages.length && flowJobs.every(({ job }) => job.state === 'JOB_SUCCESS');
    if (failed || allDone) {
      const finishedAt = max(flowJobs.map(({ job }) => job.finished_at)) ?? Date.now();
      const { metrics, problems } = await this.readMetrics(flowJobs.map(({ job }) => job));
      const nothingRan = flowJobs.every(
        ({ job }) => job.data_processed === 0 && job.data_recovered === 0 && job.data_failed === 0,
      );
      let state: TrialState = 'STARTED';
      let reason = problems.join('; ');
      if (failed) {
        state = 'UNRUNNABLE';
        reason = [
          `stage ${failed.stage.name} (${failed.job.pipeline}): ${failed.job.reason || failed.job.state}`,
          reason,
        ]
          .filter(Boolean)
          .join('; ');
      } else if (nothingRan) state = 'SKIPPED';
      this.store.transaction(() => {
        this.store.setMetrics(id, metrics);
        this.store.update(id, {
          state,
          job_state: failed ? failed.job.state : 'JOB_SUCCESS',
          reason,
          started_at: startedAt ?? trial.started_at ?? finishedAt,
          finished_at: finishedAt,
        });
      });
      return;
    }
    const active = flowJobs.find(({ job }) => job.state !== 'JOB_SUCCESS');
    const anyStarted = flowJobs.some(
      ({ job }) => runningJobStates.includes(job.state) || job.state === 'JOB_SUCCESS',
    );
    this.store.update(id, {
      state: anyStarted ? 'STARTED' : 'PENDING',
      job_state: active?.job.state ?? (flowJobs.length ? 'JOB_RUNNING' : ''),
      started_at: startedAt,
    });
  }

  /** Every stage's /metrics.json, merged in stage order (a later stage wins per metric). */
  private async readMetrics(jobs: JobRow[]): Promise<{ metrics: Metric[]; problems: string[] }> {
    const merged = new Map<string, Metric>();
    const problems: string[] = [];
    for (const job of jobs) {
      if (job.state !== 'JOB_SUCCESS' || job.output_commit_rowid === null) continue;
      const commit = this.pfs.commitByRowid(job.output_commit_rowid);
      const file = commit && this.pfs.findFile(commit, metricsPath);
      if (!file || file.type !== 'FILE') continue;
      try {
        const parsed = parseMetrics(
          JSON.parse((await readBlob(this.blobs, file.hash)).toString('utf8')),
        );
        for (const metric of parsed.metrics) merged.set(metric.name, metric);
        problems.push(...parsed.problems.map((p) => `${job.pipeline}${metricsPath}: ${p}`));
      } catch (error) {
        problems.push(`${job.pipeline}${metricsPath}: ${(error as Error).message}`);
      }
    }
    return {
      metrics: [...merged.values()].sort((a, b) => (a.name < b.name ? -1 : 1)),
      problems,
    };
  }
}

/**
 * `{"accuracy": 0.93, "loss": [{"step": 1, "value": 0.5}, {"step": 2, "value": 0.3}]}`: a number
 * is a final value; a list (of {step, value} or of numbers, steps 1, 2, …) is a history whose
 * last point is the final value. Anything else is reported and skipped.
 */
export function parseMetrics(json: unknown): { metrics: Metric[]; problems: string[] } {
  const metrics: Metric[] = [];
  const problems: string[] = [];
  if (!json || typeof json !== 'object' || Array.isArray(json))
    return { metrics, problems: ['not a JSON object'] };
  for (const [name, value] of Object.entries(json as Record<string, unknown>)) {
    if (typeof value === 'number' && Number.isFinite(value)) {
      metrics.push({ name, value, step: null, history: [] });
      continue;
    }
    if (Array.isArray(value)) {
      const history: MetricPoint[] = [];
      value.forEach((point, i) => {
        if (typeof point === 'number' && Number.isFinite(point))
          history.push({ step: i + 1, value: point });
        else if (point && typeof point === 'object') {
          const p = point as { step?: unknown; value?: unknown };
          const step = Number(p.step ?? i + 1);
          if (typeof p.value === 'number' && Number.isFinite(p.value) && Number.isSafeInteger(step))
            history.push({ step, value: p.value });
        }
      });
      const last = history[history.length - 1];
      if (last) metrics.push({ name, value: last.value, step: last.step, history });
      else problems.push(`${name}: an empty or invalid history`);
      continue;
    }
    problems.push(`${name}: not a number or a list`);
  }
  return { metrics, problems };
}

function sortKeys(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function min(values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? Math.min(...present) : null;
}

function max(values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? Math.max(...present) : null;
}

export type { Flow };
