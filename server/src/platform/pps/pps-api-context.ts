// What the groups of pps_v2.API methods (pipeline-api.ts, job-api.ts, …) share: the engine
// parts, the message builder, the registration function, request-field helpers and job lookups.
import type { EventEmitter } from 'node:events';
import { invalidArgument, notFound } from '../../errors.ts';
import type { pfs_v2, pps_v2 } from '@ivory/api/proto';
import type { PfsMessages } from '../pfs/pfs-messages.ts';
import { projectNameOf } from '../pfs/pfs-refs.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import type { MethodRegistry } from '../platform.ts';
import type { LogStore } from './logs.ts';
import type { Pipelines } from './pipelines.ts';
import { PpsMessages } from './pps-messages.ts';
import { isTerminal, type JobRow, type PpsStore } from './pps-store.ts';
import type { Runner } from './runner/runner.ts';
import type { SecretStore } from './secrets.ts';

export interface PpsDeps {
  pfs: PfsStore;
  pfsMessages: PfsMessages;
  store: PpsStore;
  runner: Runner;
  pipelines: Pipelines;
  logs: LogStore;
  secrets: SecretStore;
}

export interface PipelineName {
  project: string;
  name: string;
}

/** A request's pipeline; its name is required. */
export function pipelineNameOf(pipeline: pps_v2.Pipeline | undefined, field: string): PipelineName {
  const name = pipeline?.name ?? '';
  if (!name) throw invalidArgument(`${field}.name is required`);
  return { project: projectNameOf(pipeline?.project), name };
}

export const projectNames = (projects: readonly pfs_v2.Project[]): string[] =>
  projects.map(projectNameOf);

/** Waits for the next event on `emitter` (or abort / timeout). */
export function nextEvent(
  emitter: EventEmitter,
  event: string,
  signal: AbortSignal,
  timeoutMs = 30_000,
): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      emitter.off(event, done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    emitter.on(event, done);
    signal.addEventListener('abort', done);
  });
}

/** The deps and helpers every group of pps_v2.API methods registers with. */
export interface PpsApiContext extends PpsDeps {
  messages: PpsMessages;
  /** Registers `pps_v2.API/<name>`. */
  add(name: string, method: Parameters<MethodRegistry['set']>[1]): void;
  /** A request's job: by pipeline and id, or by id alone when only one pipeline has it. */
  getJob(job: pps_v2.Job | undefined, field: string): JobRow;
  /** The job once it is terminal (or the request is aborted). */
  waitTerminal(job: JobRow, signal: AbortSignal): Promise<JobRow>;
}

export function ppsApiContext(methods: MethodRegistry, deps: PpsDeps): PpsApiContext {
  const { pfs, store, runner } = deps;

  const messages = new PpsMessages(
    pfs,
    deps.pfsMessages,
    store,
    (p, n) => runner.isRunning(p, n),
    (job) => runner.workers.status(job),
  );
  const add = (name: string, method: Parameters<MethodRegistry['set']>[1]) =>
    methods.set(`pps_v2.API/${name}`, method);

  function getJob(job: pps_v2.Job | undefined, field: string): JobRow {
    if (!job) throw invalidArgument('must specify a job');
    const id = job.id;
    if (!id) throw invalidArgument(`${field}.id is required`);
    if (job?.pipeline?.name) {
      const pipeline = pipelineNameOf(job.pipeline, `${field}.pipeline`);
      const row = store.findJob(pipeline.project, pipeline.name, id);
      if (!row) throw notFound(`job ${id} not found in pipeline ${pipeline.name}`);
      return row;
    }
    const rows = store.jobsWithId(id);
    if (rows.length !== 1)
      throw notFound(rows.length ? `job ${id} needs a pipeline` : `job ${id} not found`);
    return rows[0] as JobRow;
  }

  async function waitTerminal(job: JobRow, signal: AbortSignal): Promise<JobRow> {
    let current = job;
    while (!isTerminal(current.state) && !signal.aborted) {
      await nextEvent(runner.jobEvents, 'job', signal);
      const fresh = store.jobByRowid(job.rowid);
      if (!fresh) throw notFound(`job ${job.id} was deleted`);
      current = fresh;
    }
    return current;
  }

  return { ...deps, messages, add, getJob, waitTerminal };
}
