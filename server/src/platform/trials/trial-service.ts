import { failedPrecondition, notFound } from '../../errors.ts';
import type { CommitEvents } from '../pfs/commit-events.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import { newCommitId } from '../pfs/pfs-store.ts';
import type { CommitRow, RepoRow } from '../pfs/rows.ts';
import type { Pps } from '../pps/index.ts';
import { isTerminal, type JobRow } from '../pps/pps-store.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import {
  boltCommitOf,
  defaultPlan,
  type BoltCommitPlanner,
  type PlannedTrial,
} from './bolt-commits.ts';
import { boltRunTrial } from './bolt-runs.ts';
import { checkFlowName, Flows, readBlob, type Flow } from './flows.ts';
import {
  caseBranches,
  carriesDesign,
  copyTree,
  designCommitOf,
  designFolder,
} from './trial-design.ts';
import type { TrialQuery } from './trial-query.ts';
import { parseStages, TrialStages, type TrialStage } from './trial-stages.ts';
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
  /**
   * The design the trial runs, for a flow that carries it in the params commit: the files of
   * `commit` under `from`. Default: the case's RTL snapshot (trial-design.ts).
   */
  design?: { commit: CommitRow; from: string };
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
  /** The trials of bolt commits, being started or started (by commit: bolt-commits.ts). */
  private readonly boltTrials = new Map<string, Promise<Trial[]>>();
  private readonly onJob = (job: JobRow) => this.jobChanged(job);
  private readonly stopCommits: () => void;
  private readonly stages: TrialStages;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Which cases a bolt commit affects (the EDA flow's sets it); null: every case. */
  planner: BoltCommitPlanner | null = null;

  constructor(
    private readonly pfs: PfsStore,
    private readonly pps: Pps,
    private readonly blobs: BlobStore,
    store: TrialStore,
    private readonly pollMs = 5000,
    events?: CommitEvents,
  ) {
    this.store = store;
    this.flows = new Flows(pfs, pps, blobs);
    this.stages = new TrialStages(pfs, blobs, pps.logs);
    pps.runner.jobEvents.on('job', this.onJob);
    this.stopCommits = events?.onFinished((commit) => this.commitFinished(commit)) ?? (() => {});
    this.schedulePoll();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pps.runner.jobEvents.off('job', this.onJob);
    this.stopCommits();
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.boltTrials.values()]);
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
    // The design it runs, for a flow that carries it in the params commit (trial-design.ts).
    const design = carriesDesign(flow)
      ? (input.design ??
        (() => {
          const found = designCommitOf(this.pfs, flow, input.caseName);
          return found ? { commit: found.commit, from: '/' } : undefined;
        })())
      : undefined;
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
            ...(design
              ? {
                  design: {
                    repo: this.pfs.repoById(design.commit.repo_id)?.name ?? '',
                    commit: design.commit.id,
                    path: design.from,
                  },
                }
              : {}),
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
      // (The commit starts with its parent's files: the previous trial's design goes first.)
      if (carriesDesign(flow)) this.pfs.deleteFile(commit, designFolder);
      if (design) copyTree(this.pfs, commit, design.commit, design.from, designFolder);
      this.pfs.finishCommit(commit, '', '');
    });
    await this.refresh(id);
    return this.inspect(id);
  }

  async rerun(id: string): Promise<Trial> {
    const original = this.inspect(id);
    // The same design as the original run (its params commit holds it), not the case's latest.
    const params = this.pfs.findRepo({
      project: original.project,
      name: this.flows.find(original.project, original.flow).paramsRepo,
      type: 'user',
    });
    const ran =
      params && original.job_set_id ? this.pfs.findCommit(params, original.job_set_id) : undefined;
    const design =
      ran && this.pfs.findFile(ran, designFolder)?.type === 'DIR'
        ? { commit: ran, from: designFolder }
        : undefined;
    return this.create({
      project: original.project,
      flow: original.flow,
      caseName: original.case_name,
      parameters: original.parameters,
      labels: original.labels,
      description: original.description,
      author: original.author,
      rerunOf: original.id,
      design,
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

  // ---- bolt commits ---------------------------------------------------------------------

  /** A commit that finished: one to the master branch of a flow's bolt starts its trials. */
  private commitFinished(commit: CommitRow): void {
    if (this.closed || commit.origin === 'AUTO' || commit.branch_name !== 'master') return;
    try {
      const repo = this.pfs.repoById(commit.repo_id);
      if (!repo || repo.type !== 'user') return;
      if (!this.flows.flowsOfBolt(repo.project, repo.name).some(carriesDesign)) return;
      void this.trialsOfBoltCommit(repo.project, repo.name, commit.id).catch((error: unknown) =>
        console.error('trials: could not start the trials of a bolt commit', error),
      );
    } catch (error) {
      console.error('trials: could not look at a commit', error);
    }
  }

  /**
   * The trials a commit to a bolt started: one per case it affects, per flow that carries its
   * design (bolt-commits.ts). The first call starts them; later calls (the upload's answer)
   * wait for the same ones. Empty when no flow reads the bolt.
   */
  trialsOfBoltCommit(project: string, repoName: string, commitId: string): Promise<Trial[]> {
    const key = `${project}/${repoName}@${commitId}`;
    let started = this.boltTrials.get(key);
    if (!started) {
      started = this.startBoltTrials(project, repoName, commitId);
      this.boltTrials.set(key, started);
      // Remembered a while (the upload's answer asks right after), then found in the store.
      const forget = () => setTimeout(() => this.boltTrials.delete(key), 60_000).unref();
      started.then(forget, forget);
    }
    return started;
  }

  private async startBoltTrials(
    project: string,
    repoName: string,
    commitId: string,
  ): Promise<Trial[]> {
    const bolt = this.pfs.findRepo({ project, name: repoName, type: 'user' });
    const commit = bolt && this.pfs.findCommit(bolt, commitId);
    if (!bolt || !commit) return [];
    const started: Trial[] = [];
    for (const flow of this.flows.flowsOfBolt(project, repoName).filter(carriesDesign)) {
      const existing = this.store.list({
        project,
        flow: flow.name,
        caseName: '',
        filters: [
          { field: 'label.commit', operator: 'EQ', value: commit.id },
          { field: 'label.trigger', operator: 'EQ', value: 'bolt' },
        ],
        includeDeleted: true,
        orderBy: [],
        pageSize: 0,
        pageIndex: 0,
        marker: '',
      });
      if (existing.length > 0) {
        started.push(...this.store.hydrate(existing));
        continue;
      }
      const context = boltCommitOf(this.pfs, this.blobs, flow, bolt, commit, {
        defaults: await this.flows.defaults(flow),
        lastParameters: (caseName) => this.lastParameters(project, flow.name, caseName),
      });
      const plan = (this.planner ? await this.planner(context) : null) ?? defaultPlan(context);
      for (const planned of plan) {
        if (this.closed) break;
        this.placeCase(bolt, commit, flow, planned);
        started.push(
          await this.create({
            project,
            flow: flow.name,
            caseName: planned.caseName,
            parameters: planned.parameters,
            labels: { trigger: 'bolt', bolt: bolt.name, commit: commit.id },
            description: `${bolt.name} changed: ${commit.description || `commit ${commit.id}`}`,
            author: commit.created_by,
            design: { commit, from: '/' },
          }),
        );
      }
    }
    return started;
  }

  /** The case's branch at the commit: created for a new design, moved for an affected case. */
  private placeCase(bolt: RepoRow, commit: CommitRow, flow: Flow, planned: PlannedTrial): void {
    if (!planned.caseName) return;
    const existing = caseBranches(this.pfs, bolt).find((c) => c.name === planned.caseName);
    if (existing) {
      this.pfs.createBranch(bolt, existing.branch.name, commit, provenanceOf(existing.branch));
      return;
    }
    if (!planned.newCase) return;
    this.pfs.transaction(() => {
      this.pfs.createBranch(bolt, planned.caseName, commit, []);
      this.pfs.setBranchMetadata(this.pfs.getBranch(bolt, planned.caseName), {
        case: planned.caseName,
        flow: flow.name,
        description: planned.newCase?.description ?? '',
        ...planned.newCase?.metadata,
      });
    });
  }

  /** The parameters of the newest trial of a flow (of one case, when given). */
  private lastParameters(
    project: string,
    flow: string,
    caseName: string | null,
  ): Record<string, string> | null {
    const [last] = this.store.list({
      project,
      flow,
      caseName: caseName ?? '',
      filters: caseName === '' ? [{ field: 'case', operator: 'EQ', value: '' }] : [],
      includeDeleted: false,
      orderBy: [{ field: 'created', desc: true }],
      pageSize: 1,
      pageIndex: 0,
      marker: '',
    });
    return last ? (this.store.hydrate([last])[0]?.parameters ?? null) : null;
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
    const described = await this.stages.describe(stages, jobs, parseStages(trial.stages));
    const startedAt = min(flowJobs.map(({ job }) => job.started_at));
    // The stage that failed (its own tool), else one that could not run or was killed.
    const failed =
      described.find((stage) => stage.state === 'FAILED') ??
      described.find((stage) => stage.state === 'UNRUNNABLE' || stage.state === 'KILLED');
    const anyActive = flowJobs.some(({ job }) => !isTerminal(job.state));
    const allDone =
      flowJobs.length === stages.length && flowJobs.every(({ job }) => job.state === 'JOB_SUCCESS');
    // A failed run ends once nothing of it is still running (the stages after the failure end
    // unrunnable as soon as it fails).
    if ((failed && !anyActive) || allDone) {
      const finishedAt = max(flowJobs.map(({ job }) => job.finished_at)) ?? Date.now();
      const { metrics, problems } = await this.readMetrics(flowJobs.map(({ job }) => job));
      const nothingRan = flowJobs.every(
        ({ job }) => job.data_processed === 0 && job.data_recovered === 0 && job.data_failed === 0,
      );
      const final = described.map((stage): TrialStage =>
        stage.state === 'PENDING' || stage.state === 'RUNNING'
          ? { ...stage, state: 'UNRUNNABLE', reason: 'not reached: an earlier stage failed' }
          : stage,
      );
      const notRun = final
        .filter((stage) => stage.state === 'NOT_RUN')
        .map((stage) => `${stage.name} not run: ${stage.reason}`);
      let state: TrialState = 'STARTED';
      let reason = [...notRun, ...problems].join('; ');
      if (failed) {
        state = 'UNRUNNABLE';
        const why =
          failed.state === 'FAILED'
            ? `stage ${failed.name} failed: ${failed.reason || failed.jobState}`
            : `stage ${failed.name} (${failed.pipeline}): ${failed.reason || failed.jobState}`;
        reason = [why, ...problems].join('; ');
      } else if (nothingRan) state = 'SKIPPED';
      const failedJob = failed ? jobs.get(failed.pipeline) : undefined;
      this.store.transaction(() => {
        this.store.setMetrics(id, metrics);
        this.store.update(id, {
          state,
          job_state: failedJob ? failedJob.state : 'JOB_SUCCESS',
          reason,
          stages: JSON.stringify(final),
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
      stages: JSON.stringify(described),
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

function provenanceOf(branch: { provenance: string }): string[] {
  try {
    const parsed: unknown = JSON.parse(branch.provenance || '[]');
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
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
