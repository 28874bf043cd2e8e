import { randomBytes } from 'node:crypto';
import { alreadyExists, failedPrecondition, invalidArgument, notFound } from '../../errors.ts';
import type { WireObject } from '../wire.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import type { CommitRow } from '../pfs/rows.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { LogStore } from './logs.ts';
import type { PipelineStateRow, PpsStore } from './pps-store.ts';
import type { Runner } from './runner/runner.ts';
import {
  checkDefaults,
  checkEffectiveSpec,
  checkUserSpec,
  effectiveSpec,
  inputLeaves,
  parseJsonObject,
  readPipelineSpec,
  requestOf,
  specProject,
  type PipelineSpec,
} from './spec.ts';
import {
  checkSpecCommit,
  inputRepos,
  validatePipeline,
  validatePipelineRequest,
} from './spec-validation.ts';
import { defaultProject } from '../pfs/pfs-requests.ts';

export interface CreateOptions {
  update: boolean;
  reprocess: boolean;
  dryRun: boolean;
}

/** Creating, updating, deleting, starting and stopping pipelines; defaults. */
export class Pipelines {
  constructor(
    private readonly pfs: PfsStore,
    private readonly blobs: BlobStore,
    private readonly store: PpsStore,
    private readonly runner: Runner,
    private readonly logs: LogStore,
  ) {}

  getState(project: string, name: string): PipelineStateRow {
    const state = this.store.findState(project, name);
    if (!state) throw notFound(`pipeline ${name} not found in project ${project}`);
    return state;
  }

  private defaultsFor(project: string): { cluster: WireObject; project: WireObject } {
    return {
      cluster: checkDefaults(this.store.clusterDefaults(), 'cluster defaults'),
      project: checkDefaults(this.store.projectDefaults(project).json, 'project defaults'),
    };
  }

  /** A spec checked against the schema, with the defaults applied (the effective spec). */
  effective(userSpec: WireObject): WireObject {
    const checked = checkUserSpec(userSpec);
    const defaults = this.defaultsFor(specProject(checked));
    const effective = effectiveSpec(checked, defaults.cluster, defaults.project);
    readPipelineSpec(effective, { strict: true });
    return effective;
  }

  /**
   * CreatePipeline(V2), checked in pachd's order with its messages: the effective spec, the
   * pipeline named (a dry run answers here, with the request checked), one of that name (unless
   * updating), the request and the pipeline with its defaults, its input repos, a repo already
   * named like it (left by DeletePipeline with keepRepo), then what the embedded platform
   * cannot run. Returns the effective spec.
   */
  async create(specJson: string | WireObject, options: CreateOptions): Promise<WireObject> {
    const userSpec =
      typeof specJson === 'string'
        ? parseJsonObject(specJson, 'createPipelineRequestJson')
        : specJson;
    const update = options.update || userSpec.update === true;
    const reprocess = options.reprocess || userSpec.reprocess === true;
    const dryRun = options.dryRun || userSpec.dryRun === true;
    const effective = this.effective(userSpec);
    const request = requestOf(effective);
    if (!request.pipeline) throw invalidArgument('request.Pipeline cannot be nil');
    const project = request.pipeline.project?.name || defaultProject;
    const name = request.pipeline.name;
    if (dryRun) {
      validatePipelineRequest(request);
      validatePipeline(request);
      return effective;
    }
    const existing = name ? this.store.findState(project, name) : undefined;
    if (existing && !update)
      throw alreadyExists(`pipeline ${JSON.stringify(`${project}/${name}`)} already exists`);
    validatePipelineRequest(request);
    validatePipeline(request);
    this.pfs.getProject(project);
    for (const repo of inputRepos(request.input, project)) {
      if (repo.project === project && repo.name === name)
        throw failedPrecondition(`pipeline ${name} cannot read its own output repo`);
      this.pfs.getRepo({ ...repo, type: 'user' });
    }
    if (!existing && this.pfs.findRepo({ project, name, type: 'user' }))
      throw alreadyExists(
        `pipeline ${JSON.stringify(name)} cannot be created because a repo with the same name already exists`,
      );
    checkSpecCommit(request);
    const spec = readPipelineSpec(effective);
    await this.saveVersion(spec.project, spec.name, checkUserSpec(userSpec), effective, reprocess);
    // pachd accepts a pipeline with nothing to run; its workers then fail, and so does it.
    if (spec.transform.cmd.length === 0)
      this.store.setFailure(spec.project, spec.name, 'transform.cmd is empty: nothing to run');
    return effective;
  }

  private async saveVersion(
    project: string,
    name: string,
    userSpec: WireObject,
    effective: WireObject,
    reprocess: boolean,
  ): Promise<void> {
    const prepared = await this.prepareVersion(project, name, userSpec, effective, reprocess);
    const specCommit = this.pfs.transaction(() => this.landVersion(prepared));
    this.startVersion(project, name, specCommit);
  }

  /** The part of a new version that happens outside the database: its spec file's blob. */
  private async prepareVersion(
    project: string,
    name: string,
    userSpec: WireObject,
    effective: WireObject,
    reprocess: boolean,
  ): Promise<PreparedVersion> {
    const spec = readPipelineSpec(effective);
    const previous = this.store.versions(project, name)[0];
    // As pachd: an update keeps the salt (only new datums run) unless it reprocesses; a spec's
    // own salt counts for a pipeline's first version.
    const fresh = () => randomBytes(16).toString('hex');
    const salt = reprocess ? fresh() : previous ? previous.salt : spec.salt || fresh();
    const specBlob = await this.blobs.writeBytes(
      Buffer.from(JSON.stringify(effective, null, 2) + '\n'),
    );
    return { project, name, userSpec, effective, spec, salt, specBlob };
  }

  /** Stores a prepared version (repos, spec commit, version row); call inside a transaction. */
  private landVersion(prepared: PreparedVersion): CommitRow {
    const { project, name, spec, specBlob } = prepared;
    const previous = this.store.versions(project, name)[0];
    const ensure = (type: 'user' | 'spec' | 'meta', description: string) =>
      this.pfs.findRepo({ project, name, type }) ??
      this.pfs.createRepo({ project, name, type }, description, false);
    ensure('user', spec.description || `Output of pipeline ${name}`);
    const specRepo = ensure('spec', `Versions of pipeline ${name}`);
    ensure('meta', `Job metadata of pipeline ${name}`);
    for (const leaf of inputLeaves(spec.input)) {
      if (leaf.kind !== 'cron') continue;
      if (!this.pfs.findRepo({ project: leaf.project, name: leaf.repo, type: 'user' }))
        this.pfs.createRepo(
          { project: leaf.project, name: leaf.repo, type: 'user' },
          `Ticks of cron input ${leaf.name}`,
          false,
        );
    }
    const specCommit = this.pfs.landCommit(
      specRepo,
      'master',
      `version ${(previous?.version ?? 0) + 1}`,
      [{ path: '/spec.json', hash: specBlob.hash, sizeBytes: specBlob.sizeBytes }],
    );
    this.store.addVersion({
      project,
      name,
      version: (previous?.version ?? 0) + 1,
      user_spec: JSON.stringify(prepared.userSpec),
      effective_spec: JSON.stringify(prepared.effective),
      salt: prepared.salt,
      spec_commit_id: specCommit.id,
      created_at: Date.now(),
    });
    return specCommit;
  }

  /** After a version is stored: crons, and (like Pachyderm) a job over the current inputs. */
  private startVersion(project: string, name: string, specCommit: CommitRow): void {
    const state = this.getState(project, name);
    this.runner.scheduleCrons(state);
    if (!state.stopped) this.runner.jobFromHeads(state, specCommit.id);
  }

  async delete(
    project: string,
    name: string,
    options: { keepRepo: boolean; force: boolean },
  ): Promise<void> {
    const state = this.getState(project, name);
    const spec = this.runner.spec(project, name);
    this.runner.clearCrons(project, name);
    await this.runner.stopPipelineJobs(project, name, 'the pipeline was deleted');
    // Downstream pipelines read this one's output repo: keep it unless forced.
    if (!options.keepRepo && !options.force) {
      for (const other of this.store.listStates()) {
        if (other.project === project && other.name === name) continue;
        const reads = inputLeaves(this.runner.spec(other.project, other.name).input).some(
          (leaf) => leaf.project === project && leaf.repo === name,
        );
        if (reads)
          throw failedPrecondition(
            `pipeline ${other.name} reads the output of ${name}: delete it first, or use force or keepRepo`,
          );
      }
    }
    this.store.deletePipelineRows(state.project, state.name);
    this.logs.deletePipeline(project, name);
    for (const type of ['spec', 'meta'] as const) {
      if (this.pfs.findRepo({ project, name, type })) this.pfs.deleteRepo({ project, name, type });
    }
    if (!options.keepRepo) {
      if (this.pfs.findRepo({ project, name, type: 'user' }))
        this.pfs.deleteRepo({ project, name, type: 'user' });
      for (const leaf of inputLeaves(spec.input)) {
        if (
          leaf.kind === 'cron' &&
          this.pfs.findRepo({ project: leaf.project, name: leaf.repo, type: 'user' })
        )
          this.pfs.deleteRepo({ project: leaf.project, name: leaf.repo, type: 'user' });
      }
    }
  }

  stop(project: string, name: string): void {
    this.getState(project, name);
    this.store.setStopped(project, name, true);
    this.runner.clearCrons(project, name);
  }

  start(project: string, name: string): void {
    this.getState(project, name);
    this.store.setStopped(project, name, false);
    const state = this.getState(project, name);
    this.runner.scheduleCrons(state);
    // Catch up on input commits that landed while it was stopped.
    const spec = this.runner.spec(project, name);
    for (const leaf of inputLeaves(spec.input)) {
      const repo = this.pfs.findRepo({ project: leaf.project, name: leaf.repo, type: 'user' });
      const branch =
        repo && this.pfs.findBranch(repo, leaf.kind === 'cron' ? 'master' : leaf.branch);
      if (branch?.head_rowid) {
        const head = this.pfs.commitByRowid(branch.head_rowid);
        if (head.finished_at !== null && !this.store.findJob(project, name, head.id))
          this.runner.jobFromHeads(state, head.id);
      }
    }
    this.runner.kick();
  }

  /** A new job over the current inputs, with a new global ID (RerunPipeline / RunPipeline). */
  async rerun(project: string, name: string, reprocess: boolean): Promise<string> {
    const state = this.getState(project, name);
    if (reprocess) {
      const current = this.store.version(project, name, state.version);
      await this.saveVersion(
        project,
        name,
        JSON.parse(current.user_spec) as WireObject,
        JSON.parse(current.effective_spec) as WireObject,
        true,
      );
      return this.store.versions(project, name)[0]?.spec_commit_id ?? '';
    }
    const id = randomBytes(16).toString('hex');
    const job = this.runner.jobFromHeads(state, id);
    if (!job) throw failedPrecondition(`pipeline ${name} has inputs without commits`);
    return id;
  }

  // ---- defaults -------------------------------------------------------------------------

  /**
   * Pipelines whose effective spec changes under new defaults; regenerate makes new versions.
   * Every affected pipeline's effective spec is checked before anything is stored, and the
   * defaults and the new versions are stored in one transaction: a rejected save changes nothing.
   */
  async applyDefaults(
    scope: { project: string } | 'cluster',
    json: string,
    options: { regenerate: boolean; reprocess: boolean; dryRun: boolean },
  ): Promise<{ project: string; name: string }[]> {
    const parsed = checkDefaults(
      json,
      scope === 'cluster' ? 'clusterDefaultsJson' : 'projectDefaultsJson',
    );
    const affected: { project: string; name: string; user: WireObject; effective: WireObject }[] =
      [];
    for (const state of this.store.listStates(scope === 'cluster' ? [] : [scope.project])) {
      const current = this.store.version(state.project, state.name, state.version);
      const user = JSON.parse(current.user_spec) as WireObject;
      const cluster =
        scope === 'cluster'
          ? parsed
          : checkDefaults(this.store.clusterDefaults(), 'cluster defaults');
      const project =
        scope === 'cluster'
          ? checkDefaults(this.store.projectDefaults(state.project).json, 'project defaults')
          : parsed;
      const effective = effectiveSpec(user, cluster, project);
      if (JSON.stringify(effective) === current.effective_spec) continue;
      checkEffectiveSpec(effective, `pipeline ${state.name} under these defaults`);
      affected.push({ project: state.project, name: state.name, user, effective });
    }
    const names = affected.map(({ project, name }) => ({ project, name }));
    if (options.dryRun) return names;
    const prepared = options.regenerate
      ? await Promise.all(
          affected.map((p) =>
            this.prepareVersion(p.project, p.name, p.user, p.effective, options.reprocess),
          ),
        )
      : [];
    // Stored as given, as pachd stores it (Get*Defaults answers the same text).
    const text = json.trim() === '' ? '{}' : json;
    const landed = this.pfs.transaction(() => {
      if (scope === 'cluster') this.store.setClusterDefaults(text);
      else this.store.setProjectDefaults(scope.project, text);
      return prepared.map((version) => ({ version, commit: this.landVersion(version) }));
    });
    for (const { version, commit } of landed)
      this.startVersion(version.project, version.name, commit);
    return names;
  }
}

interface PreparedVersion {
  project: string;
  name: string;
  userSpec: WireObject;
  effective: WireObject;
  spec: PipelineSpec;
  salt: string;
  specBlob: { hash: string; sizeBytes: number };
}
