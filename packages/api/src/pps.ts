import { bytesToBase64 } from './base64.ts';
import type { ApiClient } from './client.ts';
import type { CommitInfo } from './types/pfs.ts';
import type {
  CreatePipelineV2Response,
  DatumInfo,
  DatumState,
  GetClusterDefaultsResponse,
  GetProjectDefaultsResponse,
  JobInfo,
  JobSetInfo,
  LogMessage,
  PipelineInfo,
  SecretInfo,
  SecretInfos,
  SetDefaultsResponse,
} from './types/pps.ts';

export const PPS = 'pps_v2.API';

export interface PipelineRef {
  project: string;
  pipeline: string;
}

export interface JobRef extends PipelineRef {
  jobId: string;
}

export interface DatumRef extends JobRef {
  datumId: string;
}

export function pipelineMessage({ project, pipeline }: PipelineRef) {
  return { project: { name: project }, name: pipeline };
}

export function jobMessage(ref: JobRef) {
  return { pipeline: pipelineMessage(ref), id: ref.jobId };
}

export function datumMessage(ref: DatumRef) {
  return { job: jobMessage(ref), id: ref.datumId };
}

const projectsMessage = (projects: readonly string[]) => projects.map((name) => ({ name }));

// Pipelines

export function listPipelines(
  client: ApiClient,
  args: { projects: readonly string[]; history?: number; commitSetId?: string },
  signal?: AbortSignal,
) {
  return client.collect<PipelineInfo>(
    PPS,
    'ListPipeline',
    {
      projects: projectsMessage(args.projects),
      history: String(args.history ?? 0),
      details: true,
      ...(args.commitSetId ? { commitSet: { id: args.commitSetId } } : {}),
    },
    signal,
  );
}

/** Every version of one pipeline, newest first. */
export function listPipelineVersions(client: ApiClient, ref: PipelineRef, signal?: AbortSignal) {
  return client.collect<PipelineInfo>(
    PPS,
    'ListPipeline',
    { pipeline: pipelineMessage(ref), history: '-1', details: true },
    signal,
  );
}

export function inspectPipeline(client: ApiClient, ref: PipelineRef, signal?: AbortSignal) {
  return client.unaryOrNull<PipelineInfo>(
    PPS,
    'InspectPipeline',
    { pipeline: pipelineMessage(ref), details: true },
    signal,
  );
}

/** Creates or updates a pipeline from its JSON spec; a dry run only answers the effective spec. */
export async function createPipelineV2(
  client: ApiClient,
  args: { specJson: string; update?: boolean; reprocess?: boolean; dryRun?: boolean },
  signal?: AbortSignal,
) {
  const response = await client.unary<CreatePipelineV2Response>(
    PPS,
    'CreatePipelineV2',
    {
      createPipelineRequestJson: args.specJson,
      update: args.update ?? false,
      reprocess: args.reprocess ?? false,
      dryRun: args.dryRun ?? false,
    },
    signal,
  );
  return response.effectiveCreatePipelineRequestJson;
}

export function deletePipeline(
  client: ApiClient,
  ref: PipelineRef,
  options: { force?: boolean; keepRepo?: boolean } = {},
) {
  return client.unary<object>(PPS, 'DeletePipeline', {
    pipeline: pipelineMessage(ref),
    force: options.force ?? false,
    keepRepo: options.keepRepo ?? false,
  });
}

/** Resumes a paused pipeline. */
export function startPipeline(client: ApiClient, ref: PipelineRef) {
  return client.unary<object>(PPS, 'StartPipeline', { pipeline: pipelineMessage(ref) });
}

/** Pauses a pipeline: input commits start no jobs until it is started again. */
export function stopPipeline(client: ApiClient, ref: PipelineRef) {
  return client.unary<object>(PPS, 'StopPipeline', { pipeline: pipelineMessage(ref) });
}

export function rerunPipeline(client: ApiClient, ref: PipelineRef, reprocess = false) {
  return client.unary<object>(PPS, 'RerunPipeline', { pipeline: pipelineMessage(ref), reprocess });
}

export function runCron(client: ApiClient, ref: PipelineRef) {
  return client.unary<object>(PPS, 'RunCron', { pipeline: pipelineMessage(ref) });
}

// Jobs

export function listJobs(
  client: ApiClient,
  args: {
    projects?: readonly string[];
    pipeline?: PipelineRef;
    number?: number;
    details?: boolean;
    /** Only jobs created before this time (the `created` of the last job of the previous page). */
    paginationMarker?: string;
  },
  signal?: AbortSignal,
) {
  return client.collect<JobInfo>(
    PPS,
    'ListJob',
    {
      projects: projectsMessage(args.projects ?? []),
      ...(args.pipeline ? { pipeline: pipelineMessage(args.pipeline) } : {}),
      history: '-1',
      details: args.details ?? false,
      number: String(args.number ?? 0),
      ...(args.paginationMarker ? { paginationMarker: args.paginationMarker } : {}),
    },
    signal,
  );
}

export function listJobSets(
  client: ApiClient,
  args: { projects: readonly string[]; number?: number; details?: boolean },
  signal?: AbortSignal,
) {
  return client.collect<JobSetInfo>(
    PPS,
    'ListJobSet',
    {
      projects: projectsMessage(args.projects),
      details: args.details ?? false,
      number: String(args.number ?? 0),
    },
    signal,
  );
}

export function inspectJob(
  client: ApiClient,
  ref: JobRef,
  options: { details?: boolean; wait?: boolean } = {},
  signal?: AbortSignal,
) {
  return client.unaryOrNull<JobInfo>(
    PPS,
    'InspectJob',
    { job: jobMessage(ref), details: options.details ?? true, wait: options.wait ?? false },
    signal,
  );
}

/** The jobs of one global ID (every pipeline a run touched). */
export function inspectJobSet(
  client: ApiClient,
  jobSetId: string,
  options: { details?: boolean; wait?: boolean } = {},
  signal?: AbortSignal,
) {
  return client.collect<JobInfo>(
    PPS,
    'InspectJobSet',
    { jobSet: { id: jobSetId }, details: options.details ?? false, wait: options.wait ?? false },
    signal,
  );
}

/** Live job updates of one pipeline: its unfinished jobs, then every change. */
export function subscribeJobs(client: ApiClient, ref: PipelineRef, signal?: AbortSignal) {
  return client.stream<JobInfo>(
    PPS,
    'SubscribeJob',
    { pipeline: pipelineMessage(ref), details: false },
    signal,
  );
}

export function stopJob(client: ApiClient, ref: JobRef, reason = '') {
  return client.unary<object>(PPS, 'StopJob', { job: jobMessage(ref), reason });
}

// Datums

export function listDatums(
  client: ApiClient,
  args: JobRef & { states?: readonly DatumState[]; number?: number },
  signal?: AbortSignal,
) {
  return client.collect<DatumInfo>(
    PPS,
    'ListDatum',
    {
      job: jobMessage(args),
      ...(args.states && args.states.length > 0 ? { filter: { state: args.states } } : {}),
      number: String(args.number ?? 0),
    },
    signal,
  );
}

/**
 * The datums a pipeline input would make now, before the pipeline exists (ListDatum with an
 * `input`, a dry run over its branches' heads): at most `number` of them.
 */
export function listDatumsForInput(
  client: ApiClient,
  input: unknown,
  number: number,
  signal?: AbortSignal,
) {
  return client.collect<DatumInfo>(PPS, 'ListDatum', { input, number: String(number) }, signal);
}

export function inspectDatum(client: ApiClient, ref: DatumRef, signal?: AbortSignal) {
  return client.unaryOrNull<DatumInfo>(PPS, 'InspectDatum', { datum: datumMessage(ref) }, signal);
}

/** Restarts the failed datums of a job (all of them, or those named by id or input path). */
export function restartDatum(client: ApiClient, ref: JobRef, dataFilters: string[] = []) {
  return client.unary<object>(PPS, 'RestartDatum', { job: jobMessage(ref), dataFilters });
}

// Logs

export interface GetLogsArgs {
  project: string;
  pipeline?: string;
  jobId?: string;
  datumId?: string;
  /** Only the runner's (master) lines. */
  master?: boolean;
  /** Keep the stream open and send new lines. */
  follow?: boolean;
  /** The last N lines (0 = all). */
  tail?: number;
  /** Only lines newer than this many seconds. */
  sinceSeconds?: number;
  dataFilters?: string[];
}

export function getLogsRequest(args: GetLogsArgs) {
  const pipeline = args.pipeline
    ? pipelineMessage({ project: args.project, pipeline: args.pipeline })
    : undefined;
  const job = args.jobId && pipeline ? { pipeline, id: args.jobId } : undefined;
  return {
    ...(pipeline ? { pipeline } : {}),
    ...(job ? { job } : {}),
    ...(args.datumId && job ? { datum: { job, id: args.datumId } } : {}),
    master: args.master ?? false,
    follow: args.follow ?? false,
    tail: String(args.tail ?? 0),
    ...(args.sinceSeconds ? { since: `${args.sinceSeconds}s` } : {}),
    dataFilters: args.dataFilters ?? [],
  };
}

/** Log lines as a stream (`follow` keeps it open until the job ends or `signal` aborts). */
export function streamLogs(client: ApiClient, args: GetLogsArgs, signal?: AbortSignal) {
  return client.stream<LogMessage>(PPS, 'GetLogs', getLogsRequest(args), signal);
}

// Commit sets (global IDs)

/** The commits of one global ID (InspectCommitSet), in every repo it touched. */
export function inspectCommitSet(client: ApiClient, commitSetId: string, signal?: AbortSignal) {
  return client.collect<CommitInfo>(
    'pfs_v2.API',
    'InspectCommitSet',
    { commitSet: { id: commitSetId }, wait: false },
    signal,
  );
}

// Secrets

/** A Kubernetes Secret manifest (JSON) with base64 `data`, as CreateSecret takes it. */
export function secretManifest(
  name: string,
  values: ReadonlyArray<{ key: string; value: string }>,
  labels: Record<string, string> = {},
) {
  const data: Record<string, string> = {};
  for (const { key, value } of values) data[key] = bytesToBase64(new TextEncoder().encode(value));
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, labels }, data };
}

export function createSecret(
  client: ApiClient,
  name: string,
  values: ReadonlyArray<{ key: string; value: string }>,
  labels: Record<string, string> = {},
) {
  const manifest = JSON.stringify(secretManifest(name, values, labels));
  return client.unary<object>(PPS, 'CreateSecret', {
    file: bytesToBase64(new TextEncoder().encode(manifest)),
  });
}

export async function listSecrets(client: ApiClient, signal?: AbortSignal) {
  const response = await client.unary<SecretInfos>(PPS, 'ListSecret', {}, signal);
  return response.secretInfo ?? [];
}

export function inspectSecret(client: ApiClient, name: string, signal?: AbortSignal) {
  return client.unaryOrNull<SecretInfo>(PPS, 'InspectSecret', { secret: { name } }, signal);
}

export function deleteSecret(client: ApiClient, name: string) {
  return client.unary<object>(PPS, 'DeleteSecret', { secret: { name } });
}

// Defaults

export async function getClusterDefaults(client: ApiClient, signal?: AbortSignal) {
  const response = await client.unary<GetClusterDefaultsResponse>(
    PPS,
    'GetClusterDefaults',
    {},
    signal,
  );
  return response.clusterDefaultsJson;
}

export interface SetDefaultsOptions {
  regenerate?: boolean;
  reprocess?: boolean;
  dryRun?: boolean;
}

export async function setClusterDefaults(
  client: ApiClient,
  json: string,
  options: SetDefaultsOptions = {},
) {
  const response = await client.unary<SetDefaultsResponse>(PPS, 'SetClusterDefaults', {
    clusterDefaultsJson: json,
    regenerate: options.regenerate ?? false,
    reprocess: options.reprocess ?? false,
    dryRun: options.dryRun ?? false,
  });
  return response.affectedPipelines ?? [];
}

export function getProjectDefaults(client: ApiClient, project: string, signal?: AbortSignal) {
  return client.unary<GetProjectDefaultsResponse>(
    PPS,
    'GetProjectDefaults',
    { project: { name: project } },
    signal,
  );
}

export async function setProjectDefaults(
  client: ApiClient,
  project: string,
  json: string,
  options: SetDefaultsOptions = {},
) {
  const response = await client.unary<SetDefaultsResponse>(PPS, 'SetProjectDefaults', {
    project: { name: project },
    projectDefaultsJson: json,
    regenerate: options.regenerate ?? false,
    reprocess: options.reprocess ?? false,
    dryRun: options.dryRun ?? false,
  });
  return response.affectedPipelines ?? [];
}

/** The JSON Schema the server validates pipeline specs with. */
export async function fetchPipelineSpecSchema(baseUrl = '', signal?: AbortSignal) {
  const response = await fetch(`${baseUrl}/api-schema/pipeline-spec.json`, { signal });
  if (!response.ok) throw new Error(`pipeline spec schema: HTTP ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}
