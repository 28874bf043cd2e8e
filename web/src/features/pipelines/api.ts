import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  deletePipeline,
  inspectPipeline,
  listJobs,
  listPipelines,
  rerunPipeline,
  runCron,
  startPipeline,
  stopPipeline,
  type PipelineInfo,
  type PipelineRef,
  collect,
} from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { PPS_POLL_MS, queryKeys } from '../../data/query-keys.ts';

/** The project's pipelines (current versions), polled for state changes. */
export function usePipelines(project: string, options: { poll?: boolean; enabled?: boolean } = {}) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.pipelines(project),
    queryFn: ({ signal }) => listPipelines(client, { projects: [project] }, signal),
    refetchInterval: options.poll === false ? false : PPS_POLL_MS,
    enabled: options.enabled ?? true,
  });
}

/** Rows per page of the pipelines list. */
export const PIPELINE_PAGE_SIZE = 25;

/**
 * One page of the project's pipelines, the most recently changed first (ListPipeline `page`,
 * PipelinePage's one order, RECENT): the list draws its rows, with each pipeline's state and
 * last job's state, from this one answer; polled for state changes.
 */
export function usePipelinePage(project: string, pageIndex: number, enabled = true) {
  const client = useApi();
  return useQuery({
    queryKey: [...queryKeys.pipelines(project), '@page', PIPELINE_PAGE_SIZE, pageIndex] as const,
    queryFn: ({ signal }) =>
      collect(
        client,
        'pps_v2.API/ListPipeline',
        {
          projects: [{ name: project }],
          history: '0',
          details: true,
          page: {
            order: 'RECENT',
            pageSize: String(PIPELINE_PAGE_SIZE),
            pageIndex: String(pageIndex),
          },
        },
        signal,
      ),
    refetchInterval: PPS_POLL_MS,
    enabled,
    placeholderData: (previous) => previous,
  });
}

export function usePipeline(project: string, pipeline: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.pipeline(project, pipeline),
    queryFn: async ({ signal }) => {
      const info = await inspectPipeline(client, { project, pipeline }, signal);
      // The lineage node reads the project's list: one answer, shown alike in the panel and the
      // node (else a pipeline just created reads Running in one and Standby in the other).
      if (info) sharePipeline(queryClient, project, info);
      return info;
    },
    enabled: pipeline !== '',
    refetchInterval: PPS_POLL_MS,
    retry: false,
  });
}

/** A pipeline's newest jobs (a small query, polled). */
export function usePipelineJobs(project: string, pipeline: string, number = 10) {
  const client = useApi();
  return useQuery({
    queryKey: [...queryKeys.pipelineJobs(project, pipeline), number],
    queryFn: ({ signal }) => listJobs(client, { pipeline: { project, pipeline }, number }, signal),
    enabled: pipeline !== '',
    refetchInterval: PPS_POLL_MS,
  });
}

/** Puts a freshly read pipeline into the project's list, where it is already listed. */
export function sharePipeline(queryClient: QueryClient, project: string, info: PipelineInfo) {
  queryClient.setQueryData<PipelineInfo[]>(queryKeys.pipelines(project), (list) =>
    list?.map((listed) => (listed.pipeline.name === info.pipeline.name ? info : listed)),
  );
}

/**
 * The other way: pipelines read in the project's list (the lineage's change probe) go to the
 * open panels that show them (their InspectPipeline queries), so both show one answer.
 */
export function sharePipelinesWithPanels(
  queryClient: QueryClient,
  project: string,
  fresh: readonly PipelineInfo[],
) {
  for (const info of fresh) {
    const key = queryKeys.pipeline(project, info.pipeline.name);
    if (queryClient.getQueryData(key) !== undefined) queryClient.setQueryData(key, info);
  }
}

export function invalidatePps(queryClient: QueryClient, project: string) {
  return queryClient.invalidateQueries({ queryKey: ['pps', project] });
}

type Action = 'pause' | 'resume' | 'rerun' | 'reprocess' | 'runCron' | 'delete';

/** Pipeline actions; each refreshes the project's pipelines and jobs. */
export function usePipelineAction(project: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, pipeline }: { action: Action; pipeline: string }) => {
      const ref: PipelineRef = { project, pipeline };
      switch (action) {
        case 'pause':
          return stopPipeline(client, ref);
        case 'resume':
          return startPipeline(client, ref);
        case 'rerun':
          return rerunPipeline(client, ref, false);
        case 'reprocess':
          return rerunPipeline(client, ref, true);
        case 'runCron':
          return runCron(client, ref);
        case 'delete':
          return deletePipeline(client, ref);
      }
    },
    onSuccess: async () => {
      await invalidatePps(queryClient, project);
      await queryClient.invalidateQueries({ queryKey: queryKeys.repos(project) });
    },
  });
}

export function hasCronInput(info: PipelineInfo): boolean {
  const visit = (input: unknown): boolean => {
    if (!input || typeof input !== 'object') return false;
    const record = input as Record<string, unknown>;
    if (record.cron) return true;
    return ['cross', 'union', 'join', 'group'].some(
      (k) => Array.isArray(record[k]) && (record[k] as unknown[]).some(visit),
    );
  };
  return visit(info.details?.input);
}

export const pipelineType = (info: PipelineInfo) =>
  info.type && info.type !== 'PIPELINT_TYPE_UNKNOWN'
    ? info.type.replace('PIPELINE_TYPE_', '').toLowerCase()
    : 'transform';
