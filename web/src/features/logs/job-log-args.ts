import type { GetLogsArgs } from '@ivory/api';

/** The live log request of a job (or of one of its datums, when `datumId` is not ''). */
export const jobLogArgs = (target: {
  project: string;
  pipeline: string;
  jobId: string;
  datumId: string;
}): GetLogsArgs => ({
  project: target.project,
  pipeline: target.pipeline,
  jobId: target.jobId,
  datumId: target.datumId || undefined,
  follow: true,
});
