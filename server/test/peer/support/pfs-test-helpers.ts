/**
 * Helpers of Pachyderm's pfs server tests (`src/server/pfs/server/testing/common.go` and the top
 * of `server_test.go`), for their ports in `../pfs/`.
 */
import { pfs_v2 } from '@ivory/api/proto';
import { expect } from 'vitest';
import type { Commit, FileInfo, PeerClient } from './peer-client.ts';

/** Go's `finishProjectCommit`: FinishCommit (already finished is fine), then WaitCommit. */
export async function finishProjectCommit(
  c: PeerClient,
  project: string,
  repoName: string,
  branchName: string,
  id: string,
) {
  try {
    await c.finishCommit(project, repoName, branchName, id);
  } catch (error) {
    if (!/commit \S+ has already finished/.test((error as Error).message)) throw error;
  }
  return c.waitCommit(project, repoName, branchName, id);
}

/** Go's `finishCommit`: finishProjectCommit in the project "default". */
export function finishCommit(c: PeerClient, repoName: string, branchName: string, id: string) {
  return finishProjectCommit(c, 'default', repoName, branchName, id);
}

/** Go's `finfosToPaths`. */
export const paths = (infos: readonly FileInfo[]) => infos.map((info) => info.file?.path ?? '');

/** A commit without its branch, as pachd answers commits (Go's `commitEqualIgnoringBranch`). */
export function withoutBranch(commit: Commit | undefined) {
  return { project: commit?.repo?.project?.name, repo: commit?.repo?.name, id: commit?.id };
}

/** Go's `require.Equal(expectedCommit, actualCommit)` on the fields a commit is named by. */
export function expectSameCommit(actual: Commit | undefined, expected: Commit | undefined) {
  expect(withoutBranch(actual)).toEqual(withoutBranch(expected));
  expect(actual?.branch?.name ?? '').toBe(expected?.branch?.name ?? '');
}

export const { FileType, CommitState } = pfs_v2;

/** Random printable text of `length` characters (Go's `random.String`). */
export function randomText(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(Math.random() * alphabet.length)];
  return text;
}
