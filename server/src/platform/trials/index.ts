import type { CommitEvents } from '../pfs/commit-events.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import type { MethodRegistry } from '../platform.ts';
import type { Pps } from '../pps/index.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { Db } from '../storage/database.ts';
import { TrialService } from './trial-service.ts';
import { TrialStore } from './trial-store.ts';
import { registerTrialsApi } from './trials-api.ts';

export { TrialService } from './trial-service.ts';
export { TrialStore } from './trial-store.ts';
export type { BoltCommitPlanner, BoltCommit, PlannedTrial } from './bolt-commits.ts';

/** The trial (experiment) service: omni_v1.API over the embedded pps engine. */
export function openTrials(options: {
  db: Db;
  pfs: PfsStore;
  blobs: BlobStore;
  pps: Pps;
  methods: MethodRegistry;
  /** Commits finishing: a commit to a flow's bolt starts the trials of the cases it affects. */
  events?: CommitEvents;
}): TrialService {
  const service = new TrialService(
    options.pfs,
    options.pps,
    options.blobs,
    new TrialStore(options.db),
    5000,
    options.events,
  );
  registerTrialsApi(options.methods, service);
  return service;
}
