/** Numbered schema migrations; append new ones, never edit applied ones. */
export const migrations: readonly string[] = [
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
];
