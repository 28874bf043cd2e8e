import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import {
  inspectCommitSet,
  inspectJobSet,
  inspectPipeline,
  listJobs,
  type ApiClient,
  type PipelineInfo,
  collect,
} from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { PPS_POLL_MS, queryKeys } from '../../data/query-keys.ts';
import { sharePipelinesWithPanels } from '../pipelines/api.ts';
import { pipelinesSummary } from '../projects/api.ts';
import {
  mergePipelines,
  newChangeMemory,
  planChanges,
  recentChanges,
  summarySignature,
  type ChangePlan,
} from './changes.ts';

/** How many of the newest jobs one probe reads. */
const PROBE_JOBS = 25;
/** How many of the most recently changed pipelines one probe reads (about 2.5 KB each). */
export const PROBE_PIPELINES = 4;

/** ListPipeline's first page in RECENT order: the most recently changed pipelines. */
function recentPipelines(client: ApiClient, project: string, signal?: AbortSignal) {
  return collect(
    client,
    'pps_v2.API/ListPipeline',
    {
      projects: [{ name: project }],
      history: '0',
      details: true,
      page: { order: 'RECENT', pageSize: String(PROBE_PIPELINES), pageIndex: '0' },
    },
    signal,
  );
}

/**
 * Keeps the project's pipeline list (the `usePipelines` query, which the lineage does not poll)
 * current by change: every few seconds a probe reads the pipelines' summary, the newest jobs and
 * the few most recently changed pipelines (ListPipeline's first page in RECENT order; a few KB in
 * all). Changed pipelines among those are merged in as read (a paused pipeline updated, stopped or
 * started elsewhere runs no job, so only this shows it); then only the pipelines whose jobs moved
 * on are inspected and merged; the whole list is fetched again only when pipelines came or went,
 * or more changed than the probe reads.
 */
export function useLineageChanges(project: string, listed: boolean) {
  const client = useApi();
  const queryClient = useQueryClient();
  const memory = useRef(newChangeMemory());
  return useQuery({
    queryKey: [...queryKeys.pipelines(project), '@changes'] as const,
    enabled: listed,
    refetchInterval: PPS_POLL_MS,
    queryFn: async ({ signal }): Promise<ChangePlan> => {
      const [summary, jobs, recent] = await Promise.all([
        pipelinesSummary(client, [project], signal),
        listJobs(client, { projects: [project], number: PROBE_JOBS }, signal),
        recentPipelines(client, project, signal),
      ]);
      const listKey = queryKeys.pipelines(project);
      let list = queryClient.getQueryData<PipelineInfo[]>(listKey);
      if (!list) return { kind: 'none' };
      const changed = recentChanges(list, recent, PROBE_PIPELINES);
      if (changed.kind === 'full') {
        memory.current.summary = summarySignature(summary);
        await queryClient.invalidateQueries({ queryKey: listKey, exact: true });
        return { kind: 'full' };
      }
      if (changed.pipelines.length > 0) {
        list = mergePipelines(list, changed.pipelines);
        queryClient.setQueryData<PipelineInfo[]>(listKey, list);
        sharePipelinesWithPanels(queryClient, project, changed.pipelines);
      }
      const plan = planChanges(list, { summary: summarySignature(summary), jobs }, memory.current);
      if (plan.kind === 'full')
        await queryClient.invalidateQueries({ queryKey: listKey, exact: true });
      if (plan.kind === 'inspect') {
        const fresh = await Promise.all(
          plan.pipelines.map((pipeline) => inspectPipeline(client, { project, pipeline }, signal)),
        );
        // A pipeline gone meanwhile: the list changed shape, list it again.
        if (fresh.some((info) => info === null))
          await queryClient.invalidateQueries({ queryKey: listKey, exact: true });
        else {
          queryClient.setQueryData<PipelineInfo[]>(listKey, (old) =>
            old ? mergePipelines(old, fresh as PipelineInfo[]) : old,
          );
          sharePipelinesWithPanels(queryClient, project, fresh as PipelineInfo[]);
        }
      }
      return plan;
    },
  });
}

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
