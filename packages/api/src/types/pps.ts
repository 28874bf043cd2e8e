/** Hand-written wire types of the pipeline service (pps_v2), as protobuf JSON. */
import type { Commit, FileInfo, Int64, PfsFile, Project, Timestamp } from './pfs.ts';

/** A protobuf Duration in JSON, e.g. "1.5s". */
export type Duration = string;

export const JobState = [
  'JOB_STATE_UNKNOWN',
  'JOB_CREATED',
  'JOB_STARTING',
  'JOB_RUNNING',
  'JOB_FAILURE',
  'JOB_SUCCESS',
  'JOB_KILLED',
  'JOB_EGRESSING',
  'JOB_FINISHING',
  'JOB_UNRUNNABLE',
] as const;
export type JobState = (typeof JobState)[number];

export const DatumState = [
  'UNKNOWN',
  'FAILED',
  'SUCCESS',
  'SKIPPED',
  'STARTING',
  'RECOVERED',
] as const;
export type DatumState = (typeof DatumState)[number];

export const PipelineState = [
  'PIPELINE_STATE_UNKNOWN',
  'PIPELINE_STARTING',
  'PIPELINE_RUNNING',
  'PIPELINE_RESTARTING',
  'PIPELINE_FAILURE',
  'PIPELINE_PAUSED',
  'PIPELINE_STANDBY',
  'PIPELINE_CRASHING',
] as const;
export type PipelineState = (typeof PipelineState)[number];

export const PipelineType = [
  'PIPELINT_TYPE_UNKNOWN',
  'PIPELINE_TYPE_TRANSFORM',
  'PIPELINE_TYPE_SPOUT',
  'PIPELINE_TYPE_SERVICE',
] as const;
export type PipelineType = (typeof PipelineType)[number];

export interface Pipeline {
  project: Project | null;
  name: string;
}

export interface Job {
  pipeline: Pipeline | null;
  id: string;
}

export interface Datum {
  job: Job | null;
  id: string;
}

export interface SecretMount {
  name: string;
  key?: string;
  mountPath?: string;
  envVar?: string;
}

export interface Transform {
  image?: string;
  cmd?: string[];
  errCmd?: string[];
  env?: Record<string, string>;
  secrets?: SecretMount[];
  stdin?: string[];
  errStdin?: string[];
  acceptReturnCode?: Int64[];
  workingDir?: string;
  [key: string]: unknown;
}

export interface PFSInput {
  project?: string;
  name?: string;
  repo?: string;
  repoType?: string;
  branch?: string;
  commit?: string;
  glob?: string;
  joinOn?: string;
  outerJoin?: boolean;
  groupBy?: string;
  lazy?: boolean;
  emptyFiles?: boolean;
  s3?: boolean;
}

export interface CronInput {
  name?: string;
  project?: string;
  repo?: string;
  commit?: string;
  spec?: string;
  overwrite?: boolean;
  start?: Timestamp | null;
}

export interface Input {
  pfs?: PFSInput | null;
  join?: Input[];
  group?: Input[];
  cross?: Input[];
  union?: Input[];
  cron?: CronInput | null;
}

export interface ProcessStats {
  downloadTime: Duration | null;
  processTime: Duration | null;
  uploadTime: Duration | null;
  downloadBytes: Int64;
  uploadBytes: Int64;
}

export interface PipelineDetails {
  transform: Transform | null;
  parallelismSpec: { constant: Int64 } | null;
  createdAt: Timestamp | null;
  updatedAt: Timestamp | null;
  createdBy: string;
  recentError: string;
  workersRequested: Int64;
  workersAvailable: Int64;
  outputBranch: string;
  input: Input | null;
  description: string;
  salt: string;
  reason: string;
  datumTimeout: Duration | null;
  jobTimeout: Duration | null;
  datumTries: Int64;
  autoscaling: boolean;
  [key: string]: unknown;
}

export interface PipelineInfo {
  pipeline: Pipeline;
  version: Int64;
  specCommit: Commit | null;
  stopped: boolean;
  state: PipelineState;
  reason: string;
  lastJobState: JobState;
  parallelism: Int64;
  type: PipelineType;
  details: PipelineDetails | null;
  userSpecJson: string;
  effectiveSpecJson: string;
  metadata: Record<string, string>;
}

export interface JobDetails {
  transform: Transform | null;
  input: Input | null;
  salt: string;
  datumTries: Int64;
  [key: string]: unknown;
}

export interface JobInfo {
  job: Job;
  pipelineVersion: Int64;
  outputCommit: Commit | null;
  restart: Int64;
  dataProcessed: Int64;
  dataSkipped: Int64;
  dataTotal: Int64;
  dataFailed: Int64;
  dataRecovered: Int64;
  stats: ProcessStats | null;
  state: JobState;
  reason: string;
  created: Timestamp | null;
  started: Timestamp | null;
  finished: Timestamp | null;
  details: JobDetails | null;
}

export interface JobSetInfo {
  jobSet: { id: string };
  jobs: JobInfo[];
}

export interface DatumInfo {
  datum: Datum;
  state: DatumState;
  stats: ProcessStats | null;
  pfsState: PfsFile | null;
  data: FileInfo[];
  imageId: string;
}

export interface InputFile {
  path: string;
  /** base64 */
  hash: string;
}

export interface LogMessage {
  projectName: string;
  pipelineName: string;
  jobId: string;
  workerId: string;
  datumId: string;
  master: boolean;
  data: InputFile[];
  user: boolean;
  ts: Timestamp | null;
  message: string;
}

export interface SecretInfo {
  secret: { name: string };
  type: string;
  creationTimestamp: Timestamp | null;
}

export interface SecretInfos {
  secretInfo: SecretInfo[];
}

export interface CreatePipelineV2Response {
  effectiveCreatePipelineRequestJson: string;
}

export interface GetClusterDefaultsResponse {
  clusterDefaultsJson: string;
}

export interface GetProjectDefaultsResponse {
  projectDefaultsJson: string;
  createdBy: string;
  createdAt: Timestamp | null;
}

export interface SetDefaultsResponse {
  affectedPipelines: Pipeline[];
}

export interface PipelinesSummary {
  project: Project;
  activePipelines: Int64;
  pausedPipelines: Int64;
  failedPipelines: Int64;
  unhealthyPipelines: Int64;
}
