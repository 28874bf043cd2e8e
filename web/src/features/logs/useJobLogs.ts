import { useState } from 'react';
import { isJobDone, useJob } from '../jobs/api.ts';
import { useDatums, useRestartDatums } from './api.ts';
import { jobLogArgs } from './job-log-args.ts';
import { useLogStream } from './useLogStream.ts';

/** The job-logs path without its `/datum/:id` part, in whichever of the two forms was used. */
export function jobLogsBase(pathname: string): string {
  return pathname.replace(/\/datum\/[^/]+\/?$/, '').replace(/\/$/, '');
}

export interface JobLogsTarget {
  project: string;
  pipeline: string;
  jobId: string;
  /** The selected datum, or '' for the whole job. */
  datumId: string;
}

/** What the job-logs page and the full-page panel both show: the job, its datums, its live logs. */
export function useJobLogs({ project, pipeline, jobId, datumId }: JobLogsTarget) {
  const jobRef = { project, pipeline, jobId };
  const job = useJob(jobRef);
  const done = isJobDone(job.data?.state);
  const datums = useDatums(jobRef, !done);
  const restart = useRestartDatums(project);
  const [confirmRestart, setConfirmRestart] = useState(false);
  const logs = useLogStream(jobLogArgs({ project, pipeline, jobId, datumId }));
  const failed = (datums.data ?? []).filter((d) => d.state === 'FAILED');
  return { jobRef, job, datums, restart, logs, failed, confirmRestart, setConfirmRestart };
}

export type JobLogsState = ReturnType<typeof useJobLogs>;
