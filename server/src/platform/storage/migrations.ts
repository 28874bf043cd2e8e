import type { Database } from 'better-sqlite3';
import { commitLineageSchema, fillCommitLineage } from './commit-lineage-schema.ts';

/** A migration: SQL to run, or a function for work SQL alone cannot express (a backfill). */
export type Migration = string | ((db: Database) => void);

/** Numbered schema migrations; append new ones, never edit applied ones. */
export const migrations: readonly Migration[] = [
  `
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE projects (
    name TEXT PRIMARY KEY,
    description TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}'
  );

  CREATE TABLE repos (
    id INTEGER PRIMARY KEY,
    project TEXT NOT NULL REFERENCES projects(name),
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}',
    UNIQUE (project, name, type)
  );

  CREATE TABLE commits (
    rowid INTEGER PRIMARY KEY,
    repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    branch_name TEXT,
    parent_rowid INTEGER REFERENCES commits(rowid) ON DELETE SET NULL,
    origin TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    started_at INTEGER NOT NULL,
    finishing_at INTEGER,
    finished_at INTEGER,
    error TEXT NOT NULL DEFAULT '',
    size_bytes INTEGER NOT NULL DEFAULT 0,
    metadata TEXT NOT NULL DEFAULT '{}',
    created_by TEXT NOT NULL DEFAULT '',
    UNIQUE (repo_id, id)
  );
  CREATE INDEX commits_by_id ON commits(id);
  CREATE INDEX commits_by_parent ON commits(parent_rowid);

  CREATE TABLE branches (
    repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    head_rowid INTEGER REFERENCES commits(rowid),
    metadata TEXT NOT NULL DEFAULT '{}',
    provenance TEXT NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (repo_id, name)
  );

  CREATE TABLE files (
    commit_rowid INTEGER NOT NULL REFERENCES commits(rowid) ON DELETE CASCADE,
    path TEXT NOT NULL,
    dir TEXT NOT NULL,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    hash TEXT NOT NULL DEFAULT '',
    size_bytes INTEGER NOT NULL DEFAULT 0,
    committed_at INTEGER NOT NULL,
    PRIMARY KEY (commit_rowid, path)
  ) WITHOUT ROWID;
  CREATE INDEX files_by_dir ON files(commit_rowid, dir, path);

  CREATE TABLE uploads (
    id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    repo TEXT NOT NULL,
    branch TEXT NOT NULL,
    path TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE upload_files (
    upload_id TEXT NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
    file_name TEXT NOT NULL,
    chunk_total INTEGER NOT NULL,
    PRIMARY KEY (upload_id, file_name)
  );
  CREATE TABLE upload_chunks (
    upload_id TEXT NOT NULL,
    file_name TEXT NOT NULL,
    idx INTEGER NOT NULL,
    size_bytes INTEGER NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (upload_id, file_name, idx),
    FOREIGN KEY (upload_id, file_name) REFERENCES upload_files(upload_id, file_name) ON DELETE CASCADE
  );
  `,
  // 2: pipelines (pps): provenance between commits, pipeline versions, jobs, datums, logs,
  // secrets and defaults.
  `
  CREATE TABLE commit_provenance (
    commit_rowid INTEGER NOT NULL REFERENCES commits(rowid) ON DELETE CASCADE,
    from_rowid INTEGER NOT NULL REFERENCES commits(rowid) ON DELETE CASCADE,
    PRIMARY KEY (commit_rowid, from_rowid)
  ) WITHOUT ROWID;
  CREATE INDEX commit_subvenance ON commit_provenance(from_rowid);

  CREATE TABLE pps_pipelines (
    project TEXT NOT NULL,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    user_spec TEXT NOT NULL,
    effective_spec TEXT NOT NULL,
    salt TEXT NOT NULL,
    spec_commit_id TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    PRIMARY KEY (project, name, version)
  );

  CREATE TABLE pps_pipeline_state (
    project TEXT NOT NULL,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    stopped INTEGER NOT NULL DEFAULT 0,
    failure TEXT NOT NULL DEFAULT '',
    last_job_state TEXT NOT NULL DEFAULT 'JOB_STATE_UNKNOWN',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (project, name)
  );

  CREATE TABLE pps_jobs (
    rowid INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    pipeline TEXT NOT NULL,
    id TEXT NOT NULL,
    pipeline_version INTEGER NOT NULL,
    salt TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    input_commits TEXT NOT NULL DEFAULT '',
    output_commit_rowid INTEGER,
    restart INTEGER NOT NULL DEFAULT 0,
    data_processed INTEGER NOT NULL DEFAULT 0,
    data_skipped INTEGER NOT NULL DEFAULT 0,
    data_failed INTEGER NOT NULL DEFAULT 0,
    data_recovered INTEGER NOT NULL DEFAULT 0,
    data_total INTEGER NOT NULL DEFAULT 0,
    stats TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    finished_at INTEGER,
    UNIQUE (project, pipeline, id)
  );
  CREATE INDEX pps_jobs_by_id ON pps_jobs(id);
  CREATE INDEX pps_jobs_by_state ON pps_jobs(state);

  CREATE TABLE pps_datums (
    job_rowid INTEGER NOT NULL REFERENCES pps_jobs(rowid) ON DELETE CASCADE,
    id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    data TEXT NOT NULL,
    output TEXT,
    stored INTEGER NOT NULL DEFAULT 0,
    stats TEXT NOT NULL DEFAULT '{}',
    started_at INTEGER,
    finished_at INTEGER,
    PRIMARY KEY (job_rowid, id)
  ) WITHOUT ROWID;
  CREATE INDEX pps_datums_by_id ON pps_datums(id, state);

  CREATE TABLE pps_logs (
    id INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    pipeline TEXT NOT NULL,
    job_id TEXT NOT NULL,
    datum_id TEXT NOT NULL,
    user INTEGER NOT NULL,
    master INTEGER NOT NULL,
    ts INTEGER NOT NULL,
    message TEXT NOT NULL
  );
  CREATE INDEX pps_logs_by_pipeline ON pps_logs(project, pipeline, id);
  CREATE INDEX pps_logs_by_job ON pps_logs(job_id, id);

  CREATE TABLE pps_secrets (
    name TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    labels TEXT NOT NULL DEFAULT '{}',
    sealed BLOB NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE pps_project_defaults (
    project TEXT PRIMARY KEY,
    defaults_json TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  `,
  // 3: trials (omni_v1): experiments that run a flow with parameters, and their metrics.
  `
  CREATE TABLE trials (
    id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    flow TEXT NOT NULL,
    case_name TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL,
    job_state TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    author TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    job_set_id TEXT NOT NULL DEFAULT '',
    rerun_of TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    finished_at INTEGER,
    deleted_at INTEGER
  );
  CREATE INDEX trials_by_created ON trials(created_at, id);
  CREATE INDEX trials_by_project ON trials(project, created_at, id);
  CREATE INDEX trials_by_flow ON trials(project, flow, created_at, id);
  CREATE INDEX trials_by_job_set ON trials(job_set_id);
  CREATE INDEX trials_by_state ON trials(state, finished_at);

  CREATE TABLE trial_params (
    trial_id TEXT NOT NULL REFERENCES trials(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    num_value REAL,
    PRIMARY KEY (trial_id, name)
  ) WITHOUT ROWID;
  CREATE INDEX trial_params_by_num ON trial_params(name, num_value, trial_id);
  CREATE INDEX trial_params_by_value ON trial_params(name, value, trial_id);

  CREATE TABLE trial_labels (
    trial_id TEXT NOT NULL REFERENCES trials(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    num_value REAL,
    PRIMARY KEY (trial_id, name)
  ) WITHOUT ROWID;
  CREATE INDEX trial_labels_by_num ON trial_labels(name, num_value, trial_id);
  CREATE INDEX trial_labels_by_value ON trial_labels(name, value, trial_id);

  -- One row per reported value: a history point (is_final = 0) or the final value (is_final = 1,
  -- exactly one per trial and name; for a history it is the last point and carries its step).
  CREATE TABLE trial_metrics (
    trial_id TEXT NOT NULL REFERENCES trials(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    seq INTEGER NOT NULL,
    value REAL NOT NULL,
    step INTEGER,
    is_final INTEGER NOT NULL,
    PRIMARY KEY (trial_id, name, seq)
  ) WITHOUT ROWID;
  CREATE INDEX trial_metrics_final ON trial_metrics(name, value, trial_id) WHERE is_final = 1;
  `,
  // 4: pfs_v2 PutCache / GetCache / ClearCache: a key → value (Any message as JSON) store.
  `
  CREATE TABLE pfs_cache (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    tag TEXT NOT NULL DEFAULT '',
    file_set_ids TEXT NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL
  );
  CREATE INDEX pfs_cache_by_tag ON pfs_cache(tag);
  `,
  // 5: pfs_v2 file sets (GetFileSet / AddFileSet / RenewFileSet / ComposeFileSet /
  // ShardFileSet): staged, expiring collections of files naming blobs of the content store.
  `
  CREATE TABLE pfs_file_sets (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX pfs_file_sets_by_expiry ON pfs_file_sets(expires_at);
  CREATE TABLE pfs_file_set_files (
    file_set_id TEXT NOT NULL REFERENCES pfs_file_sets(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    hash TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    PRIMARY KEY (file_set_id, path)
  ) WITHOUT ROWID;
  `,
  // 6: finished uploads, so a retried /upload/finish answers with the same commit.
  `
  CREATE TABLE upload_finished (
    upload_id TEXT PRIMARY KEY,
    commit_id TEXT NOT NULL,
    finished_at INTEGER NOT NULL
  );
  `,
  // 7: auth_v2 role bindings (principal → roles on the cluster, a project or a repo) and robot
  // tokens (only their SHA-256 is kept). Every signed-in user may create projects, as on pachd.
  `
  CREATE TABLE role_bindings (
    resource_type TEXT NOT NULL,
    resource_name TEXT NOT NULL,
    principal TEXT NOT NULL,
    role TEXT NOT NULL,
    PRIMARY KEY (resource_type, resource_name, principal, role)
  ) WITHOUT ROWID;
  CREATE INDEX role_bindings_by_principal ON role_bindings(principal);
  INSERT INTO role_bindings VALUES ('CLUSTER', '', 'allClusterUsers', 'projectCreator');
  CREATE TABLE auth_tokens (
    hash TEXT PRIMARY KEY,
    subject TEXT NOT NULL,
    expires_at INTEGER
  );
  `,
  // 8: commit lineage, so history walks cost their page: every commit gets a segment and a
  // position in it (storage/commit-lineage-schema.ts); existing commits are filled in here.
  (db) => {
    db.exec(commitLineageSchema.columns);
    fillCommitLineage(db);
    db.exec(commitLineageSchema.triggers);
  },
  // 9: the chip designer's loop: an upload's group (the sessions of one modal upload land in one
  // commit) and a trial's stages as the trial service last saw them (JSON: name, pipeline,
  // state, reason, the log line of a failure).
  `
  ALTER TABLE uploads ADD COLUMN upload_group TEXT NOT NULL DEFAULT '';
  CREATE INDEX uploads_by_group ON uploads(upload_group) WHERE upload_group != '';
  ALTER TABLE trials ADD COLUMN stages TEXT NOT NULL DEFAULT '[]';
  `,
];
