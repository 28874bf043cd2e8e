// The engine's versioned file store, in layers of one responsibility each: pfs-store-base.ts
// (statements, transactions) < pfs-store-repos.ts (projects, repos) < pfs-store-commits.ts
// (branches, commits) < pfs-store-listing.ts (reading files) < pfs-store-writes.ts (writing
// files). Callers use PfsStore.
import { PfsFileWrites } from './pfs-store-writes.ts';

export { newCommitId } from './pfs-store-commits.ts';
export type { PageOptions } from './pfs-store-listing.ts';
export type { RepoRef } from './pfs-store-repos.ts';
export type { NewFile } from './pfs-store-writes.ts';

/**
 * Projects, repos, branches, commits and files with Pachyderm semantics, in SQLite.
 * Each commit materialises its full file table; every method that changes state runs in one
 * transaction, so a failed call changes nothing.
 */
export class PfsStore extends PfsFileWrites {}
