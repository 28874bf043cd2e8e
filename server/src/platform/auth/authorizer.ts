import { ApiError, Code } from '../../errors.ts';
import { aroundStream } from '../message-runs.ts';
import type { Method, MethodRegistry } from '../platform.ts';
import { currentCaller, type Caller } from './caller.ts';
import { listedView, repoOfInfo } from './listed-messages.ts';
import { METHOD_NEEDS, type CustomRule } from './method-permissions.ts';
import { PipelineChecks, type RunCheck } from './pipeline-checks.ts';
import {
  DEFAULT_PROJECT,
  jsonView,
  projectName,
  projectsIn,
  reposIn,
  type RepoRef,
} from './request-resources.ts';
import type { RoleBindings } from './role-bindings.ts';
import { CLUSTER, projectResource, repoResource, type Permission, type Resource } from './roles.ts';

/** What the authorizer asks the rest of the platform. */
export interface AuthorizerDeps {
  projectExists(project: string): boolean;
  repoExists(project: string, repo: string): boolean;
  /** The project of a trial, or null when there is no such trial. */
  trialProject(id: string): string | null;
  /** Where an upload session lands, or null when there is no such session. */
  uploadTarget(id: string): { project: string; repo: string } | null;
}

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};

/**
 * A typed ModifyFileRequest (typed-method.ts: `body` is a oneof `{case, value}`) in the shape of
 * its JSON, `{setCommit: …}`; a JSON message as it is.
 */
function oneofAsJson(message: unknown): Json {
  const body = asObject(asObject(message).body);
  if (typeof body.case === 'string' && '$typeName' in asObject(message))
    return { [body.case]: body.value };
  return asObject(message);
}

export const describeResource = (resource: Resource) =>
  resource.type === 'CLUSTER' ? 'CLUSTER' : `${resource.type} ${resource.name}`;

export function permissionDenied(
  principal: string,
  permissions: readonly string[],
  resource: Resource,
): ApiError {
  return new ApiError(
    Code.PERMISSION_DENIED,
    `${principal} is not authorized to perform this operation - needs permissions [${permissions.join(
      ', ',
    )}] on ${describeResource(resource)}`,
  );
}

/** Runs after a call succeeded (bindings of what it created, cleanup of what it deleted). */
type After = (() => void) | undefined;

/**
 * Role checks on every call, by the method table: wraps a method registry so that a call made
 * for a caller (see caller.ts) runs only when the caller holds what the method needs. Calls
 * made by the platform itself (no caller) are not checked.
 */
export class Authorizer {
  /** What pipelines refer to, checked at creation and at run (pipeline-checks.ts). */
  readonly pipelines = new PipelineChecks(this);

  constructor(
    readonly bindings: RoleBindings,
    readonly deps: AuthorizerDeps,
  ) {}

  has(principal: string, resource: Resource, permission: string): boolean {
    return this.bindings.holds(principal, resource, permission);
  }

  require(principal: string, resource: Resource, permission: Permission): void {
    if (!this.has(principal, resource, permission))
      throw permissionDenied(principal, [permission], resource);
  }

  requireRepos(principal: string, repos: RepoRef[], permission: Permission): void {
    if (repos.length === 0) return this.require(principal, CLUSTER, permission);
    for (const ref of repos)
      this.require(principal, repoResource(ref.project, ref.repo), permission);
  }

  /** A project is visible with PROJECT_LIST_REPO on it, or a role on one of its repos. */
  canSeeProject(principal: string, project: string): boolean {
    if (this.has(principal, projectResource(project), 'PROJECT_LIST_REPO')) return true;
    return this.bindings.hasRepoBindingIn(principal, project);
  }

  /** Throws 7 unless the caller may make this call; answers what to do once it succeeded. */
  check(caller: Caller, method: string, body: unknown): After {
    const need = METHOD_NEEDS[method];
    const who = caller.principal;
    if (!need)
      throw new ApiError(Code.PERMISSION_DENIED, `${method} has no entry in the permission table`);
    switch (need.kind) {
      case 'open':
      case 'listed':
        return undefined;
      case 'cluster':
        this.require(who, CLUSTER, need.permission);
        return undefined;
      case 'project': {
        const projects = projectsIn(body);
        if (projects.length === 0) this.require(who, CLUSTER, need.permission);
        for (const name of projects) this.require(who, projectResource(name), need.permission);
        return undefined;
      }
      case 'repo':
        this.requireRepos(who, reposIn(body), need.permission);
        return undefined;
      case 'custom':
        return this.checkCustom(who, need.rule, method, jsonView(asObject(body)));
    }
  }

  /**
   * For `listed` methods: a streamed message as the caller may see it (a commit set's commits
   * only in repos they may read), or null when it is about nothing they may read.
   */
  visible(caller: Caller, method: string, message: unknown): unknown {
    const who = caller.principal;
    return listedView(method, message, {
      canRead: (ref) => this.has(who, repoResource(ref.project, ref.repo), 'REPO_READ'),
      canListJobs: (ref) => this.has(who, repoResource(ref.project, ref.repo), 'PIPELINE_LIST_JOB'),
      canSeeProject: (project) => this.canSeeProject(who, project),
    });
  }

  /** A RepoInfo with `authInfo`: the caller's permissions and roles on that repo. */
  withAuthInfo(caller: Caller, message: unknown): unknown {
    const repo = repoOfInfo(message);
    if (!repo || typeof message !== 'object' || message === null) return message;
    return {
      ...message,
      authInfo: this.bindings.authInfo(caller.principal, repoResource(repo.project, repo.repo)),
    };
  }

  /**
   * One ModifyFile message: writes need REPO_WRITE on the commit, copies read the source.
   * CreateFileSet's messages (`fileSet`) write no commit: only copies are checked.
   */
  checkModifyMessage(caller: Caller, message: unknown, first: boolean, fileSet = false): void {
    const body = oneofAsJson(message);
    // A stream that does not start by naming its commit names no repo: the cluster's say.
    if (!fileSet && first && !body.setCommit) this.require(caller.principal, CLUSTER, 'REPO_WRITE');
    if (!fileSet && body.setCommit)
      this.requireRepos(caller.principal, reposIn(body.setCommit), 'REPO_WRITE');
    const copy = asObject(body.copyFile);
    if (copy.src) this.requireRepos(caller.principal, reposIn(copy.src), 'REPO_READ');
  }

  private checkCustom(who: string, rule: CustomRule, method: string, body: Json): After {
    switch (rule) {
      case 'createProject': {
        const name = projectName(body.project);
        if (name && this.deps.projectExists(name)) {
          this.require(who, projectResource(name), 'PROJECT_MODIFY_BINDINGS');
          return undefined;
        }
        this.require(who, CLUSTER, 'PROJECT_CREATE');
        return () => this.bindings.setRoles(projectResource(name), who, ['projectOwner']);
      }
      case 'deleteProject': {
        const name = projectName(body.project) || DEFAULT_PROJECT;
        this.require(who, projectResource(name), 'PROJECT_DELETE');
        return () => this.bindings.forget(projectResource(name));
      }
      case 'createRepo': {
        const [ref] = reposIn({ repo: body.repo });
        if (!ref) {
          this.require(who, CLUSTER, 'PROJECT_CREATE_REPO');
          return undefined;
        }
        if (this.deps.repoExists(ref.project, ref.repo)) {
          this.require(who, repoResource(ref.project, ref.repo), 'REPO_WRITE');
          return undefined;
        }
        this.require(who, projectResource(ref.project), 'PROJECT_CREATE_REPO');
        return () =>
          this.bindings.setRoles(repoResource(ref.project, ref.repo), who, ['repoOwner']);
      }
      case 'deleteRepo': {
        const repos = reposIn({ repo: body.repo });
        this.requireRepos(who, repos, 'REPO_DELETE');
        return () =>
          repos.forEach((ref) => this.bindings.forget(repoResource(ref.project, ref.repo)));
      }
      case 'createBranch':
        this.requireRepos(who, reposIn({ branch: body.branch }), 'REPO_CREATE_BRANCH');
        this.checkReadable(who, reposIn({ head: body.head, provenance: body.provenance }));
        return undefined;
      case 'modifyFile':
      case 'createFileSet':
        // Checked message by message (checkModifyMessage).
        return undefined;
      case 'createPipeline':
        return this.pipelines.create(who, method, body);
      case 'setProjectDefaults': {
        const project = projectName(body.project) || DEFAULT_PROJECT;
        this.require(who, projectResource(project), 'PROJECT_SET_DEFAULTS');
        this.pipelines.defaults(who, body.projectDefaultsJson, project);
        return undefined;
      }
      case 'setClusterDefaults':
        this.require(who, CLUSTER, 'CLUSTER_SET_DEFAULTS');
        this.pipelines.defaults(who, body.clusterDefaultsJson, '');
        return undefined;
      case 'runCron': {
        const repos = reposIn({ pipeline: body.pipeline });
        this.requireRepos(who, repos, 'REPO_WRITE');
        for (const ref of repos) this.pipelines.runCron(who, ref);
        return undefined;
      }
      case 'editMetadata': {
        const edits = Array.isArray(body.edits) ? body.edits : [];
        if (edits.length === 0) this.require(who, CLUSTER, 'CLUSTER_EDIT_CLUSTER_METADATA');
        for (const edit of edits.map(asObject)) {
          const repos = reposIn(edit);
          const [project] = projectsIn(edit);
          if (repos.length) this.requireRepos(who, repos, 'REPO_WRITE');
          else if (project) this.require(who, projectResource(project), 'PROJECT_CREATE_REPO');
          else this.require(who, CLUSTER, 'CLUSTER_EDIT_CLUSTER_METADATA');
        }
        return undefined;
      }
      case 'trialById': {
        // `id` or `trial.id` (a generated request holds both, the unused one empty).
        const id =
          (typeof body.id === 'string' && body.id) || String(asObject(body.trial).id ?? '');
        const project = id ? this.deps.trialProject(id) : null;
        const permission = method.endsWith('/InspectTrial')
          ? 'PROJECT_LIST_REPO'
          : 'PROJECT_CREATE_REPO';
        this.require(who, project === null ? CLUSTER : projectResource(project), permission);
        return undefined;
      }
      case 'roleBinding':
      case 'modifyRoleBinding': {
        const resource = resourceOf(body.resource);
        const modify = rule === 'modifyRoleBinding';
        const permission: Permission =
          resource.type === 'CLUSTER'
            ? modify
              ? 'CLUSTER_MODIFY_BINDINGS'
              : 'CLUSTER_GET_BINDINGS'
            : resource.type === 'PROJECT'
              ? modify
                ? 'PROJECT_MODIFY_BINDINGS'
                : 'PROJECT_LIST_REPO'
              : modify
                ? 'REPO_MODIFY_BINDINGS'
                : 'REPO_READ';
        this.require(who, resource, permission);
        return undefined;
      }
      case 'egress':
        this.requireRepos(who, reposIn(body.commit), 'REPO_READ');
        this.require(who, CLUSTER, 'CLUSTER_DEBUG_DUMP');
        return undefined;
    }
  }

  private checkReadable(who: string, repos: RepoRef[]): void {
    for (const ref of repos) this.require(who, repoResource(ref.project, ref.repo), 'REPO_READ');
  }

  /** Why a pipeline may not run now, or null when it may (PipelineChecks.denied). */
  pipelineDenied(check: RunCheck): string | null {
    return this.pipelines.denied(check);
  }

  /** A registry whose methods check the caller first (the HTTP gateway dispatches to it). */
  wrap(methods: MethodRegistry): MethodRegistry {
    const wrapped: MethodRegistry = new Map();
    for (const [key, method] of methods) wrapped.set(key, this.wrapMethod(key, method));
    return wrapped;
  }

  private wrapMethod(key: string, method: Method): Method {
    const listed = METHOD_NEEDS[key]?.kind === 'listed';
    switch (method.kind) {
      case 'unary':
        return {
          ...method,
          kind: 'unary',
          handler: async (request, signal) => {
            const caller = currentCaller();
            const after = caller ? this.check(caller, key, request) : undefined;
            const result = await method.handler(request, signal);
            after?.();
            return result;
          },
        };
      case 'stream': {
        const check = (caller: Caller, request: unknown) => this.check(caller, key, request);
        const visible = (caller: Caller, message: unknown) => this.visible(caller, key, message);
        // A stream whose messages pass unfiltered keeps its runs (message-runs.ts).
        if (!listed)
          return {
            ...method,
            kind: 'stream',
            handler: (request, signal) =>
              aroundStream(() => {
                const caller = currentCaller();
                const end = caller ? check(caller, request) : undefined;
                return { stream: method.handler(request, signal), end };
              }),
          };
        // ListRepo answers as pachd does: each RepoInfo carries the caller's permissions and
        // roles on it (auth_info), so a list's per-row actions need no Authorize call each.
        const describe =
          key === 'pfs_v2.API/ListRepo'
            ? (caller: Caller, message: unknown) => this.withAuthInfo(caller, message)
            : (_caller: Caller, message: unknown) => message;
        return {
          ...method,
          kind: 'stream',
          handler: async function* (request, signal) {
            const caller = currentCaller();
            const after = caller ? check(caller, request) : undefined;
            for await (const message of method.handler(request, signal)) {
              if (!caller) {
                yield message;
                continue;
              }
              const shown = visible(caller, message);
              if (shown !== null) yield describe(caller, shown);
            }
            after?.();
          },
        };
      }
      case 'clientStream': {
        const need = METHOD_NEEDS[key];
        const fileSet = need?.kind === 'custom' && need.rule === 'createFileSet';
        const checkMessage = (caller: Caller, message: unknown, first: boolean) =>
          this.checkModifyMessage(caller, message, first, fileSet);
        return {
          ...method,
          kind: 'clientStream',
          handler: async (requests, signal) => {
            const caller = currentCaller();
            if (!caller) return method.handler(requests, signal);
            const after = this.check(caller, key, {});
            const checked = (async function* () {
              let first = true;
              for await (const message of requests) {
                checkMessage(caller, message, first);
                first = false;
                yield message;
              }
            })();
            const result = await method.handler(checked, signal);
            after?.();
            return result;
          },
        };
      }
    }
  }
}

const RESOURCE_TYPES: Record<string, Resource['type']> = {
  CLUSTER: 'CLUSTER',
  '0': 'CLUSTER', // unset in a generated message
  '1': 'CLUSTER',
  REPO: 'REPO',
  '2': 'REPO',
  PROJECT: 'PROJECT',
  '4': 'PROJECT',
};

/** An auth_v2.Resource from the wire: `{type, name}`, type by name or number. */
export function resourceOf(value: unknown): Resource {
  const body = asObject(value);
  const type = RESOURCE_TYPES[String(body.type ?? 'CLUSTER')];
  const name = typeof body.name === 'string' ? body.name : '';
  if (!type)
    throw new ApiError(
      Code.INVALID_ARGUMENT,
      `resource type ${String(body.type)} is not supported`,
    );
  if (type === 'CLUSTER') return CLUSTER;
  if (!name) throw new ApiError(Code.INVALID_ARGUMENT, 'resource.name is required');
  if (type === 'REPO' && !name.includes('/')) return repoResource(DEFAULT_PROJECT, name);
  return { type, name };
}
