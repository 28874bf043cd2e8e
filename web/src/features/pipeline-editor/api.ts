import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createPipelineV2, fetchPipelineSpecSchema } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { queryKeys } from '../../data/query-keys.ts';
import { invalidatePps } from '../pipelines/api.ts';

/** The server's pipeline-spec JSON Schema (for completion); it never changes while running. */
export function usePipelineSpecSchema() {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.pipelineSpecSchema(),
    queryFn: ({ signal }) => fetchPipelineSpecSchema(client.baseUrl, signal),
    staleTime: Infinity,
    retry: false,
  });
}

export function useSubmitPipeline(project: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { specJson: string; update: boolean; reprocess: boolean }) =>
      createPipelineV2(client, args),
    onSuccess: async () => {
      await invalidatePps(queryClient, project);
      await queryClient.invalidateQueries({ queryKey: queryKeys.repos(project) });
    },
  });
}
