import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getClusterDefaults,
  getProjectDefaults,
  setClusterDefaults,
  setProjectDefaults,
  type SetDefaultsOptions,
} from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { queryKeys } from '../../data/query-keys.ts';

export type DefaultsScope = 'project' | 'cluster';

export function useDefaults(scope: DefaultsScope, project: string) {
  const client = useApi();
  return useQuery({
    queryKey:
      scope === 'cluster' ? queryKeys.clusterDefaults() : queryKeys.projectDefaults(project),
    queryFn: async ({ signal }) =>
      scope === 'cluster'
        ? getClusterDefaults(client, signal)
        : (await getProjectDefaults(client, project, signal)).projectDefaultsJson,
  });
}

export function useSaveDefaults(scope: DefaultsScope, project: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ json, options }: { json: string; options: SetDefaultsOptions }) =>
      scope === 'cluster'
        ? setClusterDefaults(client, json, options)
        : setProjectDefaults(client, project, json, options),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['defaults'] });
      await queryClient.invalidateQueries({ queryKey: ['pps'] });
    },
    // A rejected save stores nothing: re-read the stored document so the screen matches it.
    onError: () => queryClient.invalidateQueries({ queryKey: ['defaults'] }),
  });
}
