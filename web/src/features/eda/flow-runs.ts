import type { Flow, JobSummary } from './api.ts';

/** One run of a flow: the jobs of its stages' pipelines that share a global ID. */
export interface FlowRun {
  globalId: string;
  /** The run as a whole: a failure if a stage failed, success once every job succeeded. */
  state: string;
  created: string | null;
  /** In stage order; stages the run has no job for are left out. */
  jobs: Array<{ stage: string; pipeline: string; job: JobSummary }>;
}

const FAILED = new Set(['JOB_FAILURE', 'JOB_KILLED', 'JOB_UNRUNNABLE']);

function runState(states: readonly string[]): string {
  const failed = states.find((state) => FAILED.has(state));
  if (failed) return failed;
  if (states.length > 0 && states.every((state) => state === 'JOB_SUCCESS')) return 'JOB_SUCCESS';
  return states.find((state) => state !== 'JOB_SUCCESS') ?? 'JOB_CREATED';
}

/** The flow's runs, newest first: its pipelines' jobs grouped by global ID (the job ID). */
export function flowRuns(flow: Flow, jobs: readonly JobSummary[]): FlowRun[] {
  const stageOf = new Map(flow.stages.map((stage, index) => [stage.pipeline, { stage, index }]));
  const runs = new Map<string, FlowRun & { order: number[] }>();
  for (const job of jobs) {
    const stage = stageOf.get(job.job.pipeline.name);
    if (!stage) continue;
    const run = runs.get(job.job.id) ?? {
      globalId: job.job.id,
      state: '',
      created: null,
      jobs: [],
      order: [],
    };
    run.jobs.push({ stage: stage.stage.stage, pipeline: stage.stage.pipeline, job });
    run.order.push(stage.index);
    const created = job.created ?? null;
    if (created && (run.created === null || created < run.created)) run.created = created;
    runs.set(job.job.id, run);
  }
  return [...runs.values()]
    .map(({ order, ...run }) => {
      const jobsInOrder = run.jobs
        .map((entry, i) => ({ entry, index: order[i] ?? 0 }))
        .sort((a, b) => a.index - b.index)
        .map(({ entry }) => entry);
      return {
        ...run,
        jobs: jobsInOrder,
        state: runState(jobsInOrder.map((entry) => entry.job.state ?? '')),
      };
    })
    .sort((a, b) => (b.created ?? '').localeCompare(a.created ?? ''));
}
