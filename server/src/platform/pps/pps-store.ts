import type { Statement } from 'better-sqlite3';
import { ensureSetting, withoutFsync, type Db } from '../storage/database.ts';
import type { DatumFile } from './datums.ts';

/** Rows of the pps tables (migration 2) and the queries over them. */

export interface PipelineVersionRow {
  project: string;
  name: string;
  version: number;
  user_spec: string;
  effective_spec: string;
  salt: string;
  spec_commit_id: string;
  created_at: number;
}

export interface PipelineStateRow {
  project: string;
  name: string;
  version: number;
  stopped: number;
  failure: string;
  last_job_state: string;
  created_at: number;
  updated_at: number;
}

export const jobStates = [
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
export type JobState = (typeof jobStates)[number];
export const terminalJobStates: readonly string[] = [
  'JOB_FAILURE',
  'JOB_SUCCESS',
  'JOB_KILLED',
  'JOB_UNRUNNABLE',
];
export const isTerminal = (state: string): boolean => terminalJobStates.includes(state);

export interface JobRow {
  rowid: number;
  project: string;
  pipeline: string;
  id: string;
  pipeline_version: number;
  salt: string;
  state: JobState;
  reason: string;
  /** JSON [{name, commitRowid}] once resolved (or given explicitly); '' until then. */
  input_commits: string;
  output_commit_rowid: number | null;
  restart: number;
  data_processed: number;
  data_skipped: number;
  data_failed: number;
  data_recovered: number;
  data_total: number;
  stats: string;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export const datumStates = [
  'UNKNOWN',
  'FAILED',
  'SUCCESS',
  'SKIPPED',
  'STARTING',
  'RECOVERED',
] as const;
export type DatumState = (typeof datumStates)[number];

export interface DatumRow {
  job_rowid: number;
  id: string;
  seq: number;
  state: DatumState;
  reason: string;
  data: string;
  output: string | null;
  stored: number;
  stats: string;
  started_at: number | null;
  finished_at: number | null;
}

export interface OutputFile {
  path: string;
  hash: string;
  sizeBytes: number;
}

export interface Stats {
  downloadMs: number;
  processMs: number;
  uploadMs: number;
  downloadBytes: number;
  uploadBytes: number;
}

export const emptyStats = (): Stats => ({
  downloadMs: 0,
  processMs: 0,
  uploadMs: 0,
  downloadBytes: 0,
  uploadBytes: 0,
});

export interface InputCommitRef {
  name: string;
  commitRowid: number;
}

export class PpsStore {
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: Db) {}

  /** A prepared statement, cached by its SQL (updates are built from the fields they set). */
  private statement(sql: string): Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  /**
   * A transaction whose commit skips the WAL fsync (withoutFsync): it survives a crash of the
   * process, and a power cut only until the next synced commit. For rows whose loss the runner
   * recovers from. Inside another transaction it is simply part of it.
   */
  unsyncedTransaction<T>(work: () => T): T {
    return withoutFsync(this.db, () => this.transaction(work));
  }

  // ---- pipelines ------------------------------------------------------------------------

  findState(project: string, name: string): PipelineStateRow | undefined {
    return this.statement('SELECT * FROM pps_pipeline_state WHERE project = ? AND name = ?').get(
      project,
      name,
    ) as PipelineStateRow | undefined;
  }

  listStates(projects: string[] = []): PipelineStateRow[] {
    if (projects.length === 0)
      return this.db
        .prepare('SELECT * FROM pps_pipeline_state ORDER BY project, name')
        .all() as PipelineStateRow[];
    return this.db
      .prepare(
        `SELECT * FROM pps_pipeline_state WHERE project IN (${projects.map(() => '?').join(',')})
         ORDER BY project, name`,
      )
      .all(...projects) as PipelineStateRow[];
  }

  version(project: string, name: string, version: number): PipelineVersionRow {
    return this.statement(
      'SELECT * FROM pps_pipelines WHERE project = ? AND name = ? AND version = ?',
    ).get(project, name, version) as PipelineVersionRow;
  }

  /** Versions newest first. */
  versions(project: string, name: string): PipelineVersionRow[] {
    return this.db
      .prepare('SELECT * FROM pps_pipelines WHERE project = ? AND name = ? ORDER BY version DESC')
      .all(project, name) as PipelineVersionRow[];
  }

  addVersion(row: PipelineVersionRow): void {
    this.db
      .prepare(
        `INSERT INTO pps_pipelines (project, name, version, user_spec, effective_spec, salt, spec_commit_id, created_at)
         VALUES (@project, @name, @version, @user_spec, @effective_spec, @salt, @spec_commit_id, @created_at)`,
      )
      .run(row);
    const now = Date.now();
    this.db
      .prepare(
        `INSERT INTO pps_pipeline_state (project, name, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (project, name) DO UPDATE SET version = excluded.version, failure = '',
           updated_at = excluded.updated_at`,
      )
      .run(row.project, row.name, row.version, now, now);
  }

  setStopped(project: string, name: string, stopped: boolean): void {
    this.db
      .prepare(
        'UPDATE pps_pipeline_state SET stopped = ?, updated_at = ? WHERE project = ? AND name = ?',
      )
      .run(stopped ? 1 : 0, Date.now(), project, name);
  }

  setFailure(project: string, name: string, failure: string): void {
    this.db
      .prepare(
        'UPDATE pps_pipeline_state SET failure = ?, updated_at = ? WHERE project = ? AND name = ?',
      )
      .run(failure, Date.now(), project, name);
  }

  setLastJobState(project: string, name: string, state: string): void {
    this.statement(
      'UPDATE pps_pipeline_state SET last_job_state = ? WHERE project = ? AND name = ?',
    ).run(state, project, name);
  }

  deletePipelineRows(project: string, name: string): void {
    this.transaction(() => {
      this.db.prepare('DELETE FROM pps_jobs WHERE project = ? AND pipeline = ?').run(project, name);
      this.db
        .prepare('DELETE FROM pps_pipelines WHERE project = ? AND name = ?')
        .run(project, name);
      this.db
        .prepare('DELETE FROM pps_pipeline_state WHERE project = ? AND name = ?')
        .run(project, name);
    });
  }

  // ---- defaults -------------------------------------------------------------------------

  clusterDefaults(): string {
    return ensureSetting(this.db, 'pps_cluster_defaults', () => '{}');
  }

  setClusterDefaults(json: string): void {
    this.db
      .prepare(
        `INSERT INTO settings (key, value) VALUES ('pps_cluster_defaults', ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      )
      .run(json);
  }

  projectDefaults(project: string): { json: string; createdAt: number | null } {
    const row = this.db
      .prepare('SELECT defaults_json, created_at FROM pps_project_defaults WHERE project = ?')
      .get(project) as { defaults_json: string; created_at: number } | undefined;
    return row
      ? { json: row.defaults_json, createdAt: row.created_at }
      : { json: '{}', createdAt: null };
  }

  setProjectDefaults(project: string, json: string): void {
    this.db
      .prepare(
        `INSERT INTO pps_project_defaults (project, defaults_json, created_at) VALUES (?, ?, ?)
         ON CONFLICT (project) DO UPDATE SET defaults_json = excluded.defaults_json`,
      )
      .run(project, json, Date.now());
  }

  // ---- jobs -----------------------------------------------------------------------------

  insertJob(job: {
    project: string;
    pipeline: string;
    id: string;
    version: number;
    salt: string;
    inputCommits: InputCommitRef[] | null;
  }): JobRow | undefined {
    const result = this.db
      .prepare(
        `INSERT OR IGNORE INTO pps_jobs (project, pipeline, id, pipeline_version, salt, state, input_commits, created_at)
         VALUES (?, ?, ?, ?, ?, 'JOB_CREATED', ?, ?)`,
      )
      .run(
        job.project,
        job.pipeline,
        job.id,
        job.version,
        job.salt,
        job.inputCommits ? JSON.stringify(job.inputCommits) : '',
        Date.now(),
      );
    return result.changes === 0 ? undefined : this.jobByRowid(Number(result.lastInsertRowid));
  }

  jobByRowid(rowid: number): JobRow | undefined {
    return this.statement('SELECT * FROM pps_jobs WHERE rowid = ?').get(rowid) as
      JobRow | undefined;
  }

  findJob(project: string, pipeline: string, id: string): JobRow | undefined {
    return this.statement(
      'SELECT * FROM pps_jobs WHERE project = ? AND pipeline = ? AND id = ?',
    ).get(project, pipeline, id) as JobRow | undefined;
  }

  jobsWithId(id: string): JobRow[] {
    return this.db
      .prepare('SELECT * FROM pps_jobs WHERE id = ? ORDER BY rowid')
      .all(id) as JobRow[];
  }

  /** Jobs newest first. */
  listJobs(filter: { projects: string[]; pipeline?: { project: string; name: string } }): JobRow[] {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (filter.pipeline) {
      clauses.push('project = ? AND pipeline = ?');
      params.push(filter.pipeline.project, filter.pipeline.name);
    } else if (filter.projects.length > 0) {
      clauses.push(`project IN (${filter.projects.map(() => '?').join(',')})`);
      params.push(...filter.projects);
    }
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
    return this.db
      .prepare(`SELECT * FROM pps_jobs ${where} ORDER BY rowid DESC`)
      .all(...params) as JobRow[];
  }

  lastJob(project: string, pipeline: string): JobRow | undefined {
    return this.db
      .prepare(
        'SELECT * FROM pps_jobs WHERE project = ? AND pipeline = ? ORDER BY rowid DESC LIMIT 1',
      )
      .get(project, pipeline) as JobRow | undefined;
  }

  activeJobs(): JobRow[] {
    return this.statement(
      `SELECT * FROM pps_jobs WHERE state NOT IN (${terminalJobStates.map(() => '?').join(',')}) ORDER BY rowid`,
    ).all(...terminalJobStates) as JobRow[];
  }

  updateJob(rowid: number, fields: Partial<Omit<JobRow, 'rowid'>>): void {
    const keys = Object.keys(fields);
    if (keys.length === 0) return;
    this.statement(
      `UPDATE pps_jobs SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE rowid = @rowid`,
    ).run({
      ...fields,
      rowid,
    });
  }

  deleteJob(rowid: number): void {
    this.db.prepare('DELETE FROM pps_jobs WHERE rowid = ?').run(rowid);
  }

  // ---- datums ---------------------------------------------------------------------------

  insertDatums(jobRowid: number, datums: { id: string; files: DatumFile[] }[]): void {
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO pps_datums (job_rowid, id, seq, state, data) VALUES (?, ?, ?, 'STARTING', ?)`,
    );
    this.transaction(() => {
      datums.forEach((d, i) => insert.run(jobRowid, d.id, i, JSON.stringify(d.files)));
    });
  }

  /** A job's datums in processing order. */
  datums(jobRowid: number): DatumRow[] {
    return this.statement('SELECT * FROM pps_datums WHERE job_rowid = ? ORDER BY seq').all(
      jobRowid,
    ) as DatumRow[];
  }

  datum(jobRowid: number, id: string): DatumRow | undefined {
    return this.statement('SELECT * FROM pps_datums WHERE job_rowid = ? AND id = ?').get(
      jobRowid,
      id,
    ) as DatumRow | undefined;
  }

  updateDatum(
    jobRowid: number,
    id: string,
    fields: Partial<Omit<DatumRow, 'job_rowid' | 'id'>>,
  ): void {
    const keys = Object.keys(fields);
    this.statement(
      `UPDATE pps_datums SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE job_rowid = @job_rowid AND id = @id`,
    ).run({ ...fields, job_rowid: jobRowid, id });
  }

  /**
   * The job whose datums a job may reuse, as pachd picks its base: the pipeline's most recent
   * earlier job that succeeded — or, more recent, a failed or killed run of the same version over
   * the same input commits (a RestartDatum of it). Only with the same salt.
   */
  private baseJob(project: string, pipeline: string, salt: string, job: number): number | null {
    // (Asked once per datum of a job being planned: the last answer is kept for its job.)
    const last = this.lastBase;
    if (last?.job === job && last.salt === salt && Date.now() - last.at < 1000) return last.base;
    const base = this.statement(
      `SELECT b.rowid AS rowid, b.salt AS salt FROM pps_jobs b JOIN pps_jobs cur ON cur.rowid = ?
         WHERE b.project = ? AND b.pipeline = ? AND b.rowid < cur.rowid
           AND (b.state = 'JOB_SUCCESS' OR (b.pipeline_version = cur.pipeline_version
             AND b.input_commits != '' AND b.input_commits = cur.input_commits))
         ORDER BY b.rowid DESC LIMIT 1`,
    ).get(job, project, pipeline) as { rowid: number; salt: string } | undefined;
    const found = base && base.salt === salt ? base.rowid : null;
    this.lastBase = { job, salt, base: found, at: Date.now() };
    return found;
  }
  private lastBase: { job: number; salt: string; base: number | null; at: number } | null = null;

  /** Whether the job's base job (see baseJob) has a stored datum output to reuse. */
  hasReusableOutputs(project: string, pipeline: string, salt: string, beforeJob: number): boolean {
    const base = this.baseJob(project, pipeline, salt, beforeJob);
    return (
      base !== null &&
      this.statement(
        `SELECT 1 FROM pps_datums WHERE job_rowid = ? AND state IN ('SUCCESS', 'SKIPPED')
           AND stored = 1 AND output IS NOT NULL LIMIT 1`,
      )
        .pluck()
        .get(base) !== undefined
    );
  }

  /** The output of the same datum in the job's base job (see baseJob), processed or skipped. */
  reusableOutput(
    project: string,
    pipeline: string,
    salt: string,
    datumId: string,
    beforeJob: number,
  ): string | null {
    const base = this.baseJob(project, pipeline, salt, beforeJob);
    if (base === null) return null;
    const output = this.statement(
      `SELECT output FROM pps_datums WHERE job_rowid = ? AND id = ?
         AND state IN ('SUCCESS', 'SKIPPED') AND stored = 1 AND output IS NOT NULL`,
    )
      .pluck()
      .get(base, datumId);
    return typeof output === 'string' ? output : null;
  }
}
