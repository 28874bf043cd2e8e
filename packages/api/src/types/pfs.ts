/** The repo/file service (pfs_v2) as the gateway's JSON, derived from the protocol (src/gen). */
import type * as pfs_v2 from '../gen/pfs_v2_pb.ts';
import type { Wire } from './emitted.ts';

export type { Duration, Int64, Timestamp } from './emitted.ts';

export type Project = Wire<typeof pfs_v2.ProjectSchema>;
export type AuthInfo = Wire<typeof pfs_v2.AuthInfoSchema>;
export type ProjectInfo = Wire<typeof pfs_v2.ProjectInfoSchema>;
export type Repo = Wire<typeof pfs_v2.RepoSchema>;
export type RepoInfo = Wire<typeof pfs_v2.RepoInfoSchema>;
export type Branch = Wire<typeof pfs_v2.BranchSchema>;
export type Trigger = Wire<typeof pfs_v2.TriggerSchema>;
export type BranchInfo = Wire<typeof pfs_v2.BranchInfoSchema>;
export type Commit = Wire<typeof pfs_v2.CommitSchema>;
export type CommitInfo = Wire<typeof pfs_v2.CommitInfoSchema>;
/** pfs_v2.File (named apart from the DOM's File). */
export type PfsFile = Wire<typeof pfs_v2.FileSchema>;
export type FileInfo = Wire<typeof pfs_v2.FileInfoSchema>;
export type DiffFileResponse = Wire<typeof pfs_v2.DiffFileResponseSchema>;
export type ReposSummary = Wire<typeof pfs_v2.ReposSummarySchema>;
export type ReposSummaryResponse = Wire<typeof pfs_v2.ReposSummaryResponseSchema>;
export type FindCommitsResponse = Wire<typeof pfs_v2.FindCommitsResponseSchema>;
export type FsckResponse = Wire<typeof pfs_v2.FsckResponseSchema>;
export type DeleteRepoResponse = Wire<typeof pfs_v2.DeleteRepoResponseSchema>;
/** Ivory only: one line of ListRepoHeads. */
export type RepoHead = Wire<typeof pfs_v2.RepoHeadSchema>;

export type OriginKind = pfs_v2.OriginKindJson;
export type CommitState = pfs_v2.CommitStateJson;
export type FileType = pfs_v2.FileTypeJson;

/**
 * ListRepo's `type` (a string in the protocol): `user`, `spec`, `meta`; `''` means every type.
 * Ivory's client narrows it to the values the platform knows.
 */
export type RepoType = 'user' | 'spec' | 'meta' | '';

/**
 * One message of a ModifyFile request stream after `setCommit` (the ModifyFileRequest oneof
 * `body`), with AddFile's `raw` bytes (a BytesValue) as base64.
 */
export type ModifyFileOp =
  | { addFile: pfs_v2.AddFileJson & { path: string; raw: string } }
  | { deleteFile: pfs_v2.DeleteFileJson & { path: string } }
  | { copyFile: pfs_v2.CopyFileJson & { dst: string; src: pfs_v2.FileJson } };
