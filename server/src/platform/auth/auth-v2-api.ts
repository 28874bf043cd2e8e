import { ApiError, Code, invalidArgument } from '../../errors.ts';
import { auth_v2 } from '@ivory/api/proto';
import type { MethodRegistry } from '../platform.ts';
import { typedUnary } from '../typed-method.ts';
import { resourceOf, type Authorizer } from './authorizer.ts';
import { currentCaller, type Caller } from './caller.ts';
import {
  ALL_CLUSTER_USERS,
  ALL_PERMISSIONS,
  PERMISSION_NUMBERS,
  ROLES,
  isPrincipal,
  roleNamed,
} from './roles.ts';

const permissionNames = new Map(Object.entries(PERMISSION_NUMBERS).map(([n, v]) => [String(v), n]));
const knownPermissions = new Set<string>(ALL_PERMISSIONS);

/** A permission by name or number; 3 for an unknown one. */
function permissionOf(value: unknown): string {
  const text = String(value);
  const name = knownPermissions.has(text) ? text : permissionNames.get(text);
  if (!name) throw invalidArgument(`unknown permission ${text}`);
  return name;
}

function caller(): Caller {
  const who = currentCaller();
  if (!who) throw new ApiError(Code.UNAUTHENTICATED, 'authentication error: no caller');
  return who;
}

function roleMessage(name: string) {
  const role = roleNamed(name)!;
  return {
    name: role.name,
    permissions: [...role.permissions],
    canBeBoundTo: [...role.canBeBoundTo],
    returnedFor: [...role.returnedFor],
  };
}

/**
 * auth_v2.API with sign-in on, answering as pachd does: WhoAmI (`user:<email>` or
 * `robot:<name>`), Authorize, GetPermissions(ForPrincipal), GetRolesForPermission,
 * GetRoleBinding, ModifyRoleBinding, GetRobotToken, RevokeAuthToken(sForUser). Who may call
 * which is the method table's business (method-permissions.ts).
 */
export function registerAuthV2Api(methods: MethodRegistry, authorizer: Authorizer): void {
  const { bindings } = authorizer;
  const permissionsFor = (principal: string, resourceValue: unknown) => {
    const resource = resourceOf(resourceValue);
    return {
      permissions: [...bindings.permissionsOf(principal, resource)].sort(),
      roles: bindings.rolesOf(principal, resource),
    };
  };

  methods.set(
    'auth_v2.API/WhoAmI',
    typedUnary(auth_v2.WhoAmIRequestSchema, async () => {
      const who = caller();
      return { username: who.principal, ...(who.expiration ? { expiration: who.expiration } : {}) };
    }),
  );
  methods.set(
    'auth_v2.API/Authorize',
    typedUnary(auth_v2.AuthorizeRequestSchema, async (body) => {
      const who = caller();
      const held = new Set(permissionsFor(who.principal, body.resource).permissions);
      const asked = body.permissions.map(permissionOf);
      const satisfied = asked.filter((p) => held.has(p));
      const missing = asked.filter((p) => !held.has(p));
      return { authorized: missing.length === 0, satisfied, missing, principal: who.principal };
    }),
  );
  methods.set(
    'auth_v2.API/GetPermissions',
    typedUnary(auth_v2.GetPermissionsRequestSchema, async (body) =>
      permissionsFor(caller().principal, body.resource),
    ),
  );
  methods.set(
    'auth_v2.API/GetPermissionsForPrincipal',
    typedUnary(auth_v2.GetPermissionsForPrincipalRequestSchema, async (body) =>
      permissionsFor(body.principal, body.resource),
    ),
  );
  methods.set(
    'auth_v2.API/GetRolesForPermission',
    typedUnary(auth_v2.GetRolesForPermissionRequestSchema, async (body) => {
      const permission = permissionOf(body.permission);
      return {
        roles: ROLES.filter((role) => role.permissions.includes(permission)).map((role) =>
          roleMessage(role.name),
        ),
      };
    }),
  );
  methods.set(
    'auth_v2.API/GetRoleBinding',
    typedUnary(auth_v2.GetRoleBindingRequestSchema, async (body) => {
      const binding = bindings.binding(resourceOf(body.resource));
      const entries: Record<string, { roles: Record<string, boolean> }> = {};
      for (const [principal, roles] of binding) {
        entries[principal] = { roles: Object.fromEntries([...roles].map((r) => [r, true])) };
      }
      return { binding: { entries } };
    }),
  );
  methods.set(
    'auth_v2.API/ModifyRoleBinding',
    typedUnary(auth_v2.ModifyRoleBindingRequestSchema, async (body) => {
      const resource = resourceOf(body.resource);
      const principal = body.principal;
      if (!isPrincipal(principal))
        throw invalidArgument(
          `principal ${JSON.stringify(principal)} must be user:<email>, robot:<name> or ${ALL_CLUSTER_USERS}`,
        );
      const roles = body.roles;
      for (const name of roles) {
        const role = roleNamed(name);
        if (!role) throw invalidArgument(`unknown role ${name}`);
        if (!role.canBeBoundTo.includes(resource.type))
          throw invalidArgument(`role ${name} cannot be bound to a ${resource.type}`);
      }
      bindings.setRoles(resource, principal, roles);
      return {};
    }),
  );
  methods.set(
    'auth_v2.API/GetRobotToken',
    typedUnary(auth_v2.GetRobotTokenRequestSchema, async (body) => {
      const robot = body.robot.replace(/^robot:/, '');
      if (!robot) throw invalidArgument('robot is required');
      const ttl = Number(body.ttl);
      if (!Number.isSafeInteger(ttl) || ttl < 0) throw invalidArgument('ttl must be whole seconds');
      return { token: bindings.issueToken(`robot:${robot}`, ttl) };
    }),
  );
  methods.set(
    'auth_v2.API/RevokeAuthToken',
    typedUnary(auth_v2.RevokeAuthTokenRequestSchema, async (body) => ({
      number: String(bindings.revokeToken(body.token)),
    })),
  );
  methods.set(
    'auth_v2.API/RevokeAuthTokensForUser',
    typedUnary(auth_v2.RevokeAuthTokensForUserRequestSchema, async (body) => {
      const username = body.username;
      if (!username) throw invalidArgument('username is required');
      return { number: String(bindings.revokeTokensOf(username)) };
    }),
  );
}
