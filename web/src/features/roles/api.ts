import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  authorize,
  getRoleBinding,
  modifyRoleBinding,
  type AuthResource,
  type Permission,
} from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { queryKeys } from '../../data/query-keys.ts';
import { readRuntimeSettings } from '../../data/runtime-settings.ts';

/**
 * Whether sign-in is on: the server gives an issuer exactly then. With it off the platform is
 * single-user and auth_v2 answers 12 to everything, so the console asks it nothing.
 */
const signInOn = () => readRuntimeSettings().issuerUri !== '';

export const repoResource = (project: string, repo: string): AuthResource => ({
  type: 'REPO',
  name: `${project}/${repo}`,
});
export const projectResource = (project: string): AuthResource => ({
  type: 'PROJECT',
  name: project,
});

/**
 * The spec's authorize query: may the signed-in user do this here? `allowed` is undefined while
 * asking; with sign-in off everything is allowed.
 */
export function useAuthorize(resource: AuthResource, permissions: readonly Permission[]) {
  const client = useApi();
  const query = useQuery({
    queryKey: queryKeys.authorize(resource.type, resource.name ?? '', permissions),
    queryFn: ({ signal }) => authorize(client, resource, permissions, signal),
    enabled: signInOn(),
  });
  if (!signInOn()) return { allowed: true, missing: [], principal: '' };
  return {
    allowed: query.data === undefined ? undefined : (query.data?.authorized ?? false),
    missing: query.data?.missing ?? [],
    principal: query.data?.principal ?? '',
  };
}

/** A resource's role binding; null when sign-in is off or the user may not see it. */
export function useRoleBinding(resource: AuthResource) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.roleBinding(resource.type, resource.name ?? ''),
    queryFn: ({ signal }) => getRoleBinding(client, resource, signal),
    enabled: signInOn(),
  });
}

/** Grants or revokes: sets one principal's roles; every Authorize answer is asked again. */
export function useModifyRoleBinding(resource: AuthResource) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ principal, roles }: { principal: string; roles: string[] }) =>
      modifyRoleBinding(client, resource, principal, roles),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['auth'] }),
        // ListRepo's answers carry the caller's permissions on each repo (auth_info).
        queryClient.invalidateQueries({ queryKey: ['repos'] }),
      ]),
  });
}
