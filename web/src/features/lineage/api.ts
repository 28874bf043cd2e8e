import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import {
  inspectCommitSet,
  inspectJobSet,
  inspectPipeline,
  listJobs,
  type PipelineInfo,
} from '@ivory/api';
import { useApi } from '../../app/api-context.tsx';
import { PPS_POLL_MS, queryKeys } from '../../app/query-keys.ts';
import { pipelinesSummary } from '../projects/api.ts';
import {
  mergePipelines,
  newChangeMemory,
  planChanges,
  summarySignature,
  type ChangePlan,
} from './changes.ts';

/** How many of the newest jobs one probe reads. */
const PROBE_JOBS = 25;

/**
 * Keeps the project's pipeline list (the `usePipelines` query, which the lineage does not poll)
 * current by change: every few seconds a probe reads the pipelines' summary and the newest jobs
 * (a few KB), then only the pipelines whose jobs moved on are inspected and merged into the list;
 * the whole list is fetched again only when pipelines came, went or changed state otherwise.
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
      const [summary, jobs] = await Promise.all([
        pipelinesSummary(client, [project], signal),
        listJobs(client, { projects: [project], number: PROBE_JOBS }, signal),
      ]);
      const listKey = queryKeys.pipelines(project);
      const list = queryClient.getQueryData<PipelineInfo[]>(listKey);
      if (!list) return { kind: 'none' };
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
        else
          queryClient.setQueryData<PipelineInfo[]>(listKey, (old) =>
            old ? mergePipelines(old, fresh as PipelineInfo[]) : old,
          );
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
