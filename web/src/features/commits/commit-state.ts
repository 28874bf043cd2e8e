import type { CommitInfo } from '@ivory/api';

export type CommitStateLabel = 'open' | 'finishing' | 'finished' | 'failed';

/** A commit's state as the list shows it. */
export function commitState(
  info: Pick<CommitInfo, 'error' | 'finished' | 'finishing'>,
): CommitStateLabel {
  if (info.error) return 'failed';
  if (info.finished) return 'finished';
  if (info.finishing) return 'finishing';
  return 'open';
}

export const stateColors: Record<CommitStateLabel, string> = {
  open: 'blue',
  finishing: 'gold',
  finished: 'green',
  failed: 'red',
};

export function originLabel(info: Pick<CommitInfo, 'origin'>): string {
  const kind = info.origin?.kind ?? 'ORIGIN_KIND_UNKNOWN';
  return kind === 'ORIGIN_KIND_UNKNOWN' ? 'unknown' : kind.toLowerCase();
}
