import { ApiError, inspectFile, listCommits, type ApiClient, type CommitInfo } from '@ivory/api';

export const HISTORY_PAGE_SIZE = 20;

/** A commit in a file's walk with the file's content hash there (null: absent). */
export interface FileAtCommit {
  commit: CommitInfo;
  hash: string | null;
}

export interface FileChange {
  commit: CommitInfo;
  change: 'added' | 'changed' | 'deleted';
}

/**
 * The commits that changed a file, from a walk ordered newest first. Each entry is compared with
 * the next (older) one; `older` is the entry just past the walk (undefined: the walk reached the
 * root commit, so the file was added where it first appears).
 */
export function fileChanges(walk: readonly FileAtCommit[], older?: FileAtCommit): FileChange[] {
  const changes: FileChange[] = [];
  walk.forEach((entry, index) => {
    const previous = walk[index + 1] ?? older;
    const before = previous ? previous.hash : null;
    if (entry.hash === before) return;
    if (entry.hash === null) changes.push({ commit: entry.commit, change: 'deleted' });
    else if (before === null) changes.push({ commit: entry.commit, change: 'added' });
    else changes.push({ commit: entry.commit, change: 'changed' });
  });
  return changes;
}

export interface HistoryPage {
  changes: FileChange[];
  /** Commit to continue the walk from; null at the root. */
  next: string | null;
}

async function hashAt(
  client: ApiClient,
  ref: { project: string; repo: string; commitId: string; path: string },
  signal?: AbortSignal,
): Promise<string | null> {
  try {
    const info = await inspectFile(client, ref, signal);
    return info ? info.hash || `size:${info.sizeBytes}` : null;
  } catch (error) {
    if (error instanceof ApiError && error.code === 5) return null;
    throw error;
  }
}

/**
 * One page of a file's history: ListCommit walks back `HISTORY_PAGE_SIZE` commits (plus one to
 * compare the last with) from `fromCommitId`, InspectFile reads the file's hash in each.
 */
export async function fileHistoryPage(
  client: ApiClient,
  args: { project: string; repo: string; path: string; fromCommitId: string },
  signal?: AbortSignal,
): Promise<HistoryPage> {
  const { project, repo, path } = args;
  const commits = await listCommits(
    client,
    {
      project,
      repo,
      to: { project, repo, commitId: args.fromCommitId },
      number: HISTORY_PAGE_SIZE + 1,
    },
    signal,
  );
  const hashes = await Promise.all(
    commits.map((info) =>
      hashAt(client, { project, repo, commitId: info.commit.id, path }, signal),
    ),
  );
  const walk = commits.map((commit, index) => ({ commit, hash: hashes[index] ?? null }));
  const page = walk.slice(0, HISTORY_PAGE_SIZE);
  const older = walk[HISTORY_PAGE_SIZE];
  return { changes: fileChanges(page, older), next: older ? older.commit.commit.id : null };
}
