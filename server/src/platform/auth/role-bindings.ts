import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../storage/database.ts';
import { ALL_CLUSTER_USERS, CLUSTER, projectResource, roleNamed, type Resource } from './roles.ts';

/** A principal's permissions and roles on a resource (auth_v2 AuthInfo). */
export interface AuthInfo {
  readonly permissions: readonly string[];
  readonly roles: readonly string[];
}

/** principal → its roles on one resource (auth_v2.RoleBinding's entries). */
export type Binding = Map<string, Set<string>>;

/** The resources whose bindings count for a resource: the cluster, its project, itself. */
export function resourcesCovering(resource: Resource): Resource[] {
  if (resource.type === 'CLUSTER') return [CLUSTER];
  if (resource.type === 'PROJECT') return [CLUSTER, resource];
  const project = resource.name.slice(0, resource.name.indexOf('/'));
  return [CLUSTER, projectResource(project), resource];
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Cached answers are dropped all at once past this many (a bound on the memory they hold). */
const CACHE_LIMIT = 50_000;

/**
 * Role bindings and robot tokens, kept in SQLite (migration 6). Bindings are read far more often
 * than they change (every call with sign-in on checks some, a ListRepo one per repo): each
 * resource's binding and each principal's permissions on a resource are kept in memory and all
 * dropped whenever a binding changes (this process is the only writer), so a change holds from
 * the next check on. Robot tokens are not cached: a revoked one is refused at once.
 */
export class RoleBindings {
  private readonly bindings = new Map<string, Binding>();
  private readonly permissions = new Map<string, Set<string>>();
  private readonly roles = new Map<string, string[]>();
  private readonly repoBindingIn = new Map<string, boolean>();
  private readonly authInfos = new Map<string, AuthInfo>();
  private readonly selectBinding;
  private readonly selectRepoBinding;
  private readonly selectToken;

  constructor(
    private readonly db: Db,
    /** Emails of the cluster admins (IVORY_ADMINS), lower case. */
    private readonly admins: readonly string[] = [],
  ) {
    this.selectBinding = db.prepare(
      'SELECT principal, role FROM role_bindings WHERE resource_type = ? AND resource_name = ?',
    );
    this.selectRepoBinding = db.prepare(
      "SELECT 1 FROM role_bindings WHERE resource_type = 'REPO' AND principal IN (?, ?) AND resource_name LIKE ? ESCAPE '\\' LIMIT 1",
    );
    this.selectToken = db.prepare('SELECT subject, expires_at FROM auth_tokens WHERE hash = ?');
  }

  /** Forgets every cached answer (a binding changed). */
  private changed(): void {
    this.bindings.clear();
    this.permissions.clear();
    this.roles.clear();
    this.repoBindingIn.clear();
    this.authInfos.clear();
  }

  /** Caches `value` under `key` in `cache`, emptying it first when it is full. */
  private static keep<V>(cache: Map<string, V>, key: string, value: V): V {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, value);
    return value;
  }

  /** The principals and their roles bound on exactly this resource (a copy: change it freely). */
  binding(resource: Resource): Binding {
    const binding: Binding = new Map();
    for (const [principal, roles] of this.cachedBinding(resource))
      binding.set(principal, new Set(roles));
    return binding;
  }

  private cachedBinding(resource: Resource): Binding {
    const key = `${resource.type}\0${resource.name}`;
    const known = this.bindings.get(key);
    if (known) return known;
    const rows = this.selectBinding.all(resource.type, resource.name) as {
      principal: string;
      role: string;
    }[];
    const binding: Binding = new Map();
    for (const row of rows) {
      const roles = binding.get(row.principal) ?? new Set<string>();
      roles.add(row.role);
      binding.set(row.principal, roles);
    }
    if (resource.type === 'CLUSTER') {
      for (const email of this.admins) {
        const principal = `user:${email}`;
        binding.set(principal, new Set([...(binding.get(principal) ?? []), 'clusterAdmin']));
      }
    }
    return RoleBindings.keep(this.bindings, key, binding);
  }

  /** Replaces a principal's roles on a resource (none: the principal is removed). */
  setRoles(resource: Resource, principal: string, roles: readonly string[]): void {
    this.changed();
    this.db.transaction(() => {
      this.db
        .prepare(
          'DELETE FROM role_bindings WHERE resource_type = ? AND resource_name = ? AND principal = ?',
        )
        .run(resource.type, resource.name, principal);
      const insert = this.db.prepare('INSERT OR IGNORE INTO role_bindings VALUES (?, ?, ?, ?)');
      for (const role of roles) insert.run(resource.type, resource.name, principal, role);
    })();
    this.changed();
  }

  /** Drops every binding on a resource (a deleted project or repo leaves none behind). */
  forget(resource: Resource): void {
    this.changed();
    this.db
      .prepare('DELETE FROM role_bindings WHERE resource_type = ? AND resource_name = ?')
      .run(resource.type, resource.name);
    if (resource.type === 'PROJECT') {
      this.db
        .prepare(
          "DELETE FROM role_bindings WHERE resource_type = 'REPO' AND resource_name LIKE ? ESCAPE '\\'",
        )
        .run(`${resource.name.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`);
    }
    this.changed();
  }

  /** Whether the principal has a role on some repo of the project. */
  hasRepoBindingIn(principal: string, project: string): boolean {
    const key = `${principal}\0${project}`;
    const known = this.repoBindingIn.get(key);
    if (known !== undefined) return known;
    const prefix = `${project.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
    const found = this.selectRepoBinding.get(principal, ALL_CLUSTER_USERS, prefix) !== undefined;
    return RoleBindings.keep(this.repoBindingIn, key, found);
  }

  /** The roles a principal holds on a resource, its project's and the cluster's included. */
  rolesOf(principal: string, resource: Resource): string[] {
    return [...this.cachedRoles(principal, resource)];
  }

  private cachedRoles(principal: string, resource: Resource): readonly string[] {
    const key = `${principal}\0${resource.type}\0${resource.name}`;
    const known = this.roles.get(key);
    if (known) return known;
    const roles = new Set<string>();
    for (const covering of resourcesCovering(resource)) {
      const binding = this.cachedBinding(covering);
      for (const who of [principal, ALL_CLUSTER_USERS]) {
        for (const role of binding.get(who) ?? []) roles.add(role);
      }
    }
    return RoleBindings.keep(this.roles, key, [...roles].sort());
  }

  /** The principal's permissions on a resource (a copy: change it freely). */
  permissionsOf(principal: string, resource: Resource): Set<string> {
    return new Set(this.cachedPermissions(principal, resource));
  }

  /**
   * A principal's permissions (sorted) and roles on a resource, as RepoInfo.authInfo carries
   * them: one object per principal and resource until a binding changes (do not change it).
   */
  authInfo(principal: string, resource: Resource): AuthInfo {
    const key = `${principal}\0${resource.type}\0${resource.name}`;
    const known = this.authInfos.get(key);
    if (known) return known;
    return RoleBindings.keep(this.authInfos, key, {
      permissions: [...this.cachedPermissions(principal, resource)].sort(),
      roles: [...this.cachedRoles(principal, resource)],
    });
  }

  /** Whether the principal holds `permission` on the resource (no copy made). */
  holds(principal: string, resource: Resource, permission: string): boolean {
    return this.cachedPermissions(principal, resource).has(permission);
  }

  private cachedPermissions(principal: string, resource: Resource): ReadonlySet<string> {
    const key = `${principal}\0${resource.type}\0${resource.name}`;
    const known = this.permissions.get(key);
    if (known) return known;
    const permissions = new Set<string>();
    for (const name of this.cachedRoles(principal, resource)) {
      for (const permission of roleNamed(name)?.permissions ?? []) permissions.add(permission);
    }
    return RoleBindings.keep(this.permissions, key, permissions);
  }

  /** A new robot token for `subject`; only its hash is kept. ttl 0 = no expiry. */
  issueToken(subject: string, ttlSeconds: number): string {
    const token = randomBytes(32).toString('hex');
    const expires = ttlSeconds > 0 ? Date.now() + ttlSeconds * 1000 : null;
    this.db
      .prepare('INSERT INTO auth_tokens VALUES (?, ?, ?)')
      .run(sha256(token), subject, expires);
    return token;
  }

  /** The subject of a live robot token, or null. */
  tokenSubject(token: string): { subject: string; expiresAt: number | null } | null {
    const row = this.selectToken.get(sha256(token)) as
      { subject: string; expires_at: number | null } | undefined;
    if (!row) return null;
    if (row.expires_at !== null && row.expires_at <= Date.now()) return null;
    return { subject: row.subject, expiresAt: row.expires_at };
  }

  /** Revokes one token; answers how many were removed (0 or 1). */
  revokeToken(token: string): number {
    return this.db.prepare('DELETE FROM auth_tokens WHERE hash = ?').run(sha256(token)).changes;
  }

  revokeTokensOf(subject: string): number {
    return this.db.prepare('DELETE FROM auth_tokens WHERE subject = ?').run(subject).changes;
  }
}
