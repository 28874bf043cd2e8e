import { useQuery } from '@tanstack/react-query';
import { inspectCommitSet, inspectJobSet } from '@ivory/api';
import { useApi } from '../../app/api-context.tsx';
import { PPS_POLL_MS, queryKeys } from '../../app/query-keys.ts';

/** What one global ID touched: its jobs (InspectJobSet) and commits (InspectCommitSet). */
export function useGlobalId(globalId: string) {
  const client = useApi();
  const jobs = useQuery({
    queryKey: queryKeys.jobSet(globalId),
    queryFn: ({ signal }) => inspectJobSet(client, globalId, {}, signal),
    enabled: globalId !== '',
    refetchInterval: PPS_POLL_MS,
    retry: false,
  });
  const commits = useQuery({
    queryKey: queryKeys.commitSet(globalId),
    queryFn: ({ signal }) => inspectCommitSet(client, globalId, signal),
    enabled: globalId !== '',
    retry: false,
  });
  return { jobs, commits };
}
