import {
  useInfiniteQuery,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  countTrials,
  createTrial,
  deleteTrial,
  inspectFlowPlugin,
  inspectJobSet,
  inspectTrial,
  listPipelines,
  listTrials,
  rerunTrial,
  type CreateTrialArgs,
  type PipelineInfo,
  type Trial,
} from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { PPS_POLL_MS, TRIALS_POLL_MS, queryKeys } from '../../data/query-keys.ts';
import { effectiveOrder, isFinished, type TrialsView } from './trial-view.ts';

export const TRIALS_PAGE_SIZE = 50;

const queryOf = (view: TrialsView) => ({
  flow: view.flow,
  case: view.case,
  filters: view.filters,
});

/** The view's trials, a page at a time (pageToken = the last ID of the previous page). */
export function useTrialPages(project: string, view: TrialsView) {
  const client = useApi();
  const orderBy = effectiveOrder(view);
  return useInfiniteQuery({
    queryKey: queryKeys.trialList(project, { ...queryOf(view), orderBy }),
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      listTrials(
        client,
        { project, ...queryOf(view), orderBy, pageSize: TRIALS_PAGE_SIZE, pageToken: pageParam },
        signal,
      ),
    getNextPageParam: (last) =>
      last.length < TRIALS_PAGE_SIZE ? undefined : (last[last.length - 1]?.id ?? undefined),
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.some((trial) => !isFinished(trial)))
        ? TRIALS_POLL_MS
        : false,
    retry: false,
  });
}

/** CountTrial with the same project, flow, case and filters as the table. */
export function useTrialCount(project: string, view: TrialsView, polling: boolean) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.trialCount(project, queryOf(view)),
    queryFn: ({ signal }) => countTrials(client, { project, ...queryOf(view) }, signal),
    refetchInterval: polling ? TRIALS_POLL_MS : false,
    retry: false,
  });
}

export function useTrial(project: string, id: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.trial(project, id),
    queryFn: ({ signal }) => inspectTrial(client, id, signal),
    refetchInterval: (query) =>
      query.state.data && !isFinished(query.state.data) ? TRIALS_POLL_MS : false,
    retry: false,
  });
}

/** Several trials at once (the compare view), polled while unfinished. */
export function useTrialsByIds(project: string, ids: readonly string[]) {
  const client = useApi();
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: queryKeys.trial(project, id),
      queryFn: ({ signal }: { signal: AbortSignal }) => inspectTrial(client, id, signal),
      refetchInterval: (query: { state: { data?: Trial | null } }) =>
        query.state.data && !isFinished(query.state.data) ? TRIALS_POLL_MS : false,
      retry: false,
    })),
  });
}

/** A pipeline's labels: its spec's metadata.labels, overlaid by labels set on the pipeline. */
function pipelineLabels(pipeline: PipelineInfo): Record<string, string> {
  // The spec's metadata is on the wire (details.metadata.labels) though not in the typed details.
  const details = pipeline.details as {
    metadata?: { labels?: Record<string, string> | null } | null;
  } | null;
  return { ...(details?.metadata?.labels ?? {}), ...(pipeline.metadata ?? {}) };
}

/** The flow names of a project: the `flow` labels of its pipelines, sorted. */
export function flowNames(pipelines: readonly PipelineInfo[]): string[] {
  const names = new Set<string>();
  for (const pipeline of pipelines) {
    const flow = pipelineLabels(pipeline).flow;
    if (flow) names.add(flow);
  }
  return [...names].sort((a, b) => a.localeCompare(b));
}

export function useProjectFlows(project: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.trialFlows(project),
    queryFn: async ({ signal }) =>
      flowNames(await listPipelines(client, { projects: [project] }, signal)),
  });
}

export function useFlowPlugin(project: string, flow: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.flowPlugin(project, flow),
    queryFn: ({ signal }) => inspectFlowPlugin(client, { project, flow }, signal),
    enabled: flow !== '',
    retry: false,
  });
}

/** The flow descriptions of several flows (the parameters the filter builder offers). */
export function useFlowPlugins(project: string, flows: readonly string[]) {
  const client = useApi();
  return useQueries({
    queries: flows.map((flow) => ({
      queryKey: queryKeys.flowPlugin(project, flow),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        inspectFlowPlugin(client, { project, flow }, signal),
      retry: false,
      staleTime: 60_000,
    })),
  });
}

/** The jobs of a trial's run (InspectJobSet over its jobSetId), polled while unfinished. */
export function useTrialJobs(jobSetId: string, polling: boolean) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.jobSet(jobSetId),
    queryFn: ({ signal }) => inspectJobSet(client, jobSetId, {}, signal),
    enabled: jobSetId !== '',
    refetchInterval: polling ? PPS_POLL_MS : false,
  });
}

export function useCreateTrial(project: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: Omit<CreateTrialArgs, 'project'>) =>
      createTrial(client, { project, ...args }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.trials(project) }),
  });
}

export function useRerunTrial(project: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => rerunTrial(client, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.trials(project) }),
  });
}

export function useDeleteTrial(project: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteTrial(client, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.trials(project) }),
  });
}
