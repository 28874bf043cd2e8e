import type { LoaderFunctionArgs } from 'react-router';
import type { RouteLoaderDeps } from '../../data/route-loader-deps.ts';

/**
 * The job-logs route's loader: asks for the job and the newest lines of its log (once the API
 * may be called) in parallel with the screen's code and the sign-in step's GET /auth/config, and
 * returns at once: the screen's queries pick the answers up, and its whole log stream starts once
 * the tail has answered. The query code is imported here, not at the top: it belongs to the
 * screen's chunks, which index.html already preloads for this path, and stays out of the entry.
 */
export function jobLogsRouteLoader({ queryClient, client, apiAccessible }: RouteLoaderDeps) {
  return ({ params }: LoaderFunctionArgs) => {
    const target = {
      project: params.projectId ?? '',
      pipeline: params.pipelineId ?? '',
      jobId: params.jobId ?? '',
      datumId: params.datumId ?? '',
    };
    void (async () => {
      if (!(await apiAccessible())) return;
      const [{ jobQuery }, { jobLogArgs }, { logTailQuery }] = await Promise.all([
        import('../jobs/queries.ts'),
        import('./job-log-args.ts'),
        import('./log-tail.ts'),
      ]);
      await Promise.allSettled([
        queryClient.prefetchQuery(logTailQuery(client, jobLogArgs(target))),
        target.jobId && target.pipeline
          ? queryClient.prefetchQuery(jobQuery(client, target))
          : undefined,
      ]);
    })();
    return null;
  };
}
