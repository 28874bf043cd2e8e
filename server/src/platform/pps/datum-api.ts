// The datum methods of pps_v2.API: list and inspect a job's datums, restart its failed ones.
import { randomBytes } from 'node:crypto';
import { invalidArgument, notFound } from '../../errors.ts';
import { pps_v2 } from '@ivory/api/proto';
import { safeNumber, typedStream, typedUnary } from '../typed-method.ts';
import type { DatumFile } from './datums.ts';
import { plannedDatums } from './datum-preview.ts';
import type { PpsApiContext } from './pps-api-context.ts';
import { datumStates, isTerminal, type DatumRow } from './pps-store.ts';

/** Registers the datum methods of pps_v2.API. */
export function registerDatumApi(api: PpsApiContext): void {
  const { pfs, store, runner, pipelines, messages, add, getJob, waitTerminal } = api;

  // Over a job: its datums. Over an input (a dry run, before any pipeline exists): the datums
  // it would make of its branches' heads, with no job and state UNKNOWN (an input's `commit` is
  // ignored, as pachd ignores it). Both ordered by ID: `paginationMarker` and `number` page
  // forward; `reverse` (which needs `number`) pages backward from the marker, newest first.
  add(
    'ListDatum',
    typedStream(pps_v2.ListDatumRequestSchema, async function* (req) {
      if (req.job && req.input) throw invalidArgument('cannot specify both job and input');
      const number = safeNumber(req.number, 'number');
      if (number === 0 && req.reverse)
        throw invalidArgument('number must be > 0 when reverse is set');
      const states = (req.filter?.state ?? []).map((s, i) => {
        const name = datumStates[s];
        if (!name)
          throw invalidArgument(`filter.state[${i}] must be one of ${datumStates.join(', ')}`);
        return name;
      });
      const page = <T extends { id: string; state: string }>(datums: T[]): T[] => {
        let kept = datums.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        if (states.length > 0) kept = kept.filter((d) => states.includes(d.state as never));
        const marker = req.paginationMarker;
        if (req.reverse) {
          if (marker) kept = kept.filter((d) => d.id < marker);
          return kept.slice(-number).reverse();
        }
        if (marker) kept = kept.filter((d) => d.id > marker);
        return number > 0 ? kept.slice(0, number) : kept;
      };
      if (req.input) {
        const planned = plannedDatums(pfs, req.input).map((d) => ({ ...d, state: 'UNKNOWN' }));
        for (const datum of page(planned)) yield messages.plannedDatumInfo(datum.id, datum.files);
        return;
      }
      const job = getJob(req.job, 'job');
      for (const datum of page(store.datums(job.rowid))) yield messages.datumInfo(job, datum);
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

  // As pachd: a datum of the job running now that matches the filters (every filter an input's
  // path or hash) is stopped and run again. Beyond pachd: once the job has ended (waiting for it
  // when it has failed datums that match), its failed datums run again in a new job over the
  // same input commits, the others skipped (the console's "Restart failed datums").
  add(
    'RestartDatum',
    typedUnary(pps_v2.RestartDatumRequestSchema, async (req, signal) => {
      let job = getJob(req.job, 'job');
      const filters = req.dataFilters;
      if (!isTerminal(job.state) && runner.workers.restart(job, filters)) return {};
      const matches = (d: DatumRow) =>
        filters.length === 0 ||
        filters.some(
          (f) => d.id === f || (JSON.parse(d.data) as DatumFile[]).some((file) => file.path === f),
        );
      const failed = () =>
        store
          .datums(job.rowid)
          .filter((d) => (d.state === 'FAILED' || d.state === 'RECOVERED') && matches(d));
      if (!isTerminal(job.state) && failed().length > 0) job = await waitTerminal(job, signal);
      const chosen = isTerminal(job.state) ? failed() : [];
      if (chosen.length === 0)
        throw notFound(
          `datum matching filter [${filters.join(' ')}] could not be found for job ID ${job.id}`,
        );
      const state = pipelines.getState(job.project, job.pipeline);
      const inputs = job.input_commits ? JSON.parse(job.input_commits) : null;
      // A new job over the same input commits: datums that succeeded are reused (SKIPPED).
      runner.createJob(state, randomBytes(16).toString('hex'), inputs);
      return {};
    }),
  );
}
