// The datum methods of pps_v2.API: list and inspect a job's datums, restart its failed ones.
import { randomBytes } from 'node:crypto';
import { failedPrecondition, invalidArgument, notFound, unimplemented } from '../../errors.ts';
import { pps_v2 } from '@ivory/api/proto';
import { safeNumber, typedStream, typedUnary } from '../typed-method.ts';
import type { DatumFile } from './datums.ts';
import type { PpsApiContext } from './pps-api-context.ts';
import { datumStates, isTerminal } from './pps-store.ts';

/** Registers the datum methods of pps_v2.API. */
export function registerDatumApi(api: PpsApiContext): void {
  const { store, runner, pipelines, messages, add, getJob, waitTerminal } = api;

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
}
