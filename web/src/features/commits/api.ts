import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { inspectCommit, listCommits, type CommitInfo } from '@ivory/api';
import { useApi } from '../../app/api-context.tsx';
import { queryKeys } from '../../app/query-keys.ts';

export const COMMIT_PAGE_SIZE = 50;

/**
 * A branch's commits, newest first, one page of ListCommit at a time: each page walks back
 * from the parent of the previous page's last commit.
 */
export function useBranchCommits(project: string, repo: string, branch: string) {
  const client = useApi();
  return useInfiniteQuery({
    queryKey: queryKeys.commits(project, repo, branch),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      listCommits(
        client,
        {
          project,
          repo,
          to: pageParam
            ? { project, repo, commitId: pageParam }
            : { project, repo, commitId: '', branch },
          number: COMMIT_PAGE_SIZE,
        },
        signal,
      ),
    getNextPageParam: nextCommitPage,
    enabled: branch !== '',
  });
}

export function nextCommitPage(lastPage: CommitInfo[]): string | null {
  const last = lastPage[lastPage.length - 1];
  if (lastPage.length < COMMIT_PAGE_SIZE || !last?.parentCommit) return null;
  return last.parentCommit.id;
}

export function useCommit(project: string, repo: string, commitId: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.commit(project, repo, commitId),
    queryFn: async ({ signal }) => {
      const info = await inspectCommit(client, { project, repo, commitId }, undefined, signal);
      if (!info) throw new Error(`commit ${commitId} not found`);
      return info;
    },
  });
}
