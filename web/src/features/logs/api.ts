import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { inspectDatum, listDatums, restartDatum, type DatumRef, type JobRef } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { PPS_POLL_MS, queryKeys } from '../../data/query-keys.ts';
import { invalidatePps } from '../pipelines/api.ts';

/** A job's datums; polled while the job runs (`live`). */
export function useDatums(ref: JobRef, live: boolean) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.datums(ref.project, ref.pipeline, ref.jobId),
    queryFn: ({ signal }) => listDatums(client, ref, signal),
    enabled: ref.jobId !== '',
    refetchInterval: live ? PPS_POLL_MS : false,
  });
}

export function useDatum(ref: DatumRef) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.datum(ref.project, ref.pipeline, ref.jobId, ref.datumId),
    queryFn: ({ signal }) => inspectDatum(client, ref, signal),
    enabled: ref.datumId !== '',
    retry: false,
  });
}

/** Restarts a job's failed datums (all, or those named); the platform starts a new job. */
export function useRestartDatums(project: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ job, datumIds }: { job: JobRef; datumIds: string[] }) =>
      restartDatum(client, job, datumIds),
    onSuccess: () => invalidatePps(queryClient, project),
  });
}
