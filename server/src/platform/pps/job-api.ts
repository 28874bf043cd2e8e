// The job methods of pps_v2.API: inspect, list, subscribe to, stop and delete jobs and job sets.
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { pps_v2 } from '@ivory/api/proto';
import { commitRefOf } from '../pfs/pfs-refs.ts';
import { resolveCommitRef } from '../pfs/pfs-requests.ts';
import { safeNumber, typedStream, typedUnary } from '../typed-method.ts';
import { waitForWake } from '../wait.ts';
import { jqPredicate, keepMatching, type JqPredicate } from './jq-filter.ts';
import { nextEvent, pipelineNameOf, projectNames, type PpsApiContext } from './pps-api-context.ts';
import { isTerminal, type JobRow } from './pps-store.ts';

/** Registers the job methods of pps_v2.API. */
export function registerJobApi(api: PpsApiContext): void {
  const { pfs, store, runner, pipelines, logs, messages, add, getJob, waitTerminal } = api;

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
    // As pachd: the jobs of a pipeline that does not exist (or no longer) are an error.
    if (pipeline) pipelines.getState(pipeline.project, pipeline.name);
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
}
