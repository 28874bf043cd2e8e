import type * as auth_v2 from './gen/auth_v2_pb.ts';
import type { ApiClient } from './client.ts';
import { ApiError, GrpcCode } from './errors.ts';
import type { Wire } from './types/emitted.ts';
import { call, callOrNull } from './typed-call.ts';

/** auth_v2.Resource: the cluster, a project (`name`), or a repo (`<project>/<repo>`). */
export interface AuthResource extends auth_v2.ResourceJson {
  type: Extract<auth_v2.ResourceTypeJson, 'CLUSTER' | 'PROJECT' | 'REPO'>;
}

/** auth_v2.Permission, e.g. `REPO_WRITE`. */
export type Permission = auth_v2.PermissionJson;

export type AuthorizeResponse = Wire<typeof auth_v2.AuthorizeResponseSchema>;

/** auth_v2.RoleBinding: principal → {roles: {role: true}}. */
export type RoleBinding = Wire<typeof auth_v2.RoleBindingSchema>;

/** With sign-in off the platform answers auth_v2 calls with code 12: everything is allowed. */
const authIsOff = (err: unknown) => err instanceof ApiError && err.code === GrpcCode.UNIMPLEMENTED;

/**
 * auth_v2 Authorize for the caller. Resolves `null` on permission-denied (spec section 6) and
 * `{authorized: true, principal: ''}` when sign-in is off (a single-user platform).
 */
export async function authorize(
  client: ApiClient,
  resource: AuthResource,
  permissions: readonly Permission[],
  signal?: AbortSignal,
): Promise<AuthorizeResponse | null> {
  try {
    return await callOrNull(
      client,
      'auth_v2.API/Authorize',
      { resource, permissions: [...permissions] },
      signal,
    );
  } catch (err) {
    if (authIsOff(err))
      return { authorized: true, satisfied: [...permissions], missing: [], principal: '' };
    throw err;
  }
}

/** The role binding of a resource; null when the caller may not see it or sign-in is off. */
export async function getRoleBinding(
  client: ApiClient,
  resource: AuthResource,
  signal?: AbortSignal,
): Promise<RoleBinding | null> {
  try {
    const answer = await callOrNull(client, 'auth_v2.API/GetRoleBinding', { resource }, signal);
    return answer ? (answer.binding ?? { entries: {} }) : null;
  } catch (err) {
    if (authIsOff(err)) return null;
    throw err;
  }
}

/** Sets a principal's roles on a resource (an empty list revokes them all). */
export function modifyRoleBinding(
  client: ApiClient,
  resource: AuthResource,
  principal: string,
  roles: readonly string[],
) {
  return call(client, 'auth_v2.API/ModifyRoleBinding', { resource, principal, roles: [...roles] });
}
