import { readObject, readOptionalObject, readString, type WireObject } from '../wire.ts';
import { normalisePath } from './file-paths.ts';
import type { PfsStore, RepoRef } from './pfs-store.ts';
import type { CommitRow, RepoRow, RepoType } from './rows.ts';

/**
 * Readers for the pfs request sub-messages (Project, Repo, Commit, File) of the methods still on
 * JSON (GetFile, GetFileTAR, ModifyFile); typed methods use pfs-refs.ts.
 */

export const defaultProject = 'default';

export function readProjectName(value: unknown, field: string): string {
  return readString(readObject(value, field).name, `${field}.name`) || defaultProject;
}

export function readRepoRef(value: unknown, field: string): RepoRef {
  const repo = readObject(value, field);
  return {
    name: readString(repo.name, `${field}.name`),
    type: (readString(repo.type, `${field}.type`) || 'user') as RepoType,
    project: readProjectName(repo.project, `${field}.project`),
  };
}

export interface BranchRef {
  repo: RepoRef;
  name: string;
}

export interface CommitRef {
  repo: RepoRef;
  id: string;
  branch: string;
}

/**
 * A Commit message, resolved as pachd resolves it (Commit.AccessRepo): the repo is the
 * commit's own `repo`, else its `branch.repo`, else `requestRepo` — the repo of the request
 * that carries the reference (ListCommit's `repo`, CreateBranch's branch, …). A repo counts as
 * given when it has a name.
 */
export function readCommitRef(value: unknown, field: string, requestRepo?: RepoRef): CommitRef {
  const commit = readObject(value, field);
  const branch = readOptionalObject(commit.branch, `${field}.branch`);
  const ownRepo = readOptionalObject(commit.repo, `${field}.repo`);
  const branchRepo = branch ? readOptionalObject(branch.repo, `${field}.branch.repo`) : null;
  const named = (repo: WireObject | null, at: string) =>
    repo !== null && readString(repo.name, `${at}.name`) !== '';
  let repo: RepoRef;
  if (named(ownRepo, `${field}.repo`)) repo = readRepoRef(ownRepo, `${field}.repo`);
  else if (named(branchRepo, `${field}.branch.repo`))
    repo = readRepoRef(branchRepo, `${field}.branch.repo`);
  else if (requestRepo) repo = requestRepo;
  else repo = readRepoRef(ownRepo ?? branchRepo, `${field}.repo`);
  return {
    repo,
    id: readString(commit.id, `${field}.id`),
    branch: branch ? readString(branch.name, `${field}.branch.name`) : '',
  };
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

export function readFileRef(value: unknown, field: string): FileRef {
  const file: WireObject = readObject(value, field);
  return {
    commit: readCommitRef(file.commit, `${field}.commit`),
    path: normalisePath(readString(file.path, `${field}.path`)),
  };
}
