import type { JobInfo, PipelineInfo } from '@ivory/api';
import type { PipelinesSummary } from '../projects/api.ts';

/** What the lineage learns from one cheap probe: the newest jobs and the pipelines' counts. */
export interface ChangeProbe {
  /** PipelinesSummary of the project, as text (a change means pipelines came, went, paused…). */
  summary: string;
  /** The project's newest jobs, newest first (ListJob `number`). */
  jobs: readonly JobInfo[];
}

/** What the lineage keeps between probes. */
export interface ChangeMemory {
  summary: string | null;
  /** Per pipeline, the newest job (id and state) already reconciled with the pipeline list. */
  reconciled: Map<string, string>;
}

export const newChangeMemory = (): ChangeMemory => ({ summary: null, reconciled: new Map() });

export type ChangePlan =
  | { kind: 'none' }
  /** Pipelines came, went or changed in ways jobs do not show: list them all again. */
  | { kind: 'full' }
  /** These pipelines' jobs moved on: inspect just them. */
  | { kind: 'inspect'; pipelines: string[] };

/**
 * The part of PipelinesSummary that jobs do not explain: how many pipelines there are, and how
 * many are paused or failed. (Its `unhealthy` count follows failed jobs, which the probe's jobs
 * already show pipeline by pipeline.)
 */
export function summarySignature(summaries: readonly PipelinesSummary[] | null): string {
  return (summaries ?? [])
    .map((s) => {
      const total =
        Number(s.activePipelines) + Number(s.pausedPipelines) + Number(s.failedPipelines);
      return `${s.project.name}:${total}/${s.pausedPipelines}/${s.failedPipelines}`;
    })
    .join(',');
}

const TERMINAL = new Set(['JOB_SUCCESS', 'JOB_FAILURE', 'JOB_KILLED', 'JOB_UNRUNNABLE']);

/**
 * Decides, from a probe, what of the pipeline list is stale. A pipeline is inspected again when
 * its newest job is one the list has not seen in that state (a new job, or a job that moved on);
 * a job of an unknown pipeline, or a changed summary, asks for the whole list. Each job state is
 * reconciled once (remembered in `memory`), so a pipeline whose list entry keeps disagreeing with
 * its jobs is not inspected on every probe.
 */
export function planChanges(
  list: readonly PipelineInfo[],
  probe: ChangeProbe,
  memory: ChangeMemory,
): ChangePlan {
  const summaryChanged = memory.summary !== null && memory.summary !== probe.summary;
  memory.summary = probe.summary;
  if (summaryChanged) return { kind: 'full' };
  const byName = new Map(list.map((info) => [info.pipeline.name, info]));
  const newest = new Map<string, JobInfo>();
  for (const job of probe.jobs) {
    const name = job.job.pipeline?.name ?? '';
    if (name && !newest.has(name)) newest.set(name, job);
  }
  const stale: string[] = [];
  for (const [name, job] of newest) {
    const info = byName.get(name);
    if (!info) return { kind: 'full' };
    const seen = `${job.job.id}:${job.state}`;
    if (memory.reconciled.get(name) === seen) continue;
    memory.reconciled.set(name, seen);
    const running = !TERMINAL.has(job.state);
    const agrees =
      info.lastJobState === job.state &&
      Number(info.version) >= Number(job.pipelineVersion ?? 0) &&
      (running
        ? info.state === 'PIPELINE_RUNNING' || info.stopped
        : info.state !== 'PIPELINE_RUNNING');
    if (!agrees) stale.push(name);
  }
  return stale.length > 0 ? { kind: 'inspect', pipelines: stale } : { kind: 'none' };
}

/**
 * What about a pipeline the jobs do not show: its version (spec), paused, failed and why. Running
 * and standby alternate with its jobs, which the job probe follows, so they count as one.
 */
function pipelineSignature(info: PipelineInfo): string {
  const held = ['PIPELINE_PAUSED', 'PIPELINE_FAILURE', 'PIPELINE_CRASHING'].includes(info.state);
  return `${info.version}|${info.stopped}|${info.reason}|${held ? info.state : 'active'}`;
}

/**
 * Compares the first page of ListPipeline in RECENT order (the most recently created, updated,
 * stopped, started or failed pipelines) with the list: the pipelines that differ are taken as they
 * are (no inspect needed). A pipeline the list lacks, or a page that differs throughout (more may
 * have changed below it), asks for the whole list again.
 */
export function recentChanges(
  list: readonly PipelineInfo[],
  recent: readonly PipelineInfo[],
  pageSize: number,
): { kind: 'full' } | { kind: 'fresh'; pipelines: PipelineInfo[] } {
  const byName = new Map(list.map((info) => [info.pipeline.name, info]));
  const fresh: PipelineInfo[] = [];
  for (const info of recent) {
    const known = byName.get(info.pipeline.name);
    if (!known) return { kind: 'full' };
    if (pipelineSignature(known) !== pipelineSignature(info)) fresh.push(info);
  }
  if (recent.length >= pageSize && fresh.length === recent.length) return { kind: 'full' };
  return { kind: 'fresh', pipelines: fresh };
}

/** The list with `fresh` infos in place of the pipelines of the same name. */
export function mergePipelines(
  list: readonly PipelineInfo[],
  fresh: readonly PipelineInfo[],
): PipelineInfo[] {
  const byName = new Map(fresh.map((info) => [info.pipeline.name, info]));
  return list.map((info) => byName.get(info.pipeline.name) ?? info);
}
