import type { pfs_v2 } from '@ivory/api/proto';
import { normalisePath } from './file-paths.ts';
import type { RepoRef } from './pfs-store.ts';
import { defaultProject, type BranchRef, type CommitRef, type FileRef } from './pfs-requests.ts';
import type { RepoType } from './rows.ts';

/**
 * The pfs sub-messages of a generated request (typed-method.ts) as the store's references
 * (pfs-requests.ts). Unset parts read as empty, as in JSON.
 */

export const projectNameOf = (project: pfs_v2.Project | undefined): string =>
  project?.name || defaultProject;

/** The `projects` pickers of a summary request: the names they pick, or every project. */
export function projectPickerNamesOrAll(
  pickers: readonly pfs_v2.ProjectPicker[],
  allProjects: () => string[],
): string[] {
  if (pickers.length === 0) return allProjects();
  return pickers.map((picker) => picker.picker.value || defaultProject);
}

export function repoRefOf(repo: pfs_v2.Repo | undefined): RepoRef {
  return {
    name: repo?.name ?? '',
    type: (repo?.type || 'user') as RepoType,
    project: projectNameOf(repo?.project),
  };
}

export function branchRefOf(branch: pfs_v2.Branch | undefined): BranchRef {
  return { repo: repoRefOf(branch?.repo), name: branch?.name ?? '' };
}

/**
 * A Commit message resolved as pachd resolves it (Commit.AccessRepo): its own `repo`, else its
 * `branch.repo`, else `requestRepo` (the repo of the request that carries it).
 */
export function commitRefOf(commit: pfs_v2.Commit | undefined, requestRepo?: RepoRef): CommitRef {
  const own = commit?.repo;
  const ofBranch = commit?.branch?.repo;
  const repo = own?.name
    ? repoRefOf(own)
    : ofBranch?.name
      ? repoRefOf(ofBranch)
      : (requestRepo ?? repoRefOf(own ?? ofBranch));
  return { repo, id: commit?.id ?? '', branch: commit?.branch?.name ?? '' };
}

/** Whether an optional Commit message names a commit at all (an id or a branch). */
export const namesCommitOf = (commit: pfs_v2.Commit | undefined): commit is pfs_v2.Commit =>
  Boolean(commit?.id || commit?.branch?.name);

export function fileRefOf(file: pfs_v2.File | undefined): FileRef {
  return { commit: commitRefOf(file?.commit), path: normalisePath(file?.path ?? '') };
}

/** A pagination marker keeps a folder's trailing slash so it compares like stored paths. */
export function markerPathOf(marker: pfs_v2.File | undefined): string | null {
  const raw = marker?.path ?? '';
  if (!raw) return null;
  const path = normalisePath(raw);
  return raw.endsWith('/') && path !== '/' ? path + '/' : path;
}
