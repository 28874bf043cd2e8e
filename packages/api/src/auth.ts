import type { ApiClient } from './client.ts';
import { ApiError, GrpcCode } from './errors.ts';

/** auth_v2.Resource: the cluster, a project (`name`), or a repo (`<project>/<repo>`). */
export interface AuthResource {
  type: 'CLUSTER' | 'PROJECT' | 'REPO';
  name?: string;
}

export interface AuthorizeResponse {
  authorized: boolean;
  satisfied?: string[];
  missing?: string[];
  principal: string;
}

/** auth_v2.RoleBinding: principal → {roles: {role: true}}. */
export interface RoleBinding {
  entries?: Record<string, { roles?: Record<string, boolean> }>;
}

/** With sign-in off the platform answers auth_v2 calls with code 12: everything is allowed. */
const authIsOff = (err: unknown) => err instanceof ApiError && err.code === GrpcCode.UNIMPLEMENTED;

/**
 * auth_v2 Authorize for the caller. Resolves `null` on permission-denied (spec section 6) and
 * `{authorized: true, principal: ''}` when sign-in is off (a single-user platform).
 */
export async function authorize(
  client: ApiClient,
  resource: AuthResource,
  permissions: readonly string[],
  signal?: AbortSignal,
): Promise<AuthorizeResponse | null> {
  try {
    return await client.unaryOrNull<AuthorizeResponse>(
      'auth_v2.API',
      'Authorize',
      { resource, permissions },
      signal,
    );
  } catch (err) {
    if (authIsOff(err)) return { authorized: true, satisfied: [...permissions], principal: '' };
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
    const answer = await client.unaryOrNull<{ binding?: RoleBinding }>(
      'auth_v2.API',
      'GetRoleBinding',
      { resource },
      signal,
    );
    return answer ? (answer.binding ?? {}) : null;
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
  return client.unary<object>('auth_v2.API', 'ModifyRoleBinding', { resource, principal, roles });
}
