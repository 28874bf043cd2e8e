import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dropCommit, inspectCommit, listCommits, squashCommit, type CommitInfo } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { queryKeys } from '../../data/query-keys.ts';
import { needsRecursive, type RemovalMode } from './commit-removal.ts';

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

/**
 * Squashes or drops one commit (recursive when it has downstream commits), then resolves with the
 * head commit id of its branch ('' when it has no branch).
 */
export function useRemoveCommit(project: string, repo: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ info, mode }: { info: CommitInfo; mode: RemovalMode }) => {
      const ref = { project, repo, commitId: info.commit.id };
      const recursive = needsRecursive(info);
      if (mode === 'squash') await squashCommit(client, ref, recursive);
      else await dropCommit(client, ref, recursive);
      const branch = info.commit.branch?.name ?? '';
      if (!branch) return '';
      const head = await inspectCommit(client, { project, repo, commitId: '', branch });
      return head?.commit.id ?? '';
    },
    onSuccess: (_head, { info }) => {
      // The removed commit is gone: forget it rather than refetch it (a refetch would fail while
      // its screen is still shown), then refresh the rest of the repo.
      queryClient.removeQueries({ queryKey: queryKeys.commit(project, repo, info.commit.id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.repo(project, repo) });
    },
  });
}
