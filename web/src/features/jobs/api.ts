import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { listJobSets, listJobs, stopJob, type JobRef } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { PPS_POLL_MS, queryKeys } from '../../data/query-keys.ts';
import { invalidatePps } from '../pipelines/api.ts';
import { jobQuery } from './queries.ts';

/** How many of the newest jobs (or job sets) the lists poll. */
export const JOB_LIST_LIMIT = 200;

export function useJobs(project: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.jobs(project),
    queryFn: ({ signal }) =>
      listJobs(client, { projects: [project], number: JOB_LIST_LIMIT }, signal),
    refetchInterval: PPS_POLL_MS,
  });
}

/** Rows per page of the jobs list. */
export const JOB_PAGE_SIZE = 25;

/**
 * One page of the project's newest jobs (ListJob `number`, paged by `paginationMarker`: the
 * `created` time of the previous page's last job); polled for state changes.
 */
export function useJobPage(project: string, marker: string) {
  const client = useApi();
  return useQuery({
    queryKey: [...queryKeys.jobs(project), '@page', JOB_PAGE_SIZE, marker] as const,
    queryFn: ({ signal }) =>
      listJobs(
        client,
        { projects: [project], number: JOB_PAGE_SIZE, paginationMarker: marker || undefined },
        signal,
      ),
    refetchInterval: PPS_POLL_MS,
    placeholderData: (previous) => previous,
  });
}

export function useJobSets(project: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.jobSets(project),
    queryFn: ({ signal }) =>
      listJobSets(client, { projects: [project], number: JOB_LIST_LIMIT }, signal),
    refetchInterval: PPS_POLL_MS,
  });
}

/** One job with details; polled until it finishes. */
export function useJob(ref: JobRef) {
  const client = useApi();
  return useQuery({
    ...jobQuery(client, ref),
    enabled: ref.jobId !== '' && ref.pipeline !== '',
    refetchInterval: (query) =>
      query.state.data && isJobDone(query.state.data.state) ? false : PPS_POLL_MS,
  });
}

export function isJobDone(state: string | undefined): boolean {
  return (
    state === 'JOB_SUCCESS' ||
    state === 'JOB_FAILURE' ||
    state === 'JOB_KILLED' ||
    state === 'JOB_UNRUNNABLE'
  );
}

export function useStopJob(project: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ref: JobRef) => stopJob(client, ref, 'stopped from the console'),
    onSuccess: () => invalidatePps(queryClient, project),
  });
}
