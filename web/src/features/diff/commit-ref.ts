import type { CommitInfo } from '@ivory/api';

/** A commit ID's length: 32 hex digits. The console shows the first 8. */
export const COMMIT_ID_LENGTH = 32;
/** Fewer hex digits than this are not taken as the start of an ID. */
export const MIN_ID_PREFIX = 4;

export type ResolvedCommit = { id: string } | { error: string };

/**
 * What the user typed in "Compare with commit", as a commit to compare with: '' (the parent), a
 * whole ID, or the start of one (the 8 characters shown everywhere) matched against the repo's
 * commits — exactly one must match. Anything else (a branch, `master^2`) is passed on as typed.
 */
export function resolveCommitRef(
  typed: string,
  commits: readonly Pick<CommitInfo, 'commit'>[],
): ResolvedCommit {
  const text = typed.trim();
  if (text === '') return { id: '' };
  const hex = /^[0-9a-f]+$/i.test(text);
  if (!hex || text.length === COMMIT_ID_LENGTH) return { id: text };
  if (text.length < MIN_ID_PREFIX)
    return { error: `Type at least ${MIN_ID_PREFIX} characters of a commit ID.` };
  const prefix = text.toLowerCase();
  const ids = [
    ...new Set(commits.map((info) => info.commit?.id ?? '').filter((id) => id.startsWith(prefix))),
  ];
  if (ids.length === 1) return { id: ids[0]! };
  if (ids.length === 0) return { error: `No commit of this repo starts with ${text}.` };
  return { error: `${text} starts ${ids.length} commits: type more of the ID.` };
}
