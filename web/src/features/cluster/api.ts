import { useQuery } from '@tanstack/react-query';
import { inspectCluster } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';

export const clusterQueryKey = ['cluster', 'inspect'] as const;

/** InspectCluster (yields the cluster id); fetched once per session. */
export function useClusterInfo(enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: clusterQueryKey,
    queryFn: ({ signal }) => inspectCluster(api, undefined, signal),
    enabled,
    staleTime: Infinity,
  });
}
