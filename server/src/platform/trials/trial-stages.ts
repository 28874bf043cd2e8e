import type { PfsStore } from '../pfs/pfs-store.ts';
import type { LogStore } from '../pps/logs.ts';
import { isTerminal, type JobRow } from '../pps/pps-store.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { readBlob, type FlowStage } from './flows.ts';

/**
 * A trial's stages as people read them: each stage of the run with what became of it. A stage
 * reports on itself by writing `/stage.json` into its output:
 * `{"state": "SUCCESS" | "NOT_RUN", "reason": "…", "reports": [{"label", "path"}]}` — NOT_RUN
 * when it could not do its work (its tool is not installed), `reports` the files worth opening.
 */

/** The file a stage writes into its output to say whether it ran, and its reports. */
export const stagePath = '/stage.json';

export const stageStates = [
  'PENDING',
  'RUNNING',
  'SUCCESS',
  'NOT_RUN',
  'FAILED',
  'UNRUNNABLE',
  'KILLED',
] as const;
export type StageState = (typeof stageStates)[number];

export interface StageReport {
  label: string;
  /** The file in the stage's output commit (the repo of its pipeline, the run's ID). */
  path: string;
}

export interface TrialStage {
  name: string;
  pipeline: string;
  state: StageState;
  /** Why not run, why it failed (the tool's first error line), or why it could not run. */
  reason: string;
  jobState: string;
  /** The job (its ID is the run's) and the datum whose log holds `errorLine`. */
  jobId: string;
  datumId: string;
  /** The first line of the failed stage's log that names what failed (file:line: message). */
  errorLine: string;
  reports: StageReport[];
}

/** JSON of the stages column (migration 9); unreadable text reads as none. */
export function parseStages(text: string): TrialStage[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as TrialStage[]) : [];
  } catch {
    return [];
  }
}

/**
 * The first line of a job's log that says what failed: one naming a file and line (yosys
 * "rtl/x.v:16: ERROR: …", iverilog "rtl/x.v:16: syntax error", verilator "%Error: rtl/x.v:16:5:
 * …") and an error, else any line speaking of an error.
 */
export function firstErrorLine(
  lines: readonly { message: string; datumId: string }[],
): { line: string; datumId: string } | null {
  const trimmed = lines.map((line) => ({ ...line, message: line.message.trim() }));
  const named = trimmed.find(
    (line) => /[\w./-]+:\d+(:\d+)?:/.test(line.message) && /error/i.test(line.message),
  );
  const any = named ?? trimmed.find((line) => /\berror\b/i.test(line.message));
  return any ? { line: any.message, datumId: any.datumId } : null;
}

const stateOfJob = (state: string): StageState => {
  switch (state) {
    case 'JOB_SUCCESS':
      return 'SUCCESS';
    case 'JOB_FAILURE':
      return 'FAILED';
    case 'JOB_UNRUNNABLE':
      return 'UNRUNNABLE';
    case 'JOB_KILLED':
      return 'KILLED';
    case 'JOB_CREATED':
      return 'PENDING';
    default:
      return 'RUNNING';
  }
};

export class TrialStages {
  constructor(
    private readonly pfs: PfsStore,
    private readonly blobs: BlobStore,
    private readonly logs: LogStore,
  ) {}

  /**
   * The stages of a run from its jobs. Files and logs are read only for jobs that ended
   * (`previous` keeps what an earlier look found for a job that has not changed since).
   */
  async describe(
    stages: readonly FlowStage[],
    jobs: ReadonlyMap<string, JobRow>,
    previous: readonly TrialStage[],
  ): Promise<TrialStage[]> {
    const out: TrialStage[] = [];
    for (const stage of stages) {
      const job = jobs.get(stage.pipeline);
      const base: TrialStage = {
        name: stage.name,
        pipeline: stage.pipeline,
        state: job ? stateOfJob(job.state) : 'PENDING',
        reason: '',
        jobState: job?.state ?? '',
        jobId: job?.id ?? '',
        datumId: '',
        errorLine: '',
        reports: [],
      };
      const before = previous.find((p) => p.pipeline === stage.pipeline);
      if (job && isTerminal(job.state) && before && before.jobState === job.state) {
        out.push(before);
        continue;
      }
      if (job?.state === 'JOB_SUCCESS') Object.assign(base, await this.readStatus(job));
      else if (job?.state === 'JOB_FAILURE') {
        const error = firstErrorLine(
          this.logs
            .query({ project: job.project, pipeline: job.pipeline, jobId: job.id }, 0, 5000)
            .filter((line) => line.user),
        );
        base.errorLine = error?.line ?? '';
        base.datumId = error?.datumId ?? '';
        base.reason = error?.line ?? job.reason;
      } else if (job && isTerminal(job.state)) base.reason = job.reason;
      out.push(base);
    }
    return out;
  }

  /** A successful stage's /stage.json: NOT_RUN with its reason, or its reports. */
  private async readStatus(job: JobRow): Promise<Partial<TrialStage>> {
    if (job.output_commit_rowid === null) return {};
    const commit = this.pfs.commitByRowid(job.output_commit_rowid);
    const file = commit && this.pfs.findFile(commit, stagePath);
    if (!file || file.type !== 'FILE') return {};
    try {
      const status = JSON.parse((await readBlob(this.blobs, file.hash)).toString('utf8')) as {
        state?: unknown;
        reason?: unknown;
        reports?: unknown;
      };
      const reports = Array.isArray(status.reports)
        ? status.reports.flatMap((report: unknown) => {
            const r = (report ?? {}) as { label?: unknown; path?: unknown };
            return typeof r.path === 'string' && r.path.startsWith('/')
              ? [{ label: typeof r.label === 'string' ? r.label : r.path, path: r.path }]
              : [];
          })
        : [];
      return status.state === 'NOT_RUN'
        ? {
            state: 'NOT_RUN',
            reason: typeof status.reason === 'string' ? status.reason : 'not run',
            reports,
          }
        : { reports };
    } catch {
      return {};
    }
  }
}
