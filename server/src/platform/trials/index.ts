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

/** The trial (experiment) service: omni_v1.API over the embedded pps engine. */
export function openTrials(options: {
  db: Db;
  pfs: PfsStore;
  blobs: BlobStore;
  pps: Pps;
  methods: MethodRegistry;
}): TrialService {
  const service = new TrialService(
    options.pfs,
    options.pps,
    options.blobs,
    new TrialStore(options.db),
  );
  registerTrialsApi(options.methods, service);
  return service;
}
