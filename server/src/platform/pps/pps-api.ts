import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { failedPrecondition, invalidArgument, notFound, unimplemented } from '../../errors.ts';
import {
  int64,
  readBool,
  readDuration,
  readEnum,
  readInt,
  readList,
  readObject,
  readOptionalObject,
  readString,
  type WireObject,
} from '../wire.ts';
import type { PfsMessages } from '../pfs/pfs-messages.ts';
import {
  defaultProject,
  readCommitRef,
  readProjectName,
  readProjectNamesOrAll,
  resolveCommitRef,
} from '../pfs/pfs-requests.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import { stream, unary, type MethodRegistry } from '../platform.ts';
import { waitForWake } from '../wait.ts';
import type { DatumFile } from './datums.ts';
import { jqPredicate, keepMatching, type JqPredicate } from './jq-filter.ts';
import type { LogFilter, LogLine, LogStore } from './logs.ts';
import type { Pipelines } from './pipelines.ts';
import { PpsMessages, pipelineMessage } from './pps-messages.ts';
import { datumStates, isTerminal, type JobRow, type PpsStore } from './pps-store.ts';
import type { Runner } from './runner.ts';
import type { SecretStore } from './secrets.ts';
import { inputLeaves } from './spec.ts';

export interface PpsDeps {
  pfs: PfsStore;
  pfsMessages: PfsMessages;
  store: PpsStore;
  runner: Runner;
  pipelines: Pipelines;
  logs: LogStore;
  secrets: SecretStore;
}

interface PipelineName {
  project: string;
  name: string;
}

function readPipeline(value: unknown, field: string): PipelineName {
  const pipeline = readObject(value, field);
  const name = readString(pipeline.name, `${field}.name`);
  if (!name) throw invalidArgument(`${field}.name is required`);
  return { project: readProjectName(pipeline.project, `${field}.project`), name };
}

function readProjects(value: unknown, field: string): string[] {
  return readList(value, field).map((p, i) => readProjectName(p, `${field}[${i}]`));
}

/** Waits for the next event on `emitter` (or abort / timeout). */
function nextEvent(
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

const needsCluster = (method: string) =>
  unary(async () => {
    throw unimplemented(`${method} needs a Kubernetes cluster; the embedded platform has none`);
  });

/** Registers the embedded pps_v2.API methods. */
export function registerPpsApi(methods: MethodRegistry, deps: PpsDeps): void {
  const { pfs, store, runner, pipelines, logs, secrets } = deps;
  const messages = new PpsMessages(pfs, deps.pfsMessages, store, (p, n) => runner.isRunning(p, n));
  const add = (name: string, method: Parameters<MethodRegistry['set']>[1]) =>
    methods.set(`pps_v2.API/${name}`, method);

  function getJob(value: unknown, field: string): JobRow {
    const job = readObject(value, field);
    const id = readString(job.id, `${field}.id`);
    if (!id) throw invalidArgument(`${field}.id is required`);
    const pipelineRef = readOptionalObject(job.pipeline, `${field}.pipeline`);
    if (pipelineRef && readString(pipelineRef.name, `${field}.pipeline.name`)) {
      const pipeline = readPipeline(pipelineRef, `${field}.pipeline`);
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

  // ---- pipelines ------------------------------------------------------------------------

  add(
    'CreatePipelineV2',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const effective = await pipelines.create(
        readString(req.createPipelineRequestJson, 'createPipelineRequestJson'),
        {
          update: readBool(req.update, 'update'),
          reprocess: readBool(req.reprocess, 'reprocess'),
          dryRun: readBool(req.dryRun, 'dryRun'),
        },
      );
      return { effectiveCreatePipelineRequestJson: JSON.stringify(effective) };
    }),
  );

  add(
    'CreatePipeline',
    unary(async (raw) => {
      await pipelines.create(readObject(raw, 'request'), {
        update: false,
        reprocess: false,
        dryRun: false,
      });
      return {};
    }),
  );

  add(
    'InspectPipeline',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const name = readPipeline(req.pipeline, 'pipeline');
      const state = pipelines.getState(name.project, name.name);
      return messages.pipelineInfo(
        state,
        store.version(state.project, state.name, state.version),
        true,
      );
    }),
  );

  add(
    'ListPipeline',
    stream(async function* (raw) {
      const req = readObject(raw, 'request');
      const history = readInt(req.history, 'history');
      const keep = await jqPredicate(readString(req.jqFilter, 'jqFilter'));
      const one = readOptionalObject(req.pipeline, 'pipeline');
      let states = store.listStates(readProjects(req.projects, 'projects'));
      if (one && readString(one.name, 'pipeline.name')) {
        const name = readPipeline(one, 'pipeline');
        states = [pipelines.getState(name.project, name.name)];
      }
      const page = readOptionalObject(req.page, 'page');
      const pageSize = page ? readInt(page.pageSize, 'page.pageSize') : 0;
      if (pageSize > 0) {
        // PipelinePage's one ordering, RECENT: the most recently changed first (created,
        // updated, stopped, started or failed), so a client can probe the first page for changes.
        states = [...states].sort(
          (a, b) =>
            b.updated_at - a.updated_at ||
            a.project.localeCompare(b.project) ||
            a.name.localeCompare(b.name),
        );
        const start = readInt(page?.pageIndex, 'page.pageIndex') * pageSize;
        states = states.slice(start, start + pageSize);
      }
      for (const state of states) {
        const versions = store.versions(state.project, state.name);
        const count = history < 0 ? versions.length : Math.min(versions.length, history + 1);
        const infos = versions.slice(0, count).map((v) => messages.pipelineInfo(state, v, true));
        yield* keepMatching(infos, (info) => info, keep);
      }
    }),
  );

  add(
    'DeletePipeline',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const name = readPipeline(req.pipeline, 'pipeline');
      if (!store.findState(name.project, name.name)) {
        // Like Pachyderm: deleting a missing pipeline is an error only with mustExist.
        if (readBool(req.mustExist, 'mustExist')) pipelines.getState(name.project, name.name);
        return {};
      }
      await pipelines.delete(name.project, name.name, {
        keepRepo: readBool(req.keepRepo, 'keepRepo'),
        force: readBool(req.force, 'force'),
      });
      return {};
    }),
  );

  add(
    'DeletePipelines',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const projects = readProjects(req.projects, 'projects');
      if (projects.length === 0 && !readBool(req.all, 'all'))
        throw invalidArgument('DeletePipelines needs projects or all');
      const states = store.listStates(projects);
      // Downstream first, so no pipeline is deleted while another still reads it.
      const deleted: PipelineName[] = [];
      for (const state of states.reverse()) {
        await pipelines.delete(state.project, state.name, {
          keepRepo: readBool(req.keepRepo, 'keepRepo'),
          force: true,
        });
        deleted.push({ project: state.project, name: state.name });
      }
      return { pipelines: deleted.map((p) => pipelineMessage(p.project, p.name)) };
    }),
  );

  add(
    'StartPipeline',
    unary(async (raw) => {
      const name = readPipeline(readObject(raw, 'request').pipeline, 'pipeline');
      pipelines.start(name.project, name.name);
      return {};
    }),
  );

  add(
    'StopPipeline',
    unary(async (raw) => {
      const name = readPipeline(readObject(raw, 'request').pipeline, 'pipeline');
      pipelines.stop(name.project, name.name);
      return {};
    }),
  );

  add(
    'RerunPipeline',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const name = readPipeline(req.pipeline, 'pipeline');
      await pipelines.rerun(name.project, name.name, readBool(req.reprocess, 'reprocess'));
      return {};
    }),
  );

  add(
    'RunPipeline',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const name = readPipeline(req.pipeline, 'pipeline');
      const provenance = readList(req.provenance, 'provenance');
      const state = pipelines.getState(name.project, name.name);
      if (provenance.length === 0) {
        await pipelines.rerun(name.project, name.name, false);
        return {};
      }
      // Explicit input commits: each must belong to one of the pipeline's inputs.
      const spec = runner.spec(name.project, name.name);
      const leaves = inputLeaves(spec.input);
      const refs = provenance.map((p, i) => {
        const { repo, commit } = resolveCommitRef(pfs, readCommitRef(p, `provenance[${i}]`));
        const leaf = leaves.find((l) => l.repo === repo.name && l.project === repo.project);
        if (!leaf) throw invalidArgument(`provenance[${i}] is not an input of ${name.name}`);
        return { name: leaf.name, commitRowid: commit.rowid };
      });
      for (const leaf of leaves) {
        if (refs.some((r) => r.name === leaf.name)) continue;
        const repo = pfs.getRepo({ project: leaf.project, name: leaf.repo, type: 'user' });
        const head = pfs.resolveCommit(repo, '', leaf.kind === 'cron' ? 'master' : leaf.branch);
        refs.push({ name: leaf.name, commitRowid: head.rowid });
      }
      runner.createJob(
        state,
        readString(req.jobId, 'jobId') || randomBytes(16).toString('hex'),
        refs,
      );
      return {};
    }),
  );

  add(
    'RunCron',
    unary(async (raw) => {
      const name = readPipeline(readObject(raw, 'request').pipeline, 'pipeline');
      pipelines.getState(name.project, name.name);
      await runner.runCron(name.project, name.name);
      return {};
    }),
  );

  add(
    'PipelinesSummary',
    unary(async (raw) => {
      const names = readProjectNamesOrAll(readObject(raw, 'request').projects, () =>
        pfs.listProjects().map((project) => project.name),
      );
      return {
        summaries: names.map((project) => {
          const counts = { active: 0, paused: 0, failed: 0, unhealthy: 0 };
          for (const state of store.listStates([project])) {
            const s = messages.pipelineState(state);
            if (s === 'PIPELINE_PAUSED') counts.paused++;
            else if (s === 'PIPELINE_FAILURE' || s === 'PIPELINE_CRASHING') counts.failed++;
            else counts.active++;
            if (state.last_job_state === 'JOB_FAILURE' || state.last_job_state === 'JOB_KILLED')
              counts.unhealthy++;
          }
          return {
            project: { name: project },
            activePipelines: int64(counts.active),
            pausedPipelines: int64(counts.paused),
            failedPipelines: int64(counts.failed),
            unhealthyPipelines: int64(counts.unhealthy),
          };
        }),
      };
    }),
  );

  add(
    'CheckStatus',
    stream(async function* (raw) {
      const req = readObject(raw, 'request');
      const projectRef = readOptionalObject(req.project, 'project');
      const projects = projectRef ? [readProjectName(projectRef, 'project')] : [];
      for (const state of store.listStates(projects)) {
        const alerts: string[] = [];
        if (state.last_job_state === 'JOB_FAILURE') alerts.push('the last job failed');
        if (state.failure) alerts.push(state.failure);
        yield {
          project: { name: state.project },
          pipeline: pipelineMessage(state.project, state.name),
          alerts,
        };
      }
    }),
  );

  // ---- jobs -----------------------------------------------------------------------------

  add(
    'InspectJob',
    unary(async (raw, signal) => {
      const req = readObject(raw, 'request');
      let job = getJob(req.job, 'job');
      if (readBool(req.wait, 'wait')) job = await waitTerminal(job, signal);
      return messages.jobInfo(job, readBool(req.details, 'details'));
    }),
  );

  function listJobs(req: WireObject, keep: JqPredicate | null, details: boolean): JobRow[] {
    const one = readOptionalObject(req.pipeline, 'pipeline');
    const pipeline =
      one && readString(one.name, 'pipeline.name') ? readPipeline(one, 'pipeline') : undefined;
    let jobs = store.listJobs({ projects: readProjects(req.projects, 'projects'), pipeline });
    const history = readInt(req.history, 'history');
    if (history >= 0) {
      const current = new Map(store.listStates().map((s) => [`${s.project}/${s.name}`, s.version]));
      jobs = jobs.filter((job) => {
        const version = current.get(`${job.project}/${job.pipeline}`) ?? job.pipeline_version;
        return job.pipeline_version >= version - history;
      });
    }
    const inputCommits = readList(req.inputCommit, 'inputCommit');
    if (inputCommits.length > 0) {
      const wanted = new Set(
        inputCommits.map(
          (c, i) => resolveCommitRef(pfs, readCommitRef(c, `inputCommit[${i}]`)).commit.rowid,
        ),
      );
      jobs = jobs.filter((job) => {
        const refs = job.input_commits
          ? (JSON.parse(job.input_commits) as { commitRowid: number }[])
          : [];
        return refs.some((r) => wanted.has(r.commitRowid));
      });
    }
    const marker = readString(req.paginationMarker, 'paginationMarker');
    const reverse = readBool(req.reverse, 'reverse');
    if (reverse) jobs.reverse();
    if (marker) {
      const at = Date.parse(marker);
      jobs = jobs.filter((job) => (reverse ? job.created_at > at : job.created_at < at));
    }
    jobs = keepMatching(jobs, (job) => messages.jobInfo(job, details), keep);
    const number = readInt(req.number, 'number');
    return number > 0 ? jobs.slice(0, number) : jobs;
  }

  add(
    'ListJob',
    stream(async function* (raw) {
      const req = readObject(raw, 'request');
      const details = readBool(req.details, 'details');
      const keep = await jqPredicate(readString(req.jqFilter, 'jqFilter'));
      for (const job of listJobs(req, keep, details)) yield messages.jobInfo(job, details);
    }),
  );

  add(
    'InspectJobSet',
    stream(async function* (raw, signal) {
      const req = readObject(raw, 'request');
      const id = readString(readObject(req.jobSet, 'jobSet').id, 'jobSet.id');
      let jobs = store.jobsWithId(id);
      if (readBool(req.wait, 'wait')) {
        while (!signal.aborted && jobs.some((job) => !isTerminal(job.state))) {
          await nextEvent(runner.jobEvents, 'job', signal);
          jobs = store.jobsWithId(id);
        }
      }
      const details = readBool(req.details, 'details');
      for (const job of jobs) yield messages.jobInfo(job, details);
    }),
  );

  add(
    'ListJobSet',
    stream(async function* (raw) {
      const req = readObject(raw, 'request');
      const details = readBool(req.details, 'details');
      const keep = await jqPredicate(readString(req.jqFilter, 'jqFilter'));
      const jobs = keepMatching(
        store.listJobs({ projects: readProjects(req.projects, 'projects') }),
        (job) => messages.jobInfo(job, details),
        keep,
      );
      const order: string[] = [];
      const byId = new Map<string, JobRow[]>();
      for (const job of jobs) {
        if (!byId.has(job.id)) {
          byId.set(job.id, []);
          order.push(job.id);
        }
        byId.get(job.id)?.push(job);
      }
      const reverse = readBool(req.reverse, 'reverse');
      if (reverse) order.reverse();
      const created = (id: string) => Math.min(...(byId.get(id) ?? []).map((j) => j.created_at));
      const marker = readString(req.paginationMarker, 'paginationMarker');
      let ids = order;
      if (marker) {
        const at = Date.parse(marker);
        ids = ids.filter((id) => (reverse ? created(id) > at : created(id) < at));
      }
      const number = readInt(req.number, 'number');
      if (number > 0) ids = ids.slice(0, number);
      for (const id of ids) {
        yield {
          jobSet: { id },
          jobs: (byId.get(id) ?? [])
            .slice()
            .reverse()
            .map((job) => messages.jobInfo(job, details)),
        };
      }
    }),
  );

  add(
    'SubscribeJob',
    stream(async function* (raw, signal) {
      const req = readObject(raw, 'request');
      const name = readPipeline(req.pipeline, 'pipeline');
      pipelines.getState(name.project, name.name);
      const details = readBool(req.details, 'details');
      const queue: JobRow[] = [];
      let wake: (() => void) | null = null;
      const listener = (job: JobRow) => {
        if (job.project !== name.project || job.pipeline !== name.name) return;
        queue.push(job);
        wake?.();
      };
      runner.jobEvents.on('job', listener);
      try {
        for (const job of store.listJobs({ projects: [], pipeline: name }).reverse()) {
          if (!isTerminal(job.state)) yield messages.jobInfo(job, details);
        }
        while (!signal.aborted) {
          while (queue.length > 0) yield messages.jobInfo(queue.shift() as JobRow, details);
          await waitForWake(signal, (done) => (wake = done));
          wake = null;
        }
      } finally {
        runner.jobEvents.off('job', listener);
      }
    }),
  );

  add(
    'StopJob',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const job = getJob(req.job, 'job');
      await runner.stopJob(job, readString(req.reason, 'reason') || 'stopped by a user');
      return {};
    }),
  );

  add(
    'DeleteJob',
    unary(async (raw) => {
      const job = getJob(readObject(raw, 'request').job, 'job');
      await runner.stopJob(job, 'the job was deleted');
      store.deleteJob(job.rowid);
      logs.deleteJob(job.id, job.project, job.pipeline);
      return {};
    }),
  );

  // ---- datums ---------------------------------------------------------------------------

  add(
    'ListDatum',
    stream(async function* (raw) {
      const req = readObject(raw, 'request');
      if (readOptionalObject(req.input, 'input'))
        throw unimplemented('ListDatum with an input (no job) is not implemented yet; pass a job');
      const job = getJob(req.job, 'job');
      const filter = readOptionalObject(req.filter, 'filter');
      const states = filter
        ? readList(filter.state, 'filter.state').map((s, i) =>
            readEnum(s, datumStates, `filter.state[${i}]`),
          )
        : [];
      let datums = store.datums(job.rowid).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      if (states.length > 0) datums = datums.filter((d) => states.includes(d.state));
      const reverse = readBool(req.reverse, 'reverse');
      if (reverse) datums.reverse();
      const marker = readString(req.paginationMarker, 'paginationMarker');
      if (marker) datums = datums.filter((d) => (reverse ? d.id < marker : d.id > marker));
      const number = readInt(req.number, 'number');
      if (number > 0) datums = datums.slice(0, number);
      for (const datum of datums) yield messages.datumInfo(job, datum);
    }),
  );

  add(
    'InspectDatum',
    unary(async (raw) => {
      const datumRef = readObject(readObject(raw, 'request').datum, 'datum');
      const job = getJob(datumRef.job, 'datum.job');
      const id = readString(datumRef.id, 'datum.id');
      const datum = store.datum(job.rowid, id);
      if (!datum) throw notFound(`datum ${id} not found in job ${job.id}`);
      return messages.datumInfo(job, datum);
    }),
  );

  add(
    'RestartDatum',
    unary(async (raw, signal) => {
      const req = readObject(raw, 'request');
      let job = getJob(req.job, 'job');
      if (!isTerminal(job.state)) job = await waitTerminal(job, signal);
      const failed = store
        .datums(job.rowid)
        .filter((d) => d.state === 'FAILED' || d.state === 'RECOVERED');
      const filters = readList(req.dataFilters, 'dataFilters').map((f, i) =>
        readString(f, `dataFilters[${i}]`),
      );
      const chosen = failed.filter(
        (d) =>
          filters.length === 0 ||
          filters.some(
            (f) =>
              d.id === f || (JSON.parse(d.data) as DatumFile[]).some((file) => file.path === f),
          ),
      );
      if (chosen.length === 0)
        throw failedPrecondition(`job ${job.id} has no failed datums to restart`);
      const state = pipelines.getState(job.project, job.pipeline);
      const inputs = job.input_commits ? JSON.parse(job.input_commits) : null;
      // A new job over the same input commits: datums that succeeded are reused (SKIPPED).
      runner.createJob(state, randomBytes(16).toString('hex'), inputs);
      return {};
    }),
  );

  // ---- logs -----------------------------------------------------------------------------

  add(
    'GetLogs',
    stream(async function* (raw, signal) {
      const req = readObject(raw, 'request');
      const filter: LogFilter = {};
      let followJob: JobRow | undefined;
      const pipelineRef = readOptionalObject(req.pipeline, 'pipeline');
      if (pipelineRef && readString(pipelineRef.name, 'pipeline.name')) {
        const name = readPipeline(pipelineRef, 'pipeline');
        pipelines.getState(name.project, name.name);
        filter.project = name.project;
        filter.pipeline = name.name;
      }
      const jobRef = readOptionalObject(req.job, 'job');
      const datumRef = readOptionalObject(req.datum, 'datum');
      const datumJob = datumRef ? readOptionalObject(datumRef.job, 'datum.job') : null;
      if (jobRef && readString(jobRef.id, 'job.id')) followJob = getJob(jobRef, 'job');
      else if (datumJob && readString(datumJob.id, 'datum.job.id'))
        followJob = getJob(datumJob, 'datum.job');
      if (followJob) {
        filter.project = followJob.project;
        filter.pipeline = followJob.pipeline;
        filter.jobId = followJob.id;
      }
      if (datumRef && readString(datumRef.id, 'datum.id'))
        filter.datumId = readString(datumRef.id, 'datum.id');
      filter.master = readBool(req.master, 'master');
      const sinceMs = readDuration(req.since, 'since');
      if (sinceMs > 0) filter.sinceMs = Date.now() - sinceMs;
      readBool(req.useLokiBackend, 'useLokiBackend');
      const dataFilters = readList(req.dataFilters, 'dataFilters').map((f, i) =>
        readString(f, `dataFilters[${i}]`),
      );
      const tail = readInt(req.tail, 'tail');
      const follow = readBool(req.follow, 'follow');

      const dataCache = new Map<string, DatumFile[]>();
      const datumData = (line: LogLine): DatumFile[] => {
        if (!line.datumId) return [];
        const key = `${line.project}/${line.pipeline}/${line.jobId}/${line.datumId}`;
        let data = dataCache.get(key);
        if (!data) {
          const job = store.findJob(line.project, line.pipeline, line.jobId);
          const datum = job ? store.datum(job.rowid, line.datumId) : undefined;
          data = datum ? (JSON.parse(datum.data) as DatumFile[]) : [];
          dataCache.set(key, data);
        }
        return data;
      };
      const passes = (line: LogLine) =>
        dataFilters.length === 0 ||
        dataFilters.every(
          (f) =>
            line.datumId === f ||
            datumData(line).some((d) => d.path === f || d.hash === f || d.path.endsWith(`/${f}`)),
        );
      const render = (line: LogLine) =>
        messages.logMessage(
          line,
          datumData(line).map((d) => ({ path: d.path, hash: d.hash })),
        );

      // Subscribe before reading the stored lines so none falls between the two.
      const queue: LogLine[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = follow
        ? logs.subscribe((line) => {
            if (logs.matches(line, filter)) {
              queue.push(line);
              wake?.();
            }
          })
        : () => undefined;
      const onJob = () => wake?.();
      if (follow && followJob) runner.jobEvents.on('job', onJob);
      try {
        for (const line of logs.scan(filter, tail)) if (passes(line)) yield render(line);
        if (!follow) return;
        while (!signal.aborted) {
          while (queue.length > 0) {
            const line = queue.shift() as LogLine;
            if (passes(line)) yield render(line);
          }
          if (followJob) {
            const current = store.jobByRowid(followJob.rowid);
            if (!current || isTerminal(current.state)) {
              // The job's last lines are appended before it turns terminal.
              while (queue.length > 0) {
                const line = queue.shift() as LogLine;
                if (passes(line)) yield render(line);
              }
              return;
            }
          }
          await waitForWake(signal, (done) => (wake = done), 1000);
          wake = null;
        }
      } finally {
        unsubscribe();
        runner.jobEvents.off('job', onJob);
      }
    }),
  );

  // ---- secrets --------------------------------------------------------------------------

  add(
    'CreateSecret',
    unary(async (raw) => {
      const file = readString(readObject(raw, 'request').file, 'file');
      secrets.create(Buffer.from(file, 'base64'));
      return {};
    }),
  );

  const secretName = (raw: unknown) =>
    readString(readObject(readObject(raw, 'request').secret, 'secret').name, 'secret.name');

  add(
    'ListSecret',
    unary(async () => ({ secretInfo: secrets.list().map((row) => messages.secretInfo(row)) })),
  );

  add(
    'InspectSecret',
    unary(async (raw) => messages.secretInfo(secrets.get(secretName(raw)))),
  );

  add(
    'DeleteSecret',
    unary(async (raw) => {
      secrets.delete(secretName(raw));
      return {};
    }),
  );

  // ---- defaults -------------------------------------------------------------------------

  add(
    'GetClusterDefaults',
    unary(async () => ({ clusterDefaultsJson: store.clusterDefaults() })),
  );

  add(
    'SetClusterDefaults',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const affected = await pipelines.applyDefaults(
        'cluster',
        readString(req.clusterDefaultsJson, 'clusterDefaultsJson'),
        {
          regenerate: readBool(req.regenerate, 'regenerate'),
          reprocess: readBool(req.reprocess, 'reprocess'),
          dryRun: readBool(req.dryRun, 'dryRun'),
        },
      );
      return { affectedPipelines: affected.map((p) => pipelineMessage(p.project, p.name)) };
    }),
  );

  add(
    'GetProjectDefaults',
    unary(async (raw) => {
      const project = readProjectName(readObject(raw, 'request').project, 'project');
      pfs.getProject(project);
      const defaults = store.projectDefaults(project);
      return {
        projectDefaultsJson: defaults.json,
        createdBy: '',
        createdAt: defaults.createdAt === null ? null : new Date(defaults.createdAt).toISOString(),
      };
    }),
  );

  add(
    'SetProjectDefaults',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const project = readProjectName(req.project, 'project') || defaultProject;
      pfs.getProject(project);
      const affected = await pipelines.applyDefaults(
        { project },
        readString(req.projectDefaultsJson, 'projectDefaultsJson'),
        {
          regenerate: readBool(req.regenerate, 'regenerate'),
          reprocess: readBool(req.reprocess, 'reprocess'),
          dryRun: readBool(req.dryRun, 'dryRun'),
        },
      );
      return { affectedPipelines: affected.map((p) => pipelineMessage(p.project, p.name)) };
    }),
  );

  // ---- cluster-only calls ---------------------------------------------------------------

  // RunLoadTest(Default) and RenderTemplate: load-test.ts and render-template.ts.
  for (const method of ['GetKubeEvents', 'QueryLoki']) add(method, needsCluster(method));
}
