import { useQuery } from '@tanstack/react-query';
import { listBranches, listRepos } from '@ivory/api';
import { useApi } from '../../app/api-context.tsx';
import { queryKeys } from '../../app/query-keys.ts';

export function useRepos(project: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.repos(project),
    queryFn: ({ signal }) => listRepos(client, { projects: [project], type: 'user' }, signal),
  });
}

export function useBranches(project: string, repo: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.branches(project, repo),
    queryFn: ({ signal }) => listBranches(client, { project, repo }, signal),
  });
}
