import type { CommitInfo } from '@ivory/api';

export type RemovalMode = 'squash' | 'drop';

/** SquashCommit / DropCommit need `recursive` when the commit has downstream commits. */
export function needsRecursive(info: CommitInfo): boolean {
  return (info.directSubvenance ?? []).length > 0;
}

/** Why the action is not offered for this commit (the server would refuse it: code 9), or null. */
export function removalBlocked(info: CommitInfo, mode: RemovalMode): string | null {
  if (!info.finished) return 'The commit is not finished yet.';
  if (info.commit.repo.type === 'spec') return 'A pipeline version cannot be squashed or dropped.';
  const children = info.childCommits ?? [];
  if (mode === 'drop' && children.length > 0)
    return 'Only the newest commits of a branch can be dropped: this one has children.';
  if (mode === 'squash' && children.length === 0)
    return 'A commit without children cannot be squashed: its changes would have nowhere to go.';
  return null;
}

/** The confirmation text: what the action does to this commit and its downstream commits. */
export function removalText(info: CommitInfo, mode: RemovalMode): string {
  const id = info.commit.id.slice(0, 8);
  const downstream = needsRecursive(info)
    ? ` Its ${info.directSubvenance.length} downstream commit(s) in other repos are included.`
    : '';
  return mode === 'squash'
    ? `Squash commit ${id}? It is removed from the history and its changes are merged into its children: nothing is lost.${downstream}`
    : `Drop commit ${id}? It is removed together with its data and its downstream commits; the branch moves back to its parent. Only the newest commits can be dropped.${downstream}`;
}
