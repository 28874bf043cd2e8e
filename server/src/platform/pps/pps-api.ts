import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { toJson } from '@bufbuild/protobuf';
import { failedPrecondition, invalidArgument, notFound, unimplemented } from '../../errors.ts';
import { EmptySchema, durationMs, timestampMs } from '@bufbuild/protobuf/wkt';
import { pps_v2, type pfs_v2 } from '@ivory/api/proto';
import { int64 } from '../wire.ts';
import type { PfsMessages } from '../pfs/pfs-messages.ts';
import { commitRefOf, projectNameOf, projectPickerNamesOrAll } from '../pfs/pfs-refs.ts';
import { resolveCommitRef } from '../pfs/pfs-requests.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import type { MethodRegistry } from '../platform.ts';
import { jsonRegistry, safeNumber, typedStream, typedUnary } from '../typed-method.ts';
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

/** A request's pipeline; its name is required. */
export function pipelineNameOf(pipeline: pps_v2.Pipeline | undefined, field: string): PipelineName {
  const name = pipeline?.name ?? '';
  if (!name) throw invalidArgument(`${field}.name is required`);
  return { project: projectNameOf(pipeline?.project), name };
}

const projectNames = (projects: readonly pfs_v2.Project[]): string[] => projects.map(projectNameOf);

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
  typedUnary(pps_v2.LokiRequestSchema, async () => {
    throw unimplemented(`${method} needs a Kubernetes cluster; the embedded platform has none`);
  });

/** Registers the embedded pps_v2.API methods. */
export function registerPpsApi(methods: MethodRegistry, deps: PpsDeps): void {
  const { pfs, store, runner, pipelines, logs, secrets } = deps;
  const messages = new PpsMessages(pfs, deps.pfsMessages, store, (p, n) => runner.isRunning(p, n));
  const add = (name: string, method: Parameters<MethodRegistry['set']>[1]) =>
    methods.set(`pps_v2.API/${name}`, method);

  function getJob(job: pps_v2.Job | undefined, field: string): JobRow {
    const id = job?.id ?? '';
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

  // ---- pipelines ------------------------------------------------------------------------

  add(
    'CreatePipelineV2',
    typedUnary(pps_v2.CreatePipelineV2RequestSchema, async (req) => {
      const effective = await pipelines.create(req.createPipelineRequestJson, {
        update: req.update,
        reprocess: req.reprocess,
        dryRun: req.dryRun,
      });
      return { effectiveCreatePipelineRequestJson: JSON.stringify(effective) };
    }),
  );

  // The request is the pipeline spec itself: stored as its protobuf JSON (as pachd turns a
  // CreatePipelineRequest into a CreatePipelineV2 spec), so unknown fields are dropped.
  add(
    'CreatePipeline',
    typedUnary(pps_v2.CreatePipelineRequestSchema, async (req) => {
      const spec = toJson(pps_v2.CreatePipelineRequestSchema, req, { registry: jsonRegistry });
      await pipelines.create(spec as Record<string, unknown>, {
        update: req.update,
        reprocess: req.reprocess,
        dryRun: req.dryRun,
      });
      return {};
    }),
  );

  add(
    'InspectPipeline',
    typedUnary(pps_v2.InspectPipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
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
    typedStream(pps_v2.ListPipelineRequestSchema, async function* (req) {
      const history = safeNumber(req.history, 'history');
      const keep = await jqPredicate(req.jqFilter);
      let states = store.listStates(projectNames(req.projects));
      if (req.pipeline?.name) {
        const name = pipelineNameOf(req.pipeline, 'pipeline');
        states = [pipelines.getState(name.project, name.name)];
      }
      const pageSize = req.page ? safeNumber(req.page.pageSize, 'page.pageSize') : 0;
      if (pageSize > 0) {
        // PipelinePage's one ordering, RECENT: the most recently changed first (created,
        // updated, stopped, started or failed), so a client can probe the first page for changes.
        states = [...states].sort(
          (a, b) =>
            b.updated_at - a.updated_at ||
            a.project.localeCompare(b.project) ||
            a.name.localeCompare(b.name),
        );
        const start = safeNumber(req.page?.pageIndex ?? 0n, 'page.pageIndex') * pageSize;
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
    typedUnary(pps_v2.DeletePipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      if (!store.findState(name.project, name.name)) {
        // Like Pachyderm: deleting a missing pipeline is an error only with mustExist.
        if (req.mustExist) pipelines.getState(name.project, name.name);
        return {};
      }
      await pipelines.delete(name.project, name.name, {
        keepRepo: req.keepRepo,
        force: req.force,
      });
      return {};
    }),
  );

  add(
    'DeletePipelines',
    typedUnary(pps_v2.DeletePipelinesRequestSchema, async (req) => {
      const projects = projectNames(req.projects);
      if (projects.length === 0 && !req.all)
        throw invalidArgument('DeletePipelines needs projects or all');
      const states = store.listStates(projects);
      // Downstream first, so no pipeline is deleted while another still reads it.
      const deleted: PipelineName[] = [];
      for (const state of states.reverse()) {
        await pipelines.delete(state.project, state.name, {
          keepRepo: req.keepRepo,
          force: true,
        });
        deleted.push({ project: state.project, name: state.name });
      }
      return { pipelines: deleted.map((p) => pipelineMessage(p.project, p.name)) };
    }),
  );

  add(
    'StartPipeline',
    typedUnary(pps_v2.StartPipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      pipelines.start(name.project, name.name);
      return {};
    }),
  );

  add(
    'StopPipeline',
    typedUnary(pps_v2.StopPipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      pipelines.stop(name.project, name.name);
      return {};
    }),
  );

  add(
    'RerunPipeline',
    typedUnary(pps_v2.RerunPipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      await pipelines.rerun(name.project, name.name, req.reprocess);
      return {};
    }),
  );

  add(
    'RunPipeline',
    typedUnary(pps_v2.RunPipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      const provenance = req.provenance;
      const state = pipelines.getState(name.project, name.name);
      if (provenance.length === 0) {
        await pipelines.rerun(name.project, name.name, false);
        return {};
      }
      // Explicit input commits: each must belong to one of the pipeline's inputs.
      const spec = runner.spec(name.project, name.name);
      const leaves = inputLeaves(spec.input);
      const refs = provenance.map((p, i) => {
        const { repo, commit } = resolveCommitRef(pfs, commitRefOf(p));
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
      runner.createJob(state, req.jobId || randomBytes(16).toString('hex'), refs);
      return {};
    }),
  );

  add(
    'RunCron',
    typedUnary(pps_v2.RunCronRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      pipelines.getState(name.project, name.name);
      await runner.runCron(name.project, name.name);
      return {};
    }),
  );

  add(
    'PipelinesSummary',
    typedUnary(pps_v2.PipelinesSummaryRequestSchema, async (req) => {
      const names = projectPickerNamesOrAll(req.projects, () =>
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
    typedStream(pps_v2.CheckStatusRequestSchema, async function* (req) {
      const { context } = req;
      const projects = context.case === 'project' ? [projectNameOf(context.value)] : [];
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
    typedUnary(pps_v2.InspectJobRequestSchema, async (req, signal) => {
      let job = getJob(req.job, 'job');
      if (req.wait) job = await waitTerminal(job, signal);
      return messages.jobInfo(job, req.details);
    }),
  );

  function listJobs(
    req: pps_v2.ListJobRequest,
    keep: JqPredicate | null,
    details: boolean,
  ): JobRow[] {
    const pipeline = req.pipeline?.name ? pipelineNameOf(req.pipeline, 'pipeline') : undefined;
    let jobs = store.listJobs({ projects: projectNames(req.projects), pipeline });
    const history = safeNumber(req.history, 'history');
    if (history >= 0) {
      const current = new Map(store.listStates().map((s) => [`${s.project}/${s.name}`, s.version]));
      jobs = jobs.filter((job) => {
        const version = current.get(`${job.project}/${job.pipeline}`) ?? job.pipeline_version;
        return job.pipeline_version >= version - history;
      });
    }
    const inputCommits = req.inputCommit;
    if (inputCommits.length > 0) {
      const wanted = new Set(
        inputCommits.map((c) => resolveCommitRef(pfs, commitRefOf(c)).commit.rowid),
      );
      jobs = jobs.filter((job) => {
        const refs = job.input_commits
          ? (JSON.parse(job.input_commits) as { commitRowid: number }[])
          : [];
        return refs.some((r) => wanted.has(r.commitRowid));
      });
    }
    const marker = req.paginationMarker;
    const reverse = req.reverse;
    if (reverse) jobs.reverse();
    if (marker) {
      const at = timestampMs(marker);
      jobs = jobs.filter((job) => (reverse ? job.created_at > at : job.created_at < at));
    }
    jobs = keepMatching(jobs, (job) => messages.jobInfo(job, details), keep);
    const number = safeNumber(req.number, 'number');
    return number > 0 ? jobs.slice(0, number) : jobs;
  }

  add(
    'ListJob',
    typedStream(pps_v2.ListJobRequestSchema, async function* (req) {
      const details = req.details;
      const keep = await jqPredicate(req.jqFilter);
      for (const job of listJobs(req, keep, details)) yield messages.jobInfo(job, details);
    }),
  );

  add(
    'InspectJobSet',
    typedStream(pps_v2.InspectJobSetRequestSchema, async function* (req, signal) {
      const id = req.jobSet?.id ?? '';
      let jobs = store.jobsWithId(id);
      if (req.wait) {
        while (!signal.aborted && jobs.some((job) => !isTerminal(job.state))) {
          await nextEvent(runner.jobEvents, 'job', signal);
          jobs = store.jobsWithId(id);
        }
      }
      const details = req.details;
      for (const job of jobs) yield messages.jobInfo(job, details);
    }),
  );

  add(
    'ListJobSet',
    typedStream(pps_v2.ListJobSetRequestSchema, async function* (req) {
      const details = req.details;
      const keep = await jqPredicate(req.jqFilter);
      const jobs = keepMatching(
        store.listJobs({ projects: projectNames(req.projects) }),
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
      const reverse = req.reverse;
      if (reverse) order.reverse();
      const created = (id: string) => Math.min(...(byId.get(id) ?? []).map((j) => j.created_at));
      const marker = req.paginationMarker;
      let ids = order;
      if (marker) {
        const at = timestampMs(marker);
        ids = ids.filter((id) => (reverse ? created(id) > at : created(id) < at));
      }
      const number = safeNumber(req.number, 'number');
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
    typedStream(pps_v2.SubscribeJobRequestSchema, async function* (req, signal) {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      pipelines.getState(name.project, name.name);
      const details = req.details;
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
    typedUnary(pps_v2.StopJobRequestSchema, async (req) => {
      const job = getJob(req.job, 'job');
      await runner.stopJob(job, req.reason || 'stopped by a user');
      return {};
    }),
  );

  add(
    'DeleteJob',
    typedUnary(pps_v2.DeleteJobRequestSchema, async (req) => {
      const job = getJob(req.job, 'job');
      await runner.stopJob(job, 'the job was deleted');
      store.deleteJob(job.rowid);
      logs.deleteJob(job.id, job.project, job.pipeline);
      return {};
    }),
  );

  // ---- datums ---------------------------------------------------------------------------

  add(
    'ListDatum',
    typedStream(pps_v2.ListDatumRequestSchema, async function* (req) {
      if (req.input)
        throw unimplemented('ListDatum with an input (no job) is not implemented yet; pass a job');
      const job = getJob(req.job, 'job');
      const states = (req.filter?.state ?? []).map((s, i) => {
        const name = datumStates[s];
        if (!name)
          throw invalidArgument(`filter.state[${i}] must be one of ${datumStates.join(', ')}`);
        return name;
      });
      let datums = store.datums(job.rowid).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      if (states.length > 0) datums = datums.filter((d) => states.includes(d.state));
      const reverse = req.reverse;
      if (reverse) datums.reverse();
      const marker = req.paginationMarker;
      if (marker) datums = datums.filter((d) => (reverse ? d.id < marker : d.id > marker));
      const number = safeNumber(req.number, 'number');
      if (number > 0) datums = datums.slice(0, number);
      for (const datum of datums) yield messages.datumInfo(job, datum);
    }),
  );

  add(
    'InspectDatum',
    typedUnary(pps_v2.InspectDatumRequestSchema, async (req) => {
      const job = getJob(req.datum?.job, 'datum.job');
      const id = req.datum?.id ?? '';
      const datum = store.datum(job.rowid, id);
      if (!datum) throw notFound(`datum ${id} not found in job ${job.id}`);
      return messages.datumInfo(job, datum);
    }),
  );

  add(
    'RestartDatum',
    typedUnary(pps_v2.RestartDatumRequestSchema, async (req, signal) => {
      let job = getJob(req.job, 'job');
      if (!isTerminal(job.state)) job = await waitTerminal(job, signal);
      const failed = store
        .datums(job.rowid)
        .filter((d) => d.state === 'FAILED' || d.state === 'RECOVERED');
      const filters = req.dataFilters;
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
    typedStream(pps_v2.GetLogsRequestSchema, async function* (req, signal) {
      const filter: LogFilter = {};
      let followJob: JobRow | undefined;
      if (req.pipeline?.name) {
        const name = pipelineNameOf(req.pipeline, 'pipeline');
        pipelines.getState(name.project, name.name);
        filter.project = name.project;
        filter.pipeline = name.name;
      }
      const datumRef = req.datum;
      if (req.job?.id) followJob = getJob(req.job, 'job');
      else if (datumRef?.job?.id) followJob = getJob(datumRef.job, 'datum.job');
      if (followJob) {
        filter.project = followJob.project;
        filter.pipeline = followJob.pipeline;
        filter.jobId = followJob.id;
      }
      if (datumRef?.id) filter.datumId = datumRef.id;
      filter.master = req.master;
      const sinceMs = req.since ? durationMs(req.since) : 0;
      if (sinceMs > 0) filter.sinceMs = Date.now() - sinceMs;
      const dataFilters = req.dataFilters;
      const tail = safeNumber(req.tail, 'tail');
      const follow = req.follow;

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
    typedUnary(pps_v2.CreateSecretRequestSchema, async (req) => {
      secrets.create(Buffer.from(req.file.buffer, req.file.byteOffset, req.file.byteLength));
      return {};
    }),
  );

  add(
    'ListSecret',
    typedUnary(EmptySchema, async () => ({
      secretInfo: secrets.list().map((row) => messages.secretInfo(row)),
    })),
  );

  add(
    'InspectSecret',
    typedUnary(pps_v2.InspectSecretRequestSchema, async (req) =>
      messages.secretInfo(secrets.get(req.secret?.name ?? '')),
    ),
  );

  add(
    'DeleteSecret',
    typedUnary(pps_v2.DeleteSecretRequestSchema, async (req) => {
      secrets.delete(req.secret?.name ?? '');
      return {};
    }),
  );

  // ---- defaults -------------------------------------------------------------------------

  add(
    'GetClusterDefaults',
    typedUnary(pps_v2.GetClusterDefaultsRequestSchema, async () => ({
      clusterDefaultsJson: store.clusterDefaults(),
    })),
  );

  add(
    'SetClusterDefaults',
    typedUnary(pps_v2.SetClusterDefaultsRequestSchema, async (req) => {
      const affected = await pipelines.applyDefaults('cluster', req.clusterDefaultsJson, {
        regenerate: req.regenerate,
        reprocess: req.reprocess,
        dryRun: req.dryRun,
      });
      return { affectedPipelines: affected.map((p) => pipelineMessage(p.project, p.name)) };
    }),
  );

  add(
    'GetProjectDefaults',
    typedUnary(pps_v2.GetProjectDefaultsRequestSchema, async (req) => {
      const project = projectNameOf(req.project);
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
    typedUnary(pps_v2.SetProjectDefaultsRequestSchema, async (req) => {
      const project = projectNameOf(req.project);
      pfs.getProject(project);
      const affected = await pipelines.applyDefaults({ project }, req.projectDefaultsJson, {
        regenerate: req.regenerate,
        reprocess: req.reprocess,
        dryRun: req.dryRun,
      });
      return { affectedPipelines: affected.map((p) => pipelineMessage(p.project, p.name)) };
    }),
  );

  // ---- cluster-only calls ---------------------------------------------------------------

  // RunLoadTest(Default) and RenderTemplate: load-test.ts and render-template.ts.
  for (const method of ['GetKubeEvents', 'QueryLoki']) add(method, needsCluster(method));
}
