import { duration, hexToBytesField, int64, timestamp, type WireObject } from '../wire.ts';
import type { PfsMessages } from '../pfs/pfs-messages.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import type { DatumFile } from './datums.ts';
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

/** Wire messages of pps_v2 (wire-shapes.txt) from pps rows. */

const obj = (value: unknown): WireObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as WireObject) : {};
const str = (value: unknown) => (typeof value === 'string' ? value : '');
const bool = (value: unknown) => value === true;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const i64 = (value: unknown) =>
  typeof value === 'number' ? int64(value) : typeof value === 'string' && value ? value : '0';
const durationOrNull = (value: unknown) => (typeof value === 'string' && value ? value : null);

export function pipelineMessage(project: string, name: string) {
  return { project: { name: project }, name };
}

function transformMessage(value: unknown) {
  const t = obj(value);
  return {
    image: str(t.image),
    cmd: list(t.cmd),
    errCmd: list(t.errCmd),
    env: obj(t.env),
    secrets: list(t.secrets).map((s) => {
      const secret = obj(s);
      return {
        name: str(secret.name),
        key: str(secret.key),
        mountPath: str(secret.mountPath),
        envVar: str(secret.envVar),
      };
    }),
    imagePullSecrets: list(t.imagePullSecrets),
    stdin: list(t.stdin),
    errStdin: list(t.errStdin),
    acceptReturnCode: list(t.acceptReturnCode).map(i64),
    debug: bool(t.debug),
    user: str(t.user),
    workingDir: str(t.workingDir),
    dockerfile: str(t.dockerfile),
    memoryVolume: bool(t.memoryVolume),
    datumBatching: bool(t.datumBatching),
  };
}

type InputMessage = {
  pfs: WireObject | null;
  join: InputMessage[];
  group: InputMessage[];
  cross: InputMessage[];
  union: InputMessage[];
  cron: WireObject | null;
};

function inputMessage(
  value: unknown,
  pipelineProject: string,
  pipelineName: string,
): InputMessage | null {
  if (value === null || value === undefined) return null;
  const input = obj(value);
  const children = (key: string) =>
    list(input[key]).map((c) => inputMessage(c, pipelineProject, pipelineName) as InputMessage);
  const pfs = input.pfs ? obj(input.pfs) : null;
  const cron = input.cron ? obj(input.cron) : null;
  return {
    pfs: pfs && {
      project: str(pfs.project) || pipelineProject,
      name: str(pfs.name) || str(pfs.repo),
      repo: str(pfs.repo),
      repoType: str(pfs.repoType) || 'user',
      branch: str(pfs.branch) || 'master',
      commit: str(pfs.commit),
      glob: str(pfs.glob),
      joinOn: str(pfs.joinOn),
      outerJoin: bool(pfs.outerJoin),
      groupBy: str(pfs.groupBy),
      lazy: bool(pfs.lazy),
      emptyFiles: bool(pfs.emptyFiles),
      s3: bool(pfs.s3),
      trigger: null,
      propagationSpec: null,
      reference: bool(pfs.reference),
    },
    join: children('join'),
    group: children('group'),
    cross: children('cross'),
    union: children('union'),
    cron: cron && {
      name: str(cron.name),
      project: str(cron.project) || pipelineProject,
      repo: str(cron.repo) || `${pipelineName}_${str(cron.name)}`,
      commit: str(cron.commit),
      spec: str(cron.spec),
      overwrite: bool(cron.overwrite),
      start: str(cron.start) || null,
    },
  };
}

function statsMessage(json: string) {
  const s = JSON.parse(json) as Partial<Stats>;
  return {
    downloadTime: duration(s.downloadMs ?? 0),
    processTime: duration(s.processMs ?? 0),
    uploadTime: duration(s.uploadMs ?? 0),
    downloadBytes: int64(s.downloadBytes ?? 0),
    uploadBytes: int64(s.uploadBytes ?? 0),
  };
}

export class PpsMessages {
  constructor(
    private readonly pfs: PfsStore,
    private readonly pfsMessages: PfsMessages,
    private readonly store: PpsStore,
    private readonly isRunning: (project: string, name: string) => boolean,
  ) {}

  pipelineState(state: PipelineStateRow): string {
    if (state.stopped) return 'PIPELINE_PAUSED';
    if (state.failure) return 'PIPELINE_FAILURE';
    if (this.isRunning(state.project, state.name)) return 'PIPELINE_RUNNING';
    return 'PIPELINE_STANDBY';
  }

  pipelineInfo(state: PipelineStateRow, version: PipelineVersionRow, details: boolean) {
    const spec = JSON.parse(version.effective_spec) as WireObject;
    const specRepo = this.pfs.findRepo({ project: state.project, name: state.name, type: 'spec' });
    const isCurrent = version.version === state.version;
    const metadata = obj(spec.metadata);
    return {
      pipeline: pipelineMessage(state.project, state.name),
      version: int64(version.version),
      specCommit: specRepo
        ? {
            repo: { name: state.name, type: 'spec', project: { name: state.project } },
            id: version.spec_commit_id,
            branch: {
              repo: { name: state.name, type: 'spec', project: { name: state.project } },
              name: 'master',
            },
          }
        : null,
      stopped: state.stopped === 1,
      state: isCurrent ? this.pipelineState(state) : 'PIPELINE_STANDBY',
      reason: state.failure,
      lastJobState: state.last_job_state,
      parallelism: i64(obj(spec.parallelismSpec).constant || 1),
      type: 'PIPELINE_TYPE_TRANSFORM',
      authToken: '',
      details: details ? this.pipelineDetails(state, version, spec) : null,
      userSpecJson: version.user_spec,
      effectiveSpecJson: version.effective_spec,
      metadata: obj(metadata.annotations),
    };
  }

  private pipelineDetails(state: PipelineStateRow, version: PipelineVersionRow, spec: WireObject) {
    const metadata = obj(spec.metadata);
    const first = this.store.versions(state.project, state.name).at(-1);
    return {
      transform: transformMessage(spec.transform),
      tfJob: null,
      parallelismSpec: { constant: i64(obj(spec.parallelismSpec).constant || 1) },
      egress: null,
      createdAt: timestamp(first?.created_at ?? version.created_at),
      updatedAt: timestamp(version.created_at),
      createdBy: '',
      recentError: state.failure,
      workersRequested: i64(obj(spec.parallelismSpec).constant || 1),
      workersAvailable: i64(obj(spec.parallelismSpec).constant || 1),
      outputBranch: str(spec.outputBranch) || 'master',
      resourceRequests: null,
      resourceLimits: null,
      sidecarResourceLimits: null,
      input: inputMessage(spec.input, state.project, state.name),
      description: str(spec.description),
      salt: version.salt,
      reason: state.failure,
      service: null,
      spout: null,
      datumSetSpec: null,
      datumTimeout: durationOrNull(spec.datumTimeout),
      jobTimeout: durationOrNull(spec.jobTimeout),
      datumTries: i64(spec.datumTries || 3),
      schedulingSpec: null,
      podSpec: '',
      podPatch: '',
      s3Out: bool(spec.s3Out),
      metadata: { annotations: obj(metadata.annotations), labels: obj(metadata.labels) },
      reprocessSpec: str(spec.reprocessSpec) || 'until_success',
      unclaimedTasks: '0',
      workerRc: '',
      autoscaling: bool(spec.autoscaling),
      tolerations: [],
      sidecarResourceRequests: null,
      determined: null,
      maximumExpectedUptime: null,
      workersStartedAt: timestamp(version.created_at),
    };
  }

  job(job: JobRow) {
    return { pipeline: pipelineMessage(job.project, job.pipeline), id: job.id };
  }

  jobInfo(job: JobRow, details: boolean) {
    const output = job.output_commit_rowid
      ? this.pfs.commitByRowid(job.output_commit_rowid)
      : undefined;
    let jobDetails = null;
    if (details) {
      const version = this.store.version(job.project, job.pipeline, job.pipeline_version);
      const spec = version ? (JSON.parse(version.effective_spec) as WireObject) : {};
      jobDetails = {
        transform: transformMessage(spec.transform),
        parallelismSpec: { constant: i64(obj(spec.parallelismSpec).constant || 1) },
        egress: null,
        service: null,
        spout: null,
        workerStatus: [],
        resourceRequests: null,
        resourceLimits: null,
        sidecarResourceLimits: null,
        input: inputMessage(spec.input, job.project, job.pipeline),
        salt: job.salt,
        datumSetSpec: null,
        datumTimeout: durationOrNull(spec.datumTimeout),
        jobTimeout: durationOrNull(spec.jobTimeout),
        datumTries: i64(spec.datumTries || 3),
        schedulingSpec: null,
        podSpec: '',
        podPatch: '',
        sidecarResourceRequests: null,
      };
    }
    return {
      job: this.job(job),
      pipelineVersion: int64(job.pipeline_version),
      outputCommit: output
        ? this.pfsMessages.commit(output)
        : {
            repo: { name: job.pipeline, type: 'user', project: { name: job.project } },
            id: job.id,
            branch: null,
          },
      restart: int64(job.restart),
      dataProcessed: int64(job.data_processed),
      dataSkipped: int64(job.data_skipped),
      dataTotal: int64(job.data_total),
      dataFailed: int64(job.data_failed),
      dataRecovered: int64(job.data_recovered),
      stats: statsMessage(job.stats),
      state: job.state,
      reason: job.reason,
      created: timestamp(job.created_at),
      started: timestamp(job.started_at),
      finished: timestamp(job.finished_at),
      details: jobDetails,
      authToken: '',
    };
  }

  datumInfo(job: JobRow, datum: DatumRow) {
    const files = JSON.parse(datum.data) as DatumFile[];
    const output = job.output_commit_rowid
      ? this.pfs.commitByRowid(job.output_commit_rowid)
      : undefined;
    const commits = new Map<number, ReturnType<PfsMessages['commit']>>();
    const commitOf = (rowid: number) => {
      let message = commits.get(rowid);
      if (!message) {
        const commit = this.pfs.commitByRowid(rowid);
        message = commit
          ? this.pfsMessages.commit(commit)
          : {
              repo: { name: '', type: 'user', project: { name: job.project } },
              id: '',
              branch: null,
            };
        commits.set(rowid, message);
      }
      return message;
    };
    return {
      datum: { job: this.job(job), id: datum.id },
      state: datum.state,
      stats: statsMessage(datum.stats),
      pfsState: output
        ? { commit: this.pfsMessages.commit(output), path: '/', datum: datum.id }
        : null,
      data: files.map((file) => ({
        file: { commit: commitOf(file.commitRowid), path: file.path, datum: '' },
        fileType: 'FILE',
        committed: timestamp(file.committedAt),
        sizeBytes: int64(file.sizeBytes),
        hash: file.hash ? hexToBytesField(file.hash) : '',
      })),
      imageId: '',
    };
  }

  logMessage(line: LogLine, data: { path: string; hash: string }[]) {
    return {
      projectName: line.project,
      pipelineName: line.pipeline,
      jobId: line.jobId,
      workerId: line.master ? `${line.pipeline}-master` : `${line.pipeline}-worker`,
      datumId: line.datumId,
      master: line.master,
      data: data.map((d) => ({ path: d.path, hash: d.hash ? hexToBytesField(d.hash) : '' })),
      user: line.user,
      ts: timestamp(line.ts),
      message: line.message,
    };
  }

  secretInfo(row: SecretRow) {
    return {
      secret: { name: row.name },
      type: row.type,
      creationTimestamp: timestamp(row.created_at),
    };
  }
}
