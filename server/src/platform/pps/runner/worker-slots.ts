import type { WorkerSlotStatus } from '../pps-messages.ts';
import type { JobRow } from '../pps-store.ts';

/**
 * What each worker slot of a running job is doing: the equivalent of pachd's worker status
 * (a worker pod's current job and datum, in InspectJob's details), and what RestartDatum
 * restarts (pachd cancels a worker's current datum when it matches the filters; the worker
 * then runs it again).
 */

interface SlotDatum {
  workerId: string;
  jobId: string;
  data: { path: string; hash: string }[];
  started: number;
  /** Aborts this run of the datum (not its job): the slot runs it again. */
  restart: AbortController;
}

/** pachd's MatchDatum: every filter is some input's path or hash (hex or base64). */
export function matchesFilters(
  filters: readonly string[],
  data: readonly { path: string; hash: string }[],
): boolean {
  return filters.every((filter) =>
    data.some(
      (d) =>
        d.path === filter ||
        d.hash === filter ||
        (d.hash !== '' && Buffer.from(d.hash, 'hex').toString('base64') === filter),
    ),
  );
}

export class WorkerSlots {
  /** By job row, then by slot. */
  private readonly jobs = new Map<number, Map<string, SlotDatum>>();

  /** A slot starts (or restarts) a datum. */
  begin(job: JobRow, slot: string, datum: Omit<SlotDatum, 'jobId'>): void {
    let slots = this.jobs.get(job.rowid);
    if (!slots) this.jobs.set(job.rowid, (slots = new Map()));
    slots.set(slot, { ...datum, jobId: job.id });
  }

  /** A slot is done with its datum. */
  end(job: JobRow, slot: string): void {
    const slots = this.jobs.get(job.rowid);
    slots?.delete(slot);
    if (slots?.size === 0) this.jobs.delete(job.rowid);
  }

  /** The job's slots with a datum on their way, in slot order. */
  status(job: JobRow): WorkerSlotStatus[] {
    const slots = this.jobs.get(job.rowid);
    if (!slots) return [];
    return [...slots.values()]
      .sort((a, b) => a.workerId.localeCompare(b.workerId, 'en', { numeric: true }))
      .map((s) => ({
        workerId: s.workerId,
        jobId: s.jobId,
        datum: { data: s.data, started: s.started },
      }));
  }

  /** Restarts the job's running datums that match `filters`; whether there was one. */
  restart(job: JobRow, filters: readonly string[]): boolean {
    let found = false;
    for (const datum of this.jobs.get(job.rowid)?.values() ?? [])
      if (matchesFilters(filters, datum.data)) {
        datum.restart.abort();
        found = true;
      }
    return found;
  }
}
