import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../storage/database.ts';
import { ALL_CLUSTER_USERS, CLUSTER, projectResource, roleNamed, type Resource } from './roles.ts';

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

/** Role bindings and robot tokens, kept in SQLite (migration 6). */
export class RoleBindings {
  constructor(
    private readonly db: Db,
    /** Emails of the cluster admins (IVORY_ADMINS), lower case. */
    private readonly admins: readonly string[] = [],
  ) {}

  binding(resource: Resource): Binding {
    const rows = this.db
      .prepare(
        'SELECT principal, role FROM role_bindings WHERE resource_type = ? AND resource_name = ?',
      )
      .all(resource.type, resource.name) as { principal: string; role: string }[];
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
    return binding;
  }

  /** Replaces a principal's roles on a resource (none: the principal is removed). */
  setRoles(resource: Resource, principal: string, roles: readonly string[]): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          'DELETE FROM role_bindings WHERE resource_type = ? AND resource_name = ? AND principal = ?',
        )
        .run(resource.type, resource.name, principal);
      const insert = this.db.prepare('INSERT OR IGNORE INTO role_bindings VALUES (?, ?, ?, ?)');
      for (const role of roles) insert.run(resource.type, resource.name, principal, role);
    })();
  }

  /** Drops every binding on a resource (a deleted project or repo leaves none behind). */
  forget(resource: Resource): void {
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
  }

  /** Whether the principal has a role on some repo of the project. */
  hasRepoBindingIn(principal: string, project: string): boolean {
    const prefix = `${project.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
    return (
      this.db
        .prepare(
          "SELECT 1 FROM role_bindings WHERE resource_type = 'REPO' AND principal IN (?, ?) AND resource_name LIKE ? ESCAPE '\\' LIMIT 1",
        )
        .get(principal, ALL_CLUSTER_USERS, prefix) !== undefined
    );
  }

  /** The roles a principal holds on a resource, its project's and the cluster's included. */
  rolesOf(principal: string, resource: Resource): string[] {
    const roles = new Set<string>();
    for (const covering of resourcesCovering(resource)) {
      const binding = this.binding(covering);
      for (const who of [principal, ALL_CLUSTER_USERS]) {
        for (const role of binding.get(who) ?? []) roles.add(role);
      }
    }
    return [...roles].sort();
  }

  permissionsOf(principal: string, resource: Resource): Set<string> {
    const permissions = new Set<string>();
    for (const name of this.rolesOf(principal, resource)) {
      for (const permission of roleNamed(name)?.permissions ?? []) permissions.add(permission);
    }
    return permissions;
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
    const row = this.db
      .prepare('SELECT subject, expires_at FROM auth_tokens WHERE hash = ?')
      .get(sha256(token)) as { subject: string; expires_at: number | null } | undefined;
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
