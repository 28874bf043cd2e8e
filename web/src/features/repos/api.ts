import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createRepo,
  deleteRepo,
  editMetadata,
  inspectProject,
  listBranches,
  listCommits,
  listRepos,
  repoPicker,
  reposSummary,
} from '@ivory/api';
import { useApi } from '../../app/api-context.tsx';
import { queryKeys } from '../../app/query-keys.ts';

export function useRepos(project: string, enabled = true) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.repos(project),
    queryFn: ({ signal }) => listRepos(client, { projects: [project], type: 'user' }, signal),
    enabled,
  });
}

/**
 * One page of the project's user repos in the platform's order (ListRepo `page`): the list draws
 * its first rows from this one small answer instead of listing every repo first.
 */
export function useRepoPage(project: string, pageIndex: number, pageSize: number, enabled = true) {
  const client = useApi();
  return useQuery({
    queryKey: [...queryKeys.repos(project), '@page', pageSize, pageIndex] as const,
    queryFn: ({ signal }) =>
      listRepos(
        client,
        { projects: [project], type: 'user', page: { pageSize, pageIndex } },
        signal,
      ),
    enabled,
    placeholderData: (previous) => previous,
  });
}

/** How many user repos the project holds (ReposSummary), for the pager and the header. */
export function useRepoCount(project: string) {
  const client = useApi();
  return useQuery({
    queryKey: [...queryKeys.repos(project), '@count'] as const,
    queryFn: async ({ signal }) => {
      const [summary] = await reposSummary(client, [project], signal);
      return Number(summary?.userRepoCount ?? 0);
    },
  });
}

export function useBranches(project: string, repo: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.branches(project, repo),
    queryFn: ({ signal }) => listBranches(client, { project, repo }, signal),
  });
}

export function useProject(project: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.project(project),
    queryFn: ({ signal }) => inspectProject(client, project, signal),
    retry: false,
  });
}

/** The newest commits of a repo over every branch (ListCommit without `to`). */
export function useRecentCommits(project: string, repo: string, number: number) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.recentCommits(project, repo, number),
    queryFn: ({ signal }) => listCommits(client, { project, repo, number }, signal),
    retry: false,
  });
}

export function useCreateRepo(project: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { repo: string; description: string }) =>
      createRepo(client, { project, ...args }),
    onSuccess: () => invalidateProject(queryClient, project),
  });
}

export function useDeleteRepo(project: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (repo: string) => deleteRepo(client, { project, repo }),
    onSuccess: () => invalidateProject(queryClient, project),
  });
}

/** Replaces a repo's labels (metadata) with EditMetadata `replace`. */
export function useEditRepoLabels(project: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { repo: string; labels: Record<string, string> }) =>
      editMetadata(client, {
        edits: [
          {
            repo: repoPicker({ project, repo: args.repo }),
            replace: { replacement: args.labels },
          },
        ],
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.repos(project) }),
  });
}

function invalidateProject(queryClient: ReturnType<typeof useQueryClient>, project: string) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.projects() });
  return queryClient.invalidateQueries({ queryKey: queryKeys.repos(project) });
}
