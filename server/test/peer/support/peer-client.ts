/**
 * The client the ported Pachyderm tests call: the calls of Pachyderm's Go client that its tests use
 * (`CreateRepo`, `PutFile`, `StartCommit`, `CreatePipeline`, `WaitCommitSetAll`…), each one gRPC
 * call (or stream) to the real server's gRPC listener with the messages generated from `proto/`.
 * A ported test reads like its Go original:
 *
 *   const env = usePeerServer();
 *   it('TestAppendFile (pfs/server/testing/server_test.go)', async () => {
 *     const c = env.client();
 *     await c.createRepo('default', 'repo');
 *     await c.putFile(c.commit('default', 'repo', 'master'), 'file', 'foo\n', { append: true });
 *   });
 *
 * Overwrite and append as Pachyderm's client sends them: `putFile` is DeleteFile then AddFile in
 * one ModifyFile stream; `{ append: true }` is AddFile alone.
 */
import {
  create,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';
import { pfs_v2, pps_v2 } from '@ivory/api/proto';
import type { ServiceError } from '@grpc/grpc-js';
import { grpcClient, type GrpcTestClient } from '../../helpers/grpc-client.ts';

export type Commit = MessageShape<typeof pfs_v2.CommitSchema>;
export type Branch = MessageShape<typeof pfs_v2.BranchSchema>;
export type Repo = MessageShape<typeof pfs_v2.RepoSchema>;
export type CommitInfo = MessageShape<typeof pfs_v2.CommitInfoSchema>;
export type BranchInfo = MessageShape<typeof pfs_v2.BranchInfoSchema>;
export type FileInfo = MessageShape<typeof pfs_v2.FileInfoSchema>;
export type Input = MessageInitShape<typeof pps_v2.InputSchema>;
export type JobInfo = MessageShape<typeof pps_v2.JobInfoSchema>;
export type PipelineInfo = MessageShape<typeof pps_v2.PipelineInfoSchema>;
type ModifyFileRequest = MessageInitShape<typeof pfs_v2.ModifyFileRequestSchema>;
/** A message's plain-object init form (not a message already made). */
type Plain<S extends DescMessage> = Exclude<MessageInitShape<S>, MessageShape<S>>;

export const { CommitState, FileType, OriginKind } = pfs_v2;
export const { JobState, PipelineState, DatumState } = pps_v2;

/** A repo message (`type` "user" unless given), as the Go client's `client.NewRepo`. */
export function repo(project: string, name: string, type = 'user'): Repo {
  return create(pfs_v2.RepoSchema, { project: { name: project }, name, type });
}
export function branch(project: string, repoName: string, name: string): Branch {
  return create(pfs_v2.BranchSchema, { repo: repo(project, repoName), name });
}
/** A commit by branch (head) or by ID, as the Go client's `NewCommit(project, repo, branch, id)`. */
export function commit(project: string, repoName: string, branchName: string, id = ''): Commit {
  const r = repo(project, repoName);
  return create(pfs_v2.CommitSchema, {
    repo: r,
    id,
    branch: branchName ? { repo: r, name: branchName } : undefined,
  });
}

/** The input helpers of Pachyderm's Go client (`client.NewPFSInput`, `NewUnionInput`, …). */
export const inputs = {
  pfs(project: string, repoName: string, glob: string, extra: Partial<PfsInputExtra> = {}): Input {
    return { pfs: { project, repo: repoName, glob, ...extra } };
  },
  /** `NewPFSInputOpts(name, project, repo, branch, glob, joinOn, groupBy, outerJoin, lazy)`. */
  pfsOpts(
    name: string,
    project: string,
    repoName: string,
    branchName: string,
    glob: string,
    joinOn: string,
    groupBy: string,
    outerJoin: boolean,
    lazy: boolean,
  ): Input {
    return {
      pfs: {
        name,
        project,
        repo: repoName,
        branch: branchName,
        glob,
        joinOn,
        groupBy,
        outerJoin,
        lazy,
      },
    };
  },
  /** `NewS3PFSInput(name, project, repo, branch)`: no glob, `s3` set. */
  s3(name: string, project: string, repoName: string, branchName: string): Input {
    return { pfs: { name, project, repo: repoName, branch: branchName, s3: true } };
  },
  /** `NewCronInput(name, spec)`. */
  cron: (name: string, spec: string): Input => ({ cron: { name, spec } }),
  /** `NewCronInputOpts(name, repo, spec, overwrite)`. */
  cronOpts: (name: string, repoName: string, spec: string, overwrite: boolean): Input => ({
    cron: { name, repo: repoName, spec, overwrite },
  }),
  union: (...children: Input[]): Input => ({ union: children }),
  cross: (...children: Input[]): Input => ({ cross: children }),
  join: (...children: Input[]): Input => ({ join: children }),
  group: (...children: Input[]): Input => ({ group: children }),
};
type PfsInputExtra = Plain<typeof pps_v2.PFSInputSchema>;

export interface PipelineOptions {
  /** `transform.image` (ignored by the embedded runner, kept for the spec). */
  image?: string;
  stdin?: string[];
  parallelism?: number;
  outputBranch?: string;
  update?: boolean;
  /** Any other CreatePipelineRequest fields (datumTimeout, resourceLimits, …). */
  extra?: Plain<typeof pps_v2.CreatePipelineRequestSchema>;
  /** Any other Transform fields (env, secrets, errCmd, …). */
  transform?: Plain<typeof pps_v2.TransformSchema>;
}

export class PeerClient {
  constructor(readonly grpc: GrpcTestClient) {}

  close(): void {
    this.grpc.close();
  }

  commit = commit;
  branch = branch;
  repo = repo;

  // ---- projects and repos ------------------------------------------------------------------

  createProject(name: string) {
    return this.grpc.unary(pfs_v2.API.method.createProject, { project: { name } });
  }
  deleteProject(name: string, force = false) {
    return this.grpc.unary(pfs_v2.API.method.deleteProject, { project: { name }, force });
  }
  createRepo(project: string, name: string, description = '', update = false) {
    return this.grpc.unary(pfs_v2.API.method.createRepo, {
      repo: repo(project, name),
      description,
      update,
    });
  }
  inspectRepo(project: string, name: string) {
    return this.grpc.unary(pfs_v2.API.method.inspectRepo, { repo: repo(project, name) });
  }
  listRepo(type = 'user') {
    return this.grpc.serverStream(pfs_v2.API.method.listRepo, { type });
  }
  deleteRepo(project: string, name: string, force = false) {
    return this.grpc.unary(pfs_v2.API.method.deleteRepo, { repo: repo(project, name), force });
  }

  // ---- commits -------------------------------------------------------------------------------

  async startCommit(project: string, repoName: string, branchName: string, parent?: Commit) {
    return this.grpc.unary(pfs_v2.API.method.startCommit, {
      branch: branch(project, repoName, branchName),
      parent,
    });
  }
  finishCommit(project: string, repoName: string, branchName: string, id = '', error = '') {
    return this.grpc.unary(pfs_v2.API.method.finishCommit, {
      commit: commit(project, repoName, branchName, id),
      error,
    });
  }
  inspectCommit(
    project: string,
    repoName: string,
    branchName: string,
    id = '',
    wait: pfs_v2.CommitState = pfs_v2.CommitState.COMMIT_STATE_UNKNOWN,
  ) {
    return this.grpc.unary(pfs_v2.API.method.inspectCommit, {
      commit: commit(project, repoName, branchName, id),
      wait,
    });
  }
  /** The Go client's `WaitCommit`: InspectCommit waiting for FINISHED. */
  waitCommit(project: string, repoName: string, branchName: string, id = '') {
    return this.inspectCommit(project, repoName, branchName, id, pfs_v2.CommitState.FINISHED);
  }
  listCommit(
    request: Omit<MessageInitShape<typeof pfs_v2.ListCommitRequestSchema>, '$typeName'>,
  ): Promise<CommitInfo[]> {
    return this.grpc.serverStream(pfs_v2.API.method.listCommit, request);
  }
  /** Every commit of a repo, newest first (`ListCommitByRepo`). */
  listCommitByRepo(project: string, repoName: string) {
    return this.listCommit({ repo: repo(project, repoName), all: true });
  }
  inspectCommitSet(id: string, wait = false) {
    return this.grpc.serverStream(pfs_v2.API.method.inspectCommitSet, {
      commitSet: { id },
      wait,
    });
  }
  /** The Go client's `WaitCommitSetAll`: every commit of the set, once all are finished. */
  waitCommitSetAll(id: string) {
    return this.inspectCommitSet(id, true);
  }
  squashCommitSet(id: string) {
    return this.grpc.unary(pfs_v2.API.method.squashCommitSet, { commitSet: { id } });
  }
  dropCommitSet(id: string) {
    return this.grpc.unary(pfs_v2.API.method.dropCommitSet, { commitSet: { id } });
  }

  // ---- branches ------------------------------------------------------------------------------

  /** `CreateBranch(project, repo, branch, commitBranch, commitID, provenance)` as in Go. */
  createBranch(
    project: string,
    repoName: string,
    branchName: string,
    headBranch = '',
    headId = '',
    provenance: Branch[] = [],
    trigger?: MessageInitShape<typeof pfs_v2.TriggerSchema>,
  ) {
    return this.grpc.unary(pfs_v2.API.method.createBranch, {
      branch: branch(project, repoName, branchName),
      head: headBranch || headId ? commit(project, repoName, headBranch, headId) : undefined,
      provenance,
      trigger,
    });
  }
  inspectBranch(project: string, repoName: string, branchName: string) {
    return this.grpc.unary(pfs_v2.API.method.inspectBranch, {
      branch: branch(project, repoName, branchName),
    });
  }
  listBranch(project: string, repoName: string) {
    return this.grpc.serverStream(pfs_v2.API.method.listBranch, { repo: repo(project, repoName) });
  }
  deleteBranch(project: string, repoName: string, branchName: string, force = false) {
    return this.grpc.unary(pfs_v2.API.method.deleteBranch, {
      branch: branch(project, repoName, branchName),
      force,
    });
  }

  // ---- files ---------------------------------------------------------------------------------

  /** One ModifyFile stream: `setCommit` then the operations given. */
  modifyFile(target: Commit, operations: ModifyFileRequest[]) {
    return this.grpc.clientStream(pfs_v2.API.method.modifyFile, [
      { body: { case: 'setCommit', value: target } },
      ...operations,
    ]);
  }
  /** Overwrites (DeleteFile + AddFile), or appends with `{ append: true }`, as Go's `PutFile`. */
  putFile(
    target: Commit,
    path: string,
    data: string | Uint8Array,
    options: { append?: boolean; datum?: string } = {},
  ) {
    return this.modifyFile(target, putFileOps(path, data, options));
  }
  deleteFile(target: Commit, path: string) {
    return this.modifyFile(target, [{ body: { case: 'deleteFile', value: { path } } }]);
  }
  copyFile(target: Commit, dst: string, src: Commit, srcPath: string, append = false) {
    const ops: ModifyFileRequest[] = append
      ? []
      : [{ body: { case: 'deleteFile', value: { path: dst } } }];
    ops.push({
      body: { case: 'copyFile', value: { dst, src: { commit: src, path: srcPath }, append } },
    });
    return this.modifyFile(target, ops);
  }
  /** The file's bytes as text (GetFile's stream, joined). */
  async getFile(source: Commit, path: string): Promise<string> {
    return Buffer.from(await this.getFileBytes(source, path)).toString('utf8');
  }
  async getFileBytes(source: Commit, path: string): Promise<Uint8Array> {
    const parts = await this.grpc.serverStream(pfs_v2.API.method.getFile, {
      file: { commit: source, path },
    });
    return Buffer.concat(parts.map((part) => part.value));
  }
  inspectFile(source: Commit, path: string) {
    return this.grpc.unary(pfs_v2.API.method.inspectFile, { file: { commit: source, path } });
  }
  listFileAll(source: Commit, path: string): Promise<FileInfo[]> {
    return this.grpc.serverStream(pfs_v2.API.method.listFile, { file: { commit: source, path } });
  }
  walkFile(source: Commit, path: string): Promise<FileInfo[]> {
    return this.grpc.serverStream(pfs_v2.API.method.walkFile, { file: { commit: source, path } });
  }
  globFileAll(source: Commit, pattern: string): Promise<FileInfo[]> {
    return this.grpc.serverStream(pfs_v2.API.method.globFile, { commit: source, pattern });
  }
  /** `DiffFileAll`: the new and old FileInfos of each difference. */
  diffFileAll(
    newCommit: Commit,
    newPath: string,
    oldCommit?: Commit,
    oldPath = '',
    shallow = false,
  ) {
    return this.grpc.serverStream(pfs_v2.API.method.diffFile, {
      newFile: { commit: newCommit, path: newPath },
      oldFile: oldCommit ? { commit: oldCommit, path: oldPath } : undefined,
      shallow,
    });
  }

  // ---- pipelines and jobs ----------------------------------------------------------------------

  /** `CreatePipeline(project, name, image, cmd, stdin, parallelism, input, outputBranch, update)`. */
  createPipeline(
    project: string,
    name: string,
    cmd: string[],
    input: Input | undefined,
    options: PipelineOptions = {},
  ) {
    return this.grpc.unary(pps_v2.API.method.createPipeline, {
      pipeline: { project: { name: project }, name },
      transform: {
        image: options.image ?? '',
        cmd,
        stdin: options.stdin ?? [],
        ...options.transform,
      },
      parallelismSpec: { constant: BigInt(options.parallelism ?? 1) },
      input,
      outputBranch: options.outputBranch ?? '',
      update: options.update ?? false,
      ...options.extra,
    });
  }
  /** The JSON form (`pachctl create pipeline -f`), as CreatePipelineV2. */
  createPipelineJson(spec: object, update = false) {
    return this.grpc.unary(pps_v2.API.method.createPipelineV2, {
      createPipelineRequestJson: JSON.stringify(spec),
      update,
    });
  }
  inspectPipeline(project: string, name: string, details = false) {
    return this.grpc.unary(pps_v2.API.method.inspectPipeline, {
      pipeline: { project: { name: project }, name },
      details,
    });
  }
  listPipeline(history = 0n) {
    return this.grpc.serverStream(pps_v2.API.method.listPipeline, { history });
  }
  deletePipeline(project: string, name: string, force = false, keepRepo = false) {
    return this.grpc.unary(pps_v2.API.method.deletePipeline, {
      pipeline: { project: { name: project }, name },
      force,
      keepRepo,
    });
  }
  stopPipeline(project: string, name: string) {
    return this.grpc.unary(pps_v2.API.method.stopPipeline, {
      pipeline: { project: { name: project }, name },
    });
  }
  startPipeline(project: string, name: string) {
    return this.grpc.unary(pps_v2.API.method.startPipeline, {
      pipeline: { project: { name: project }, name },
    });
  }
  inspectJob(project: string, pipeline: string, id: string, details = false, wait = false) {
    return this.grpc.unary(pps_v2.API.method.inspectJob, {
      job: { pipeline: { project: { name: project }, name: pipeline }, id },
      details,
      wait,
    });
  }
  /** `WaitJob`: InspectJob waiting for the job to end. */
  waitJob(project: string, pipeline: string, id: string) {
    return this.inspectJob(project, pipeline, id, false, true);
  }
  /** `ListJob(project, pipeline, nil, history, details)`. */
  listJob(project: string, pipeline: string, history = 0n, details = false): Promise<JobInfo[]> {
    return this.grpc.serverStream(pps_v2.API.method.listJob, {
      pipeline: pipeline ? { project: { name: project }, name: pipeline } : undefined,
      projects: pipeline ? [] : [{ name: project }],
      history,
      details,
    });
  }
  /** `WaitJobSetAll`: every job of the job set, once all have ended. */
  waitJobSetAll(id: string, details = false) {
    return this.grpc.serverStream(pps_v2.API.method.inspectJobSet, {
      jobSet: { id },
      wait: true,
      details,
    });
  }
  listDatumAll(project: string, pipeline: string, jobId: string) {
    return this.grpc.serverStream(pps_v2.API.method.listDatum, {
      job: { pipeline: { project: { name: project }, name: pipeline }, id: jobId },
    });
  }
  /** A dry run: the datums `input` would make, before any pipeline exists. */
  listDatumInput(
    input: Input,
    page: { number?: bigint; paginationMarker?: string; reverse?: boolean } = {},
  ) {
    return this.grpc.serverStream(pps_v2.API.method.listDatum, { input, ...page });
  }
  /** ListDatum over a job with a filter and paging (the Go client's ListDatum request). */
  listDatum(request: Omit<MessageInitShape<typeof pps_v2.ListDatumRequestSchema>, '$typeName'>) {
    return this.grpc.serverStream(pps_v2.API.method.listDatum, request);
  }
  inspectDatum(project: string, pipeline: string, jobId: string, datumId: string) {
    return this.grpc.unary(pps_v2.API.method.inspectDatum, {
      datum: {
        job: { pipeline: { project: { name: project }, name: pipeline }, id: jobId },
        id: datumId,
      },
    });
  }
  restartDatum(project: string, pipeline: string, jobId: string, dataFilters: string[]) {
    return this.grpc.unary(pps_v2.API.method.restartDatum, {
      job: { pipeline: { project: { name: project }, name: pipeline }, id: jobId },
      dataFilters,
    });
  }
  /** The raw CreatePipeline request (`PpsAPIClient.CreatePipeline`). */
  createPipelineRequest(
    request: Omit<MessageInitShape<typeof pps_v2.CreatePipelineRequestSchema>, '$typeName'>,
  ) {
    return this.grpc.unary(pps_v2.API.method.createPipeline, request);
  }
  /** `CreatePipelineV2` with its options. */
  createPipelineV2(
    request: Omit<MessageInitShape<typeof pps_v2.CreatePipelineV2RequestSchema>, '$typeName'>,
  ) {
    return this.grpc.unary(pps_v2.API.method.createPipelineV2, request);
  }
  inspectPipelineRequest(
    request: Omit<MessageInitShape<typeof pps_v2.InspectPipelineRequestSchema>, '$typeName'>,
  ) {
    return this.grpc.unary(pps_v2.API.method.inspectPipeline, request);
  }
  listPipelineRequest(
    request: Omit<MessageInitShape<typeof pps_v2.ListPipelineRequestSchema>, '$typeName'>,
  ) {
    return this.grpc.serverStream(pps_v2.API.method.listPipeline, request);
  }
  /** `ListPipelineHistory(project, pipeline, history)`. */
  listPipelineHistory(project: string, pipeline: string, history: bigint) {
    return this.grpc.serverStream(pps_v2.API.method.listPipeline, {
      pipeline: { project: { name: project }, name: pipeline },
      history,
      details: true,
    });
  }
  deletePipelines(
    request: Omit<MessageInitShape<typeof pps_v2.DeletePipelinesRequestSchema>, '$typeName'>,
  ) {
    return this.grpc.unary(pps_v2.API.method.deletePipelines, request);
  }
  getClusterDefaults() {
    return this.grpc.unary(pps_v2.API.method.getClusterDefaults, {});
  }
  setClusterDefaults(
    request: Omit<MessageInitShape<typeof pps_v2.SetClusterDefaultsRequestSchema>, '$typeName'>,
  ) {
    return this.grpc.unary(pps_v2.API.method.setClusterDefaults, request);
  }
  getProjectDefaults(project: string) {
    return this.grpc.unary(pps_v2.API.method.getProjectDefaults, { project: { name: project } });
  }
  setProjectDefaults(
    request: Omit<MessageInitShape<typeof pps_v2.SetProjectDefaultsRequestSchema>, '$typeName'>,
  ) {
    return this.grpc.unary(pps_v2.API.method.setProjectDefaults, request);
  }
  runCron(project: string, pipeline: string) {
    return this.grpc.unary(pps_v2.API.method.runCron, {
      pipeline: { project: { name: project }, name: pipeline },
    });
  }
  rerunPipeline(project: string, pipeline: string, reprocess = false) {
    return this.grpc.unary(pps_v2.API.method.rerunPipeline, {
      pipeline: { project: { name: project }, name: pipeline },
      reprocess,
    });
  }
  deleteJob(project: string, pipeline: string, id: string) {
    return this.grpc.unary(pps_v2.API.method.deleteJob, {
      job: { pipeline: { project: { name: project }, name: pipeline }, id },
    });
  }
  stopJob(project: string, pipeline: string, id: string) {
    return this.grpc.unary(pps_v2.API.method.stopJob, {
      job: { pipeline: { project: { name: project }, name: pipeline }, id },
    });
  }
  createSecret(file: Uint8Array) {
    return this.grpc.unary(pps_v2.API.method.createSecret, { file });
  }
  inspectSecret(name: string) {
    return this.grpc.unary(pps_v2.API.method.inspectSecret, { secret: { name } });
  }
  listSecret() {
    return this.grpc.unary(pps_v2.API.method.listSecret, {});
  }
  deleteSecret(name: string) {
    return this.grpc.unary(pps_v2.API.method.deleteSecret, { secret: { name } });
  }
  pipelinesSummary(projects: string[] = []) {
    return this.grpc.unary(pps_v2.API.method.pipelinesSummary, {
      projects: projects.map((name) => ({ picker: { case: 'name' as const, value: name } })),
    });
  }
  getLogs(request: Omit<MessageInitShape<typeof pps_v2.GetLogsRequestSchema>, '$typeName'>) {
    return this.grpc.serverStream(pps_v2.API.method.getLogs, request);
  }
}

/** DeleteFile + AddFile (overwrite) or AddFile alone (append), as Pachyderm's client sends. */
export function putFileOps(
  path: string,
  data: string | Uint8Array,
  options: { append?: boolean; datum?: string } = {},
): ModifyFileRequest[] {
  const datum = options.datum ?? '';
  const value = typeof data === 'string' ? Buffer.from(data) : data;
  const add: ModifyFileRequest = {
    body: { case: 'addFile', value: { path, datum, source: { case: 'raw', value: { value } } } },
  };
  return options.append ? [add] : [{ body: { case: 'deleteFile', value: { path, datum } } }, add];
}

export function peerClient(address: string, token = ''): PeerClient {
  return new PeerClient(grpcClient(address, token));
}

/** The gRPC status of a failed call; fails the test if the call succeeded. */
export async function failure(call: Promise<unknown>): Promise<{ code: number; details: string }> {
  try {
    await call;
  } catch (error) {
    const { code, details } = error as ServiceError;
    if (typeof code !== 'number') throw error;
    return { code, details };
  }
  throw new Error('the call succeeded, the Go test expects an error');
}
