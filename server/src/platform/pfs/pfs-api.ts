// The embedded pfs_v2.API: registers each group of its methods (project-api.ts, repo-api.ts,
// branch-api.ts, commit-api.ts, file-api.ts, file-diff-api.ts).
import type { BlobStore } from '../storage/blob-store.ts';
import type { MethodRegistry } from '../platform.ts';
import { registerBranchApi } from './branch-api.ts';
import type { CommitEvents } from './commit-events.ts';
import { registerCommitApi } from './commit-api.ts';
import { registerFileApi } from './file-api.ts';
import { registerFileDiffApi } from './file-diff-api.ts';
import { pfsApiContext } from './pfs-api-context.ts';
import type { PfsStore } from './pfs-store.ts';
import { registerProjectApi } from './project-api.ts';
import { registerRepoApi } from './repo-api.ts';

/** Registers the embedded pfs_v2.API methods. */
export function registerPfsApi(
  methods: MethodRegistry,
  store: PfsStore,
  blobs: BlobStore,
  events: CommitEvents,
): void {
  const api = pfsApiContext(methods, store, blobs, events);
  registerProjectApi(api);
  registerRepoApi(api);
  registerBranchApi(api);
  registerCommitApi(api);
  registerFileApi(api);
  registerFileDiffApi(api);
}
