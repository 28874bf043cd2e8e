import type { PfsStore, RepoRef } from './pfs-store.ts';
import type { CommitRow, RepoRow } from './rows.ts';

/**
 * The store's references to pfs objects (what pfs-refs.ts reads from a request's Branch, Commit
 * and File messages) and their resolution.
 */

export const defaultProject = 'default';

export interface BranchRef {
  repo: RepoRef;
  name: string;
}

export interface CommitRef {
  repo: RepoRef;
  id: string;
  branch: string;
}

export function resolveCommitRef(
  store: PfsStore,
  ref: CommitRef,
): { repo: RepoRow; commit: CommitRow } {
  const repo = store.getRepo(ref.repo);
  return { repo, commit: store.resolveCommit(repo, ref.id, ref.branch) };
}

export interface FileRef {
  commit: CommitRef;
  path: string;
}
