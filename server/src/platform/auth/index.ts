import type { PfsStore } from '../pfs/pfs-store.ts';
import type { MethodRegistry } from '../platform.ts';
import type { Db } from '../storage/database.ts';
import { registerAuthV2Api } from './auth-v2-api.ts';
import { Authorizer } from './authorizer.ts';
import { currentCaller } from './caller.ts';
import { RoleBindings } from './role-bindings.ts';
import { pipelinePrincipal } from './roles.ts';

export { Authorizer, permissionDenied } from './authorizer.ts';
export { currentCaller, runAs, type Caller } from './caller.ts';
export { METHOD_NEEDS } from './method-permissions.ts';
export { RoleBindings } from './role-bindings.ts';
export { pipelinePrincipal, repoResource, projectResource, CLUSTER } from './roles.ts';

/** Role bindings in the platform's database, the authorizer over them, and auth_v2.API. */
export function openAuthorization(
  db: Db,
  methods: MethodRegistry,
  admins: readonly string[],
  pfs: PfsStore,
): Authorizer {
  const bindings = new RoleBindings(db, admins);
  // A pipeline's output commits (origin AUTO, made by the runner whoever triggered the job) are
  // written by the pipeline's robot principal; any other commit by its caller.
  pfs.commitAuthor = (repo, origin) =>
    origin === 'AUTO'
      ? pipelinePrincipal(repo.project, repo.name)
      : (currentCaller()?.principal ?? '');
  const exists = (sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) !== undefined;
  const authorizer = new Authorizer(bindings, {
    projectExists: (project) => exists('SELECT 1 FROM projects WHERE name = ?', project),
    repoExists: (project, repo) =>
      exists("SELECT 1 FROM repos WHERE project = ? AND name = ? AND type = 'user'", project, repo),
    trialProject: (id) =>
      (
        db.prepare('SELECT project FROM trials WHERE id = ?').get(id) as
          { project: string } | undefined
      )?.project ?? null,
    uploadTarget: (id) =>
      (db.prepare('SELECT project, repo FROM uploads WHERE id = ?').get(id) as
        { project: string; repo: string } | undefined) ?? null,
  });
  registerAuthV2Api(methods, authorizer);
  return authorizer;
}
