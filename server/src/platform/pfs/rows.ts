/** Rows of the pfs tables, as better-sqlite3 returns them. */

export interface ProjectRow {
  name: string;
  description: string;
  created_at: number;
  metadata: string;
}

export type RepoType = 'user' | 'spec' | 'meta';

export interface RepoRow {
  id: number;
  project: string;
  name: string;
  type: RepoType;
  description: string;
  created_at: number;
  metadata: string;
}

export interface BranchRow {
  repo_id: number;
  name: string;
  head_rowid: number | null;
  metadata: string;
  provenance: string;
  created_at: number;
  updated_at: number;
}

export type OriginKind = 'USER' | 'AUTO';

export interface CommitRow {
  rowid: number;
  repo_id: number;
  id: string;
  branch_name: string | null;
  parent_rowid: number | null;
  origin: OriginKind;
  description: string;
  started_at: number;
  finishing_at: number | null;
  finished_at: number | null;
  error: string;
  size_bytes: number;
  metadata: string;
  created_by: string;
  /** Commit lineage (storage/commit-lineage-schema.ts): segment and position in it. */
  lineage_seg: number | null;
  lineage_pos: number | null;
}

export type FileType = 'FILE' | 'DIR';

export interface FileRow {
  commit_rowid: number;
  path: string;
  dir: string;
  name: string;
  type: FileType;
  hash: string;
  size_bytes: number;
  committed_at: number;
}

/** What a file listing sends of a row. */
export type ListedFile = Pick<FileRow, 'path' | 'type' | 'hash' | 'size_bytes' | 'committed_at'>;

export type CommitState = 'STARTED' | 'FINISHING' | 'FINISHED';

export function commitState(commit: CommitRow): CommitState {
  if (commit.finished_at !== null) return 'FINISHED';
  if (commit.finishing_at !== null) return 'FINISHING';
  return 'STARTED';
}

export const isOpen = (commit: CommitRow): boolean => commit.finished_at === null;
