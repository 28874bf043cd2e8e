import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createRepo,
  deleteRepo,
  editMetadata,
  listBranches,
  listCommits,
  listRepos,
  repoPicker,
} from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { queryKeys } from '../../data/query-keys.ts';
import { projectQuery, repoCountQuery, repoPageQuery } from './queries.ts';
import { loadRepoHead } from './repo-heads.ts';

export function useRepos(project: string, enabled = true) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.repos(project),
    queryFn: ({ signal }) => listRepos(client, { projects: [project], type: 'user' }, signal),
    enabled,
  });
}

export function useRepoPage(project: string, pageIndex: number, pageSize: number, enabled = true) {
  const client = useApi();
  return useQuery({
    ...repoPageQuery(client, project, pageIndex, pageSize),
    enabled,
    placeholderData: (previous) => previous,
  });
}

export function useRepoCount(project: string) {
  return useQuery(repoCountQuery(useApi(), project));
}

export function useBranches(project: string, repo: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.branches(project, repo),
    queryFn: ({ signal }) => listBranches(client, { project, repo }, signal),
  });
}

export function useProject(project: string) {
  return useQuery(projectQuery(useApi(), project));
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

/**
 * A repo's newest commit on any branch (the list's "Last commit"): the rows of a page share one
 * ListRepoHeads call (repo-heads.ts).
 */
export function useRepoHead(project: string, repo: string) {
  const client = useApi();
  return useQuery({
    queryKey: [...queryKeys.repos(project), '@head', repo] as const,
    queryFn: () => loadRepoHead(client, project, repo),
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
