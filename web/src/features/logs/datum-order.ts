import type { DatumInfo, DatumState } from '@ivory/api';

/** The order datums list in: failed first, then running, recovered, success and skipped. */
export const datumStateOrder: DatumState[] = [
  'FAILED',
  'STARTING',
  'RECOVERED',
  'SUCCESS',
  'SKIPPED',
  'UNKNOWN',
];

const rank = (state: DatumState) => {
  const at = datumStateOrder.indexOf(state);
  return at === -1 ? datumStateOrder.length : at;
};

/** Datums filtered to the chosen states (all when none chosen), failed first, then by id. */
export function orderDatums(
  datums: readonly DatumInfo[],
  states: readonly DatumState[] = [],
): DatumInfo[] {
  return datums
    .filter((d) => states.length === 0 || states.includes(d.state))
    .sort((a, b) => rank(a.state) - rank(b.state) || a.datum.id.localeCompare(b.datum.id));
}

/** How many datums are in each state (for the filter's labels). */
export function countDatumStates(
  datums: readonly DatumInfo[],
): Partial<Record<DatumState, number>> {
  const counts: Partial<Record<DatumState, number>> = {};
  for (const d of datums) counts[d.state] = (counts[d.state] ?? 0) + 1;
  return counts;
}
