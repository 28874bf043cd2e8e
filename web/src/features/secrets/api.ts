import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createSecret, deleteSecret, listSecrets } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { queryKeys } from '../../data/query-keys.ts';

export function useSecrets() {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.secrets(),
    queryFn: ({ signal }) => listSecrets(client, signal),
  });
}

export function useCreateSecret() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { name: string; values: Array<{ key: string; value: string }> }) =>
      createSecret(client, args.name, args.values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.secrets() }),
  });
}

export function useDeleteSecret() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => deleteSecret(client, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.secrets() }),
  });
}
