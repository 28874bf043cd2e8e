// GetLogs of pps_v2.API: stored log lines by pipeline, job or datum, filtered, and followed live.
import { durationMs } from '@bufbuild/protobuf/wkt';
import { pps_v2 } from '@ivory/api/proto';
import { invalidArgument, notFound } from '../../errors.ts';
import { projectNameOf } from '../pfs/pfs-refs.ts';
import { safeNumber, typedStream } from '../typed-method.ts';
import { waitForWake } from '../wait.ts';
import { datumMatches, type DatumFile } from './datums.ts';
import { matchesFilters } from './runner/worker-slots.ts';
import type { LogFilter, LogLine } from './logs.ts';
import { pipelineNameOf, type PpsApiContext } from './pps-api-context.ts';
import { isTerminal, type JobRow } from './pps-store.ts';

const samePipeline = (a: pps_v2.Pipeline | undefined, b: pps_v2.Pipeline | undefined) =>
  a?.name === b?.name && projectNameOf(a?.project) === projectNameOf(b?.project);

/** Registers GetLogs of pps_v2.API. */
export function registerLogApi(api: PpsApiContext): void {
  const { store, runner, logs, messages, add, getJob } = api;

  add(
    'GetLogs',
    typedStream(pps_v2.GetLogsRequestSchema, async function* (req, signal) {
      const filter: LogFilter = {};
      let followJob: JobRow | undefined;
      const datumRef = req.datum;
      // As pachd: a datum's logs (by ID or by data) are asked for with its job or pipeline; a
      // job names its pipeline, the same as the request's when both are given.
      if (!req.pipeline && !req.job && (req.dataFilters.length > 0 || datumRef))
        throw invalidArgument(
          'must specify the Job or Pipeline that the datum is from to get logs for it',
        );
      if (req.job && !req.job.pipeline?.name)
        throw invalidArgument('pipeline must be specified for the given job');
      if (req.job && req.pipeline && !samePipeline(req.job.pipeline, req.pipeline))
        throw invalidArgument('job is from the wrong pipeline');
      if (req.pipeline?.name) {
        const name = pipelineNameOf(req.pipeline, 'pipeline');
        if (!store.findState(name.project, name.name))
          throw notFound(
            `could not get pipeline information for ${name.project}/${name.name}: pipeline not found`,
          );
        filter.project = name.project;
        filter.pipeline = name.name;
      }
      if (req.job) {
        try {
          followJob = getJob(req.job, 'job');
        } catch (error) {
          throw notFound(
            `could not get job information for "${req.job.id}": ${(error as Error).message}`,
          );
        }
      } else if (datumRef?.job?.id) followJob = getJob(datumRef.job, 'datum.job');
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
      // A filter is the datum's ID, or (as pachd's) an input's path or hash (hex or base64):
      // a matched path, or a file in it (its full path, or its name).
      const passes = (line: LogLine) =>
        dataFilters.length === 0 ||
        dataFilters.every(
          (f) =>
            line.datumId === f ||
            matchesFilters([f], inputData(line)) ||
            datumData(line).some((d) => d.path === f || d.hash === f || d.path.endsWith(`/${f}`)),
        );
      // The datum's inputs as pachd lists them: each glob match.
      const inputData = (line: LogLine) =>
        datumMatches(datumData(line)).map((m) => ({ path: m.path, hash: m.hash }));
      const render = (line: LogLine) => messages.logMessage(line, inputData(line));

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
}
