import { useQuery } from '@tanstack/react-query';
import { listProjects, reposSummary } from '@ivory/api';
import { useApi } from '../../app/api-context.tsx';
import { queryKeys } from '../../app/query-keys.ts';

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
