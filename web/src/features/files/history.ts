import {
  ApiError,
  findCommits,
  inspectCommit,
  inspectFile,
  type ApiClient,
  type CommitInfo,
  type FindCommitsLine,
} from '@ivory/api';

export const HISTORY_PAGE_SIZE = 20;

export interface FileChange {
  commit: CommitInfo;
  change: 'added' | 'changed' | 'deleted';
}

export interface HistoryPage {
  changes: FileChange[];
  /** Commit to continue the search from; null when the search reached the root commit. */
  next: string | null;
}

/** What FindCommits answered: the ids of the commits found, newest first, and where it stopped. */
export interface FoundCommits {
  found: string[];
  lastSearched: string | null;
}

export function readFindCommits(lines: readonly FindCommitsLine[]): FoundCommits {
  const found: string[] = [];
  let lastSearched: string | null = null;
  for (const line of lines) {
    if (line.foundCommit) found.push(line.foundCommit.id);
    if (line.lastSearchedCommit) lastSearched = line.lastSearchedCommit.id;
  }
  return { found, lastSearched };
}

/**
 * Where the next page starts. FindCommits walks back from its start and stops right after the
 * `limit`-th commit found (that commit is then the last searched); with fewer found it reached
 * the root. So there is more only when the page is full, and it continues from the parent of the
 * last searched commit (none: that commit was the root).
 */
export function nextHistoryStart(
  result: FoundCommits,
  limit: number,
  parentOf: (commitId: string) => string | null,
): string | null {
  if (result.found.length < limit || !result.lastSearched) return null;
  return parentOf(result.lastSearched);
}

/** The kind of change a found commit made, from whether the file is there and in its parent. */
export function changeKind(inCommit: boolean, inParent: boolean): FileChange['change'] {
  if (!inCommit) return 'deleted';
  return inParent ? 'changed' : 'added';
}

async function exists(
  client: ApiClient,
  ref: { project: string; repo: string; commitId: string; path: string },
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    return (await inspectFile(client, ref, signal)) !== null;
  } catch (error) {
    if (error instanceof ApiError && error.code === 5) return false;
    throw error;
  }
}

/**
 * One page of a file's history: FindCommits from `fromCommitId` (at most `HISTORY_PAGE_SIZE`
 * found), then each found commit's facts (InspectCommit) and whether the file is there and in its
 * parent (InspectFile), to tell added / changed / deleted.
 */
export async function fileHistoryPage(
  client: ApiClient,
  args: { project: string; repo: string; path: string; fromCommitId: string },
  signal?: AbortSignal,
): Promise<HistoryPage> {
  const { project, repo, path } = args;
  const lines = await findCommits(
    client,
    { start: { project, repo, commitId: args.fromCommitId }, path, limit: HISTORY_PAGE_SIZE },
    signal,
  );
  const result = readFindCommits(lines);
  const changes = await Promise.all(
    result.found.map(async (commitId): Promise<FileChange> => {
      const info = await inspectCommit(client, { project, repo, commitId }, undefined, signal);
      if (!info) throw new Error(`commit ${commitId} not found`);
      const parentId = info.parentCommit?.id;
      const [here, before] = await Promise.all([
        exists(client, { project, repo, commitId, path }, signal),
        parentId ? exists(client, { project, repo, commitId: parentId, path }, signal) : false,
      ]);
      return { commit: info, change: changeKind(here, before) };
    }),
  );
  const parents = new Map(
    changes.map((change) => [change.commit.commit.id, change.commit.parentCommit?.id ?? null]),
  );
  const next = nextHistoryStart(result, HISTORY_PAGE_SIZE, (id) => parents.get(id) ?? null);
  return { changes, next };
}
