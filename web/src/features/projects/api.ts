import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ApiError,
  createProject,
  deleteProject,
  listProjects,
  reposSummary,
  type ApiClient,
  type PipelinesSummary,
  type PipelinesSummaryResponse,
} from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { queryKeys } from '../../data/query-keys.ts';

export type { PipelinesSummary } from '@ivory/api';

export function useProjects() {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.projects(),
    queryFn: ({ signal }) => listProjects(client, signal),
  });
}

export function useReposSummary(projects: readonly string[]) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.reposSummary(projects),
    queryFn: ({ signal }) => reposSummary(client, [...projects], signal),
    enabled: projects.length > 0,
  });
}

/**
 * Pipeline counts per project, or null while the platform has no pipeline engine: code 12
 * (UNIMPLEMENTED) means "no pipelines info", not an error.
 */
export async function pipelinesSummary(
  client: ApiClient,
  projects: readonly string[],
  signal?: AbortSignal,
): Promise<PipelinesSummary[] | null> {
  try {
    const response = await client.unary<PipelinesSummaryResponse>(
      'pps_v2.API',
      'PipelinesSummary',
      { projects: projects.map((name) => ({ name })) },
      signal,
    );
    return response.summaries ?? [];
  } catch (error) {
    if (error instanceof ApiError && error.code === 12) return null;
    throw error;
  }
}

export function usePipelinesSummary(projects: readonly string[]) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.pipelinesSummary(projects),
    queryFn: ({ signal }) => pipelinesSummary(client, projects, signal),
    enabled: projects.length > 0,
    retry: false,
  });
}

/** Total pipelines of a summary. */
export function pipelineCount(summary: PipelinesSummary): number {
  return (
    Number(summary.activePipelines) +
    Number(summary.pausedPipelines) +
    Number(summary.failedPipelines)
  );
}

/** CreateProject; with `update` it rewrites the description of an existing project. */
export function useSaveProject() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { project: string; description: string; update: boolean }) =>
      createProject(client, args),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.projects() }),
  });
}

export function useDeleteProject() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (project: string) => deleteProject(client, project),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.projects() }),
  });
}
