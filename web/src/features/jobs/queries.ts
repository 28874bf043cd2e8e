import { queryOptions } from '@tanstack/react-query';
import { inspectJob, type ApiClient, type JobRef } from '@ivory/api';
import { queryKeys } from '../../data/query-keys.ts';

/** A job with its details (InspectJob): shared by useJob and the job-logs route's loader. */
export const jobQuery = (client: ApiClient, ref: JobRef) =>
  queryOptions({
    queryKey: queryKeys.job(ref.project, ref.pipeline, ref.jobId),
    queryFn: ({ signal }) => inspectJob(client, ref, { details: true }, signal),
    retry: false,
    // A route loader's answer is not asked for again when the screen mounts just after it.
    staleTime: 2_000,
  });
