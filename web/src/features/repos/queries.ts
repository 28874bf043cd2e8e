import { queryOptions } from '@tanstack/react-query';
import { inspectProject, listRepos, reposSummary, type ApiClient } from '@ivory/api';
import { queryKeys } from '../../data/query-keys.ts';

/**
 * The route loader's answers stay fresh this long, so the screen mounting just after they
 * arrive does not ask again (edits invalidate them at once as before).
 */
export const LOADED_FRESH_MS = 5_000;

/**
 * One page of the project's user repos in the platform's order (ListRepo `page`): the list draws
 * its first rows from this one small answer instead of listing every repo first.
 */
export const repoPageQuery = (
  client: ApiClient,
  project: string,
  pageIndex: number,
  pageSize: number,
) =>
  queryOptions({
    queryKey: [...queryKeys.repos(project), '@page', pageSize, pageIndex] as const,
    queryFn: ({ signal }) =>
      listRepos(
        client,
        { projects: [project], type: 'user', page: { pageSize, pageIndex } },
        signal,
      ),
    staleTime: LOADED_FRESH_MS,
  });

/** How many user repos the project holds (ReposSummary), for the pager and the header. */
export const repoCountQuery = (client: ApiClient, project: string) =>
  queryOptions({
    queryKey: [...queryKeys.repos(project), '@count'] as const,
    queryFn: async ({ signal }) => {
      const [summary] = await reposSummary(client, [project], signal);
      return Number(summary?.userRepoCount ?? 0);
    },
    staleTime: LOADED_FRESH_MS,
  });

export const projectQuery = (client: ApiClient, project: string) =>
  queryOptions({
    queryKey: queryKeys.project(project),
    queryFn: ({ signal }) => inspectProject(client, project, signal),
    retry: false,
    staleTime: LOADED_FRESH_MS,
  });
