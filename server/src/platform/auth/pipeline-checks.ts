import { parseJsonObject } from '../pps/spec.ts';
import type { Authorizer } from './authorizer.ts';
import {
  defaultsReferences,
  type PipelineLookup,
  type PipelineReferences,
} from './pipeline-references.ts';
import { DEFAULT_PROJECT, projectName, reposIn, type RepoRef } from './request-resources.ts';
import {
  CLUSTER,
  pipelinePrincipal,
  projectResource,
  repoResource,
  type Permission,
} from './roles.ts';

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};

/** Reading a secret's value needs what InspectSecret needs. */
export const SECRET_READ: Permission = 'SECRET_INSPECT';

/** A check at run time (a job's start, a cron tick): see PipelineChecks.denied. */
export interface RunCheck {
  project: string;
  pipeline: string;
  /** Who created the pipeline's current version ('' for the platform, or sign-in off). */
  creator: string;
  /** Repos it reads (its pfs inputs). */
  inputs: RepoRef[];
  /** Repos it writes besides its output (its cron inputs' repos). */
  writes?: RepoRef[];
  /** Secrets its transform reads. */
  secrets?: string[];
  /** Whether it writes its output repo now (a job does; a cron tick does not). Default true. */
  output?: boolean;
}

/**
 * Role checks of everything a pipeline refers to — at its creation with its defaults merged in
 * (so a reference a default makes counts as written in the spec), for a defaults document, for
 * RunCron, and when it runs. A pipeline reads its pfs inputs (REPO_READ), writes its output
 * (REPO_WRITE, or PROJECT_CREATE_REPO for a new one) and its cron inputs' repos (the same), and
 * reads the secrets it names (what InspectSecret needs).
 */
export class PipelineChecks {
  /** Set once the pipeline engine is open (embedded-platform.ts). */
  lookup: PipelineLookup | null = null;

  constructor(private readonly a: Authorizer) {}

  /** REPO_WRITE on a repo that exists, PROJECT_CREATE_REPO in its project for a new one. */
  private requireWritable(who: string, ref: RepoRef): boolean {
    const exists = ref.repo !== '' && this.a.deps.repoExists(ref.project, ref.repo);
    if (exists) this.a.require(who, repoResource(ref.project, ref.repo), 'REPO_WRITE');
    else this.a.require(who, projectResource(ref.project), 'PROJECT_CREATE_REPO');
    return exists;
  }

  private requireReferences(
    who: string,
    refs: Pick<PipelineReferences, 'reads' | 'writes' | 'secrets'>,
    output?: RepoRef,
  ): RepoRef[] {
    const isOutput = (ref: RepoRef) =>
      output !== undefined && ref.project === output.project && ref.repo === output.repo;
    for (const ref of refs.reads)
      if (!isOutput(ref)) this.a.require(who, repoResource(ref.project, ref.repo), 'REPO_READ');
    const created = refs.writes.filter((ref) => !this.requireWritable(who, ref));
    for (const _secret of refs.secrets) this.a.require(who, CLUSTER, SECRET_READ);
    return created;
  }

  /**
   * CreatePipeline(V2): the output as the request names it, then every reference of the effective
   * spec. Answers what to bind once the call succeeded: its robot principal gets repoWriter on the
   * output and repoReader on its inputs (cron repos included); the caller owns a new output repo
   * and each cron repo it makes.
   */
  create(who: string, method: string, raw: Json): (() => void) | undefined {
    const body =
      typeof raw.createPipelineRequestJson === 'string' && raw.createPipelineRequestJson
        ? parseJsonObject(raw.createPipelineRequestJson, 'createPipelineRequestJson')
        : raw;
    const named = asObject(body.pipeline);
    const name = typeof named.name === 'string' ? named.name : '';
    const project = projectName(named.project) || DEFAULT_PROJECT;
    if (!name) {
      this.a.require(who, projectResource(project), 'PROJECT_CREATE_REPO');
      return undefined;
    }
    const outputExisted = this.requireWritable(who, { project, repo: name });
    const refs: PipelineReferences = this.lookup
      ? this.lookup.requested(method, raw)
      : {
          project,
          name,
          reads: reposIn(body.input, project),
          writes: [],
          secrets: [],
        };
    const output = { project: refs.project, repo: refs.name };
    const exists =
      refs.project === project && refs.name === name
        ? outputExisted
        : this.requireWritable(who, output);
    const created = this.requireReferences(who, refs, output);
    if (raw.dryRun === true || body.dryRun === true) return undefined;
    return () => {
      const { bindings } = this.a;
      const robot = pipelinePrincipal(output.project, output.repo);
      bindings.setRoles(repoResource(output.project, output.repo), robot, ['repoWriter']);
      for (const ref of [...refs.reads, ...refs.writes])
        if (ref.project !== output.project || ref.repo !== output.repo)
          bindings.setRoles(repoResource(ref.project, ref.repo), robot, ['repoReader']);
      if (!exists) bindings.setRoles(repoResource(output.project, output.repo), who, ['repoOwner']);
      for (const ref of created)
        bindings.setRoles(repoResource(ref.project, ref.repo), who, ['repoOwner']);
    };
  }

  /**
   * Set(Project|Cluster)Defaults: what the document refers to is merged into specs, so its caller
   * needs what a spec with those references would need.
   */
  defaults(who: string, text: unknown, project: string): void {
    if (typeof text !== 'string' || text.trim() === '') return;
    const document = parseJsonObject(text, 'the defaults');
    this.requireReferences(who, defaultsReferences(document, project));
  }

  /** RunCron: the caller writes (through the ticks) every cron input's repo of the pipeline. */
  runCron(who: string, pipeline: RepoRef): void {
    const refs = this.lookup?.existing(pipeline.project, pipeline.repo);
    for (const ref of refs?.writes ?? [])
      this.a.require(who, repoResource(ref.project, ref.repo), 'REPO_WRITE');
  }

  /**
   * Why a pipeline may not run now, or null when it may. It runs as its creator's permissions
   * through its robot principal: both must still read every input, and write the output; its
   * creator must still write its cron repos and read its secrets (a revoked binding stops it).
   * `creator` '' (the platform's pipeline, or sign-in was off): only the robot's bindings count.
   */
  denied(check: RunCheck): string | null {
    const robot = pipelinePrincipal(check.project, check.pipeline);
    const principals = check.creator ? [check.creator, robot] : [robot];
    const whose = (principal: string) => (principal === robot ? '' : ' (its creator)');
    const needs: [RepoRef, Permission, string, string[]][] = [
      ...check.inputs.map((ref): [RepoRef, Permission, string, string[]] => [
        ref,
        'REPO_READ',
        'read input',
        principals,
      ]),
      ...(check.output === false
        ? []
        : [
            [
              { project: check.project, repo: check.pipeline },
              'REPO_WRITE',
              'write output',
              principals,
            ] as [RepoRef, Permission, string, string[]],
          ]),
      ...(check.writes ?? []).map((ref): [RepoRef, Permission, string, string[]] => [
        ref,
        'REPO_WRITE',
        'write cron input',
        check.creator ? [check.creator] : [],
      ]),
    ];
    for (const [ref, permission, what, who] of needs)
      for (const principal of who)
        if (!this.a.has(principal, repoResource(ref.project, ref.repo), permission))
          return (
            `pipeline ${check.project}/${check.pipeline} may no longer ${what} repo ` +
            `${ref.project}/${ref.repo}: ${principal}${whose(principal)} lacks ${permission} on it`
          );
    if (check.creator)
      for (const secret of check.secrets ?? [])
        if (!this.a.has(check.creator, CLUSTER, SECRET_READ))
          return (
            `pipeline ${check.project}/${check.pipeline} may no longer read secret ${secret}: ` +
            `${check.creator} (its creator) lacks ${SECRET_READ} on the cluster`
          );
    return null;
  }
}
