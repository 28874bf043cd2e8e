import { clone, create, fromJson, type JsonValue, type MessageInitShape } from '@bufbuild/protobuf';
import { durationFromMs, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { pfs_v2, pps_v2 } from '@ivory/api/proto';
import type { PfsMessages } from '../pfs/pfs-messages.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import { jsonRegistry } from '../typed-method.ts';
import type { WireObject } from '../wire.ts';
import { wireMessage } from '../wire-message.ts';
import { cleanGlob } from './datum-glob.ts';
import { datumMatches, type DatumFile } from './datums.ts';
import type { LogLine } from './logs.ts';
import type {
  DatumRow,
  JobRow,
  PipelineStateRow,
  PipelineVersionRow,
  PpsStore,
  Stats,
} from './pps-store.ts';
import type { SecretRow } from './secrets.ts';
import { requestOf, sortedInputs } from './spec.ts';

/**
 * The answers of pps_v2 built from the generated message types (`@ivory/api/proto`): one
 * builder per message, each making the message with `create(…)` from the pps rows and the
 * pipeline version's spec (read once as a CreatePipelineRequest, as pachd reads it), then
 * written as the gateway's JSON (wireMessage).
 */

export function pipelineMessage(project: string, name: string) {
  return { project: { name: project }, name };
}

/** What a worker slot of a running job is doing (pachd's worker status, see WorkerSlots). */
export interface WorkerSlotStatus {
  workerId: string;
  jobId: string;
  /** The datum it runs and when it started, or null between datums. */
  datum: { data: { path: string; hash: string }[]; started: number } | null;
}

type Init<S extends Parameters<typeof create>[0]> = MessageInitShape<S>;

const timestampOf = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? undefined : timestampFromMs(ms);
const bytesOfHex = (hex: string) => (hex ? Buffer.from(hex, 'hex') : new Uint8Array(0));
const enumValue = <E extends Record<string, string | number>>(values: E, name: string) =>
  (values[name as keyof E] as number | undefined) ?? 0;

/**
 * An input as pachd fills it in when a pipeline is created: children sorted, a pfs input's
 * project, name, branch and repo type defaulted and its glob cleaned, a cron input's repo named.
 */
export function inputWithDefaults(
  input: pps_v2.Input,
  project: string,
  pipeline: string,
): pps_v2.Input {
  const filled = clone(pps_v2.InputSchema, input);
  const visit = (node: pps_v2.Input) => {
    for (const key of ['cross', 'join', 'group', 'union'] as const) {
      node[key] = sortedInputs(node[key]);
      node[key].forEach(visit);
    }
    if (node.pfs) {
      const pfs = node.pfs;
      pfs.project ||= project;
      pfs.name ||= pfs.repo;
      pfs.branch ||= 'master';
      pfs.repoType ||= 'user';
      if (pfs.glob) pfs.glob = cleanGlob(pfs.glob);
    }
    if (node.cron) {
      node.cron.project ||= project;
      node.cron.repo ||= `${pipeline}_${node.cron.name}`;
    }
  };
  visit(filled);
  return filled;
}

export class PpsMessages {
  /** Specs read as requests, by version (a version's spec never changes). */
  private readonly requests = new Map<string, pps_v2.CreatePipelineRequest>();

  constructor(
    private readonly pfs: PfsStore,
    private readonly pfsMessages: PfsMessages,
    private readonly store: PpsStore,
    private readonly isRunning: (project: string, name: string) => boolean,
    private readonly workerStatus: (job: JobRow) => WorkerSlotStatus[] = () => [],
  ) {}

  pipelineState(state: PipelineStateRow): string {
    if (state.stopped) return 'PIPELINE_PAUSED';
    if (state.failure) return 'PIPELINE_FAILURE';
    if (this.isRunning(state.project, state.name)) return 'PIPELINE_RUNNING';
    return 'PIPELINE_STANDBY';
  }

  /** A version's spec as the request pachd keeps (read once per version). */
  private request(version: PipelineVersionRow): pps_v2.CreatePipelineRequest {
    const key = `${version.project}/${version.name}/${version.version}/${version.spec_commit_id}`;
    let request = this.requests.get(key);
    if (!request) {
      request = requestOf(JSON.parse(version.effective_spec) as WireObject);
      if (this.requests.size >= 512) this.requests.clear();
      this.requests.set(key, request);
    }
    return request;
  }

  private commit(rowid: number | null): pfs_v2.Commit | undefined {
    const row = rowid === null ? undefined : this.pfs.commitByRowid(rowid);
    if (!row) return undefined;
    return fromJson(pfs_v2.CommitSchema, this.pfsMessages.commit(row) as JsonValue, {
      registry: jsonRegistry,
    });
  }

  // ---- PipelineInfo -------------------------------------------------------------------------

  pipelineInfo(state: PipelineStateRow, version: PipelineVersionRow, details: boolean) {
    return wireMessage(
      pps_v2.PipelineInfoSchema,
      this.pipelineInfoMessage(state, version, details),
    );
  }

  private pipelineInfoMessage(
    state: PipelineStateRow,
    version: PipelineVersionRow,
    details: boolean,
  ): pps_v2.PipelineInfo {
    const request = this.request(version);
    const specRepo = { name: state.name, type: 'spec', project: { name: state.project } };
    const isCurrent = version.version === state.version;
    return create(pps_v2.PipelineInfoSchema, {
      pipeline: pipelineMessage(state.project, state.name),
      version: BigInt(version.version),
      specCommit: this.pfs.findRepo({ project: state.project, name: state.name, type: 'spec' })
        ? { repo: specRepo, id: version.spec_commit_id, branch: { repo: specRepo, name: 'master' } }
        : undefined,
      stopped: state.stopped === 1,
      state: enumValue(
        pps_v2.PipelineState,
        isCurrent ? this.pipelineState(state) : 'PIPELINE_STANDBY',
      ),
      reason: state.failure,
      lastJobState: enumValue(pps_v2.JobState, state.last_job_state),
      parallelism: BigInt(this.parallelism(request)),
      type: pps_v2.PipelineInfo_PipelineType.PIPELINE_TYPE_TRANSFORM,
      details: details ? this.pipelineDetails(state, version, request) : undefined,
      userSpecJson: version.user_spec,
      effectiveSpecJson: version.effective_spec,
      metadata: { ...request.metadata?.annotations },
    });
  }

  private parallelism(request: pps_v2.CreatePipelineRequest): number {
    return Number(request.parallelismSpec?.constant ?? 0n) || 1;
  }

  private pipelineDetails(
    state: PipelineStateRow,
    version: PipelineVersionRow,
    request: pps_v2.CreatePipelineRequest,
  ): Init<typeof pps_v2.PipelineInfo_DetailsSchema> {
    const first = this.store.versions(state.project, state.name).at(-1) ?? version;
    const parallelism = BigInt(this.parallelism(request));
    return {
      ...this.runSpec(request, state.project, state.name),
      tfJob: request.tfJob,
      createdAt: timestampFromMs(first.created_at),
      updatedAt: timestampFromMs(version.created_at),
      createdBy: this.creator(state, first),
      recentError: state.failure,
      workersRequested: parallelism,
      workersAvailable: parallelism,
      outputBranch: request.outputBranch || 'master',
      description: request.description,
      salt: version.salt,
      reason: state.failure,
      s3Out: request.s3Out,
      metadata: request.metadata,
      reprocessSpec: request.reprocessSpec || 'until_success',
      autoscaling: request.autoscaling,
      tolerations: request.tolerations,
      determined: request.determined,
      maximumExpectedUptime: request.maximumExpectedUptime,
      workersStartedAt: timestampFromMs(version.created_at),
    };
  }

  /** Who created the pipeline: the creator of its first version's spec commit. */
  private creator(state: PipelineStateRow, first: PipelineVersionRow): string {
    const specRepo = this.pfs.findRepo({ project: state.project, name: state.name, type: 'spec' });
    return (specRepo && this.pfs.findCommit(specRepo, first.spec_commit_id)?.created_by) || '';
  }

  /** What a pipeline's details and its jobs' details share: how the pipeline runs. */
  private runSpec(request: pps_v2.CreatePipelineRequest, project: string, pipeline: string) {
    return {
      transform: request.transform ?? create(pps_v2.TransformSchema),
      parallelismSpec: { constant: BigInt(this.parallelism(request)) },
      egress: request.egress,
      resourceRequests: request.resourceRequests,
      resourceLimits: request.resourceLimits,
      sidecarResourceLimits: request.sidecarResourceLimits,
      sidecarResourceRequests: request.sidecarResourceRequests,
      input: request.input ? inputWithDefaults(request.input, project, pipeline) : undefined,
      service: request.service,
      spout: request.spout,
      datumSetSpec: request.datumSetSpec,
      datumTimeout: request.datumTimeout,
      jobTimeout: request.jobTimeout,
      datumTries: request.datumTries || 3n,
      schedulingSpec: request.schedulingSpec,
      podSpec: request.podSpec,
      podPatch: request.podPatch,
    };
  }

  // ---- JobInfo ------------------------------------------------------------------------------

  job(job: JobRow) {
    return { pipeline: pipelineMessage(job.project, job.pipeline), id: job.id };
  }

  jobInfo(job: JobRow, details: boolean) {
    return wireMessage(pps_v2.JobInfoSchema, this.jobInfoMessage(job, details));
  }

  private jobInfoMessage(job: JobRow, details: boolean): pps_v2.JobInfo {
    const outRepo = { name: job.pipeline, type: 'user', project: { name: job.project } };
    return create(pps_v2.JobInfoSchema, {
      job: this.job(job),
      pipelineVersion: BigInt(job.pipeline_version),
      outputCommit: this.commit(job.output_commit_rowid) ?? { repo: outRepo, id: job.id },
      restart: BigInt(job.restart),
      dataProcessed: BigInt(job.data_processed),
      dataSkipped: BigInt(job.data_skipped),
      dataTotal: BigInt(job.data_total),
      dataFailed: BigInt(job.data_failed),
      dataRecovered: BigInt(job.data_recovered),
      stats: this.processStats(job.stats),
      state: enumValue(pps_v2.JobState, job.state),
      reason: job.reason,
      created: timestampOf(job.created_at),
      started: timestampOf(job.started_at),
      finished: timestampOf(job.finished_at),
      details: details ? this.jobDetails(job) : undefined,
    });
  }

  private jobDetails(job: JobRow): Init<typeof pps_v2.JobInfo_DetailsSchema> {
    // (A version is missing only for a job whose pipeline was deleted meanwhile.)
    const version = this.store.version(job.project, job.pipeline, job.pipeline_version) as
      PipelineVersionRow | undefined;
    const request = version ? this.request(version) : create(pps_v2.CreatePipelineRequestSchema);
    return {
      ...this.runSpec(request, job.project, job.pipeline),
      salt: job.salt,
      workerStatus: this.workerStatus(job).map((status) => this.workerStatusMessage(status)),
    };
  }

  private workerStatusMessage(status: WorkerSlotStatus): Init<typeof pps_v2.WorkerStatusSchema> {
    return {
      workerId: status.workerId,
      jobId: status.jobId,
      datumStatus: status.datum
        ? {
            started: timestampFromMs(status.datum.started),
            data: status.datum.data.map((d) => ({ path: d.path, hash: bytesOfHex(d.hash) })),
          }
        : undefined,
    };
  }

  private processStats(json: string): Init<typeof pps_v2.ProcessStatsSchema> {
    const stats = JSON.parse(json) as Partial<Stats>;
    return {
      downloadTime: durationFromMs(stats.downloadMs ?? 0),
      processTime: durationFromMs(stats.processMs ?? 0),
      uploadTime: durationFromMs(stats.uploadMs ?? 0),
      downloadBytes: BigInt(stats.downloadBytes ?? 0),
      uploadBytes: BigInt(stats.uploadBytes ?? 0),
    };
  }

  // ---- DatumInfo ----------------------------------------------------------------------------

  /** A job's datum (InspectDatum, ListDatum over a job). */
  datumInfo(job: JobRow, datum: DatumRow) {
    const info = this.datumInfoMessage(JSON.parse(datum.data) as DatumFile[], {
      job: this.job(job),
      id: datum.id,
    });
    info.state = enumValue(pps_v2.DatumState, datum.state);
    info.stats = create(pps_v2.ProcessStatsSchema, this.processStats(datum.stats));
    const output = this.commit(job.output_commit_rowid);
    if (output)
      info.pfsState = create(pfs_v2.FileSchema, { commit: output, path: '/', datum: datum.id });
    return wireMessage(pps_v2.DatumInfoSchema, info);
  }

  /** A datum an input would make, with no job (ListDatum's dry run): its state is UNKNOWN. */
  plannedDatumInfo(id: string, files: DatumFile[]) {
    return wireMessage(pps_v2.DatumInfoSchema, this.datumInfoMessage(files, { id }));
  }

  private datumInfoMessage(
    files: DatumFile[],
    datum: Init<typeof pps_v2.DatumSchema>,
  ): pps_v2.DatumInfo {
    const commits = new Map<number, pfs_v2.Commit | undefined>();
    const commitOf = (rowid: number) => {
      if (!commits.has(rowid)) commits.set(rowid, this.commit(rowid));
      return commits.get(rowid);
    };
    return create(pps_v2.DatumInfoSchema, {
      datum,
      data: datumMatches(files).map((match) => ({
        file: { commit: commitOf(match.commitRowid), path: match.path },
        fileType: match.type === 'DIR' ? pfs_v2.FileType.DIR : pfs_v2.FileType.FILE,
        committed: timestampFromMs(match.committedAt),
        sizeBytes: BigInt(match.sizeBytes),
        hash: bytesOfHex(match.hash),
      })),
    });
  }

  // ---- LogMessage, SecretInfo ---------------------------------------------------------------

  logMessage(line: LogLine, data: { path: string; hash: string }[]) {
    return wireMessage(
      pps_v2.LogMessageSchema,
      create(pps_v2.LogMessageSchema, {
        projectName: line.project,
        pipelineName: line.pipeline,
        jobId: line.jobId,
        workerId: line.master ? `${line.pipeline}-master` : `${line.pipeline}-worker`,
        datumId: line.datumId,
        master: line.master,
        data: data.map((d) => ({ path: d.path, hash: bytesOfHex(d.hash) })),
        user: line.user,
        ts: timestampFromMs(line.ts),
        message: line.message,
      }),
    );
  }

  secretInfo(row: SecretRow) {
    return wireMessage(
      pps_v2.SecretInfoSchema,
      create(pps_v2.SecretInfoSchema, {
        secret: { name: row.name },
        type: row.type,
        creationTimestamp: timestampFromMs(row.created_at),
      }),
    );
  }
}
