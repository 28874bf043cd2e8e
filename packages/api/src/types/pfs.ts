/** Hand-written wire types of the repo/file service (pfs_v2), as protobuf JSON. */

/** int64/uint64 fields travel as decimal strings. */
export type Int64 = string;
/** RFC 3339 timestamp in UTC. */
export type Timestamp = string;

export interface Project {
  name: string;
}

export interface AuthInfo {
  permissions: string[];
  roles: string[];
}

export interface ProjectInfo {
  project: Project;
  description: string;
  authInfo: AuthInfo | null;
  createdAt: Timestamp | null;
  metadata: Record<string, string>;
  createdBy: string;
}

/** Repo types: `user`, `spec`, `meta`; `''` in ListRepo means every type. */
export type RepoType = 'user' | 'spec' | 'meta' | '';

export interface Repo {
  name: string;
  type: string;
  project: Project | null;
}

export interface RepoInfo {
  repo: Repo;
  created: Timestamp | null;
  sizeBytesUpperBound: Int64;
  description: string;
  branches: Branch[];
  authInfo: AuthInfo | null;
  details: { sizeBytes: Int64 } | null;
  metadata: Record<string, string>;
}

export interface Branch {
  repo: Repo;
  name: string;
}

export interface Trigger {
  branch: string;
  all: boolean;
  rateLimitSpec: string;
  size: string;
  commits: Int64;
  cronSpec: string;
}

export interface BranchInfo {
  branch: Branch;
  head: Commit | null;
  provenance: Branch[];
  subvenance: Branch[];
  directProvenance: Branch[];
  trigger: Trigger | null;
  metadata: Record<string, string>;
  createdBy: string;
  createdAt: Timestamp | null;
  updatedAt: Timestamp | null;
}

export const OriginKind = ['ORIGIN_KIND_UNKNOWN', 'USER', 'AUTO', 'FSCK'] as const;
export type OriginKind = (typeof OriginKind)[number];

export const CommitState = [
  'COMMIT_STATE_UNKNOWN',
  'STARTED',
  'READY',
  'FINISHING',
  'FINISHED',
] as const;
export type CommitState = (typeof CommitState)[number];

export interface Commit {
  repo: Repo;
  id: string;
  branch?: Branch | null;
}

export interface CommitInfo {
  commit: Commit;
  origin: { kind: OriginKind } | null;
  description: string;
  parentCommit: Commit | null;
  childCommits: Commit[];
  started: Timestamp | null;
  finishing: Timestamp | null;
  finished: Timestamp | null;
  directProvenance: Commit[];
  directSubvenance: Commit[];
  error: string;
  sizeBytesUpperBound: Int64;
  details: {
    sizeBytes: Int64;
    compactingTime: string | null;
    validatingTime: string | null;
  } | null;
  metadata: Record<string, string>;
  createdBy: string;
  createdAt: Timestamp | null;
  updatedAt: Timestamp | null;
}

export const FileType = ['RESERVED', 'FILE', 'DIR'] as const;
export type FileType = (typeof FileType)[number];

export interface PfsFile {
  commit: Commit;
  path: string;
  datum?: string;
}

export interface FileInfo {
  file: PfsFile;
  fileType: FileType;
  committed: Timestamp | null;
  sizeBytes: Int64;
  /** base64 */
  hash: string;
}

export interface DiffFileResponse {
  newFile: FileInfo | null;
  oldFile: FileInfo | null;
}

export interface ReposSummary {
  project: Project;
  userRepoCount: Int64;
  sizeBytes: Int64;
}

export interface ReposSummaryResponse {
  summaries: ReposSummary[];
}

/** One message of a ModifyFile request stream. */
export type ModifyFileOp =
  | { addFile: { path: string; raw: string; datum?: string } }
  | { deleteFile: { path: string; datum?: string } }
  | { copyFile: { dst: string; src: PfsFile; append?: boolean; datum?: string } };
