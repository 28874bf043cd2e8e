import { mkdir } from 'node:fs/promises';
import { registerAdminApi } from './admin-api.ts';
import { registerAuthOffApi } from './auth-api.ts';
import { openAuthorization } from './auth/index.ts';
import type { Authorizer } from './auth/authorizer.ts';
import { pipelineLookup } from './auth/pipeline-references.ts';
import { Cluster } from './cluster.ts';
import { registerMetadataApi } from './metadata-api.ts';
import { registerPfsActivateAuth } from './pfs/activate-auth.ts';
import { CommitEvents } from './pfs/commit-events.ts';
import { registerEgressApi } from './pfs/egress.ts';
import { registerFileSetApi } from './pfs/file-sets.ts';
import { registerFsckApi } from './pfs/fsck.ts';
import { registerPfsApi } from './pfs/pfs-api.ts';
import { PfsMessages } from './pfs/pfs-messages.ts';
import { PfsStore } from './pfs/pfs-store.ts';
import { registerProvenanceWalkApi } from './pfs/provenance-walk.ts';
import { registerRepoAdminApi } from './pfs/repo-admin.ts';
import { registerRepoHeadsApi } from './pfs/repo-heads.ts';
import { registerSquashDropApi } from './pfs/squash-drop.ts';
import type { MethodRegistry } from './platform.ts';
import { deleteAllPipelines, pipelineBranchEdges, registerPpsAdminApi } from './pps/admin-api.ts';
import { openPps, type Pps } from './pps/index.ts';
import { registerLoadTestApi } from './pps/load-test.ts';
import { registerRenderTemplateApi } from './pps/render-template.ts';
import { BlobReclaimer } from './storage/blob-reclaim.ts';
import { BlobStore } from './storage/blob-store.ts';
import { openDatabase, type Db } from './storage/database.ts';
import { openTrials, type TrialService } from './trials/index.ts';
import { registerVersionApi } from './version-api.ts';

/** The platform that runs inside the server: SQLite + blob store + method registry. */
export interface EmbeddedPlatform {
  db: Db;
  blobs: BlobStore;
  pfs: PfsStore;
  events: CommitEvents;
  cluster: Cluster;
  methods: MethodRegistry;
  /** The pipeline engine; its runner starts with `pps.start()` (after seeding). */
  pps: Pps;
  /** The trial (experiment) service, omni_v1.API. */
  trials: TrialService;
  /**
   * Deletes blobs nothing references (after deleting calls, periodically). The server adds the
   * upload references, then schedules the first sweep (recovery after a crash).
   */
  reclaimer: BlobReclaimer;
  /** Role checks (sign-in on); null when the platform is single-user. */
  authorizer: Authorizer | null;
  /** Stops running jobs (they resume on the next start) and closes the database. */
  close(): Promise<void>;
}

export async function openEmbeddedPlatform(options: {
  dataDir: string;
  releaseVersion: string;
  /** Folders Egress may write into (IVORY_EGRESS_ROOTS); none by default. */
  egressRoots?: readonly string[];
  /** Sign-in is on: roles are checked and auth_v2 answers. `admins` are IVORY_ADMINS. */
  authorization?: { admins: readonly string[] } | null;
}): Promise<EmbeddedPlatform> {
  await mkdir(options.dataDir, { recursive: true });
  const blobs = new BlobStore(options.dataDir);
  await blobs.init();
  const db = openDatabase(options.dataDir);
  const events = new CommitEvents();
  const pfs = new PfsStore(db, events);
  const cluster = new Cluster(db);
  const methods: MethodRegistry = new Map();
  const reclaimer = new BlobReclaimer(db, blobs);
  registerPfsApi(methods, pfs, blobs, events);
  registerVersionApi(methods, options.releaseVersion);
  registerAdminApi(methods, cluster);
  registerMetadataApi(methods, pfs, cluster);
  const authorizer = options.authorization
    ? openAuthorization(db, methods, options.authorization.admins, pfs)
    : null;
  if (!authorizer) registerAuthOffApi(methods);
  const pps = openPps({ db, dataDir: options.dataDir, pfs, blobs, events, methods });
  // A pipeline runs as its creator's permissions: its jobs check them again when they start.
  if (authorizer) {
    pps.runner.authority = (check) => authorizer.pipelineDenied(check);
    // What a pipeline refers to (its defaults merged in) is checked when it is created.
    authorizer.pipelines.lookup = pipelineLookup(pps);
  }
  // The rest of the pfs and pps surface (after pps: DeleteAll and branch provenance need it).
  const pfsMessages = new PfsMessages(pfs);
  const { deleteAll } = registerRepoAdminApi(methods, {
    store: pfs,
    blobs,
    db,
    messages: pfsMessages,
    deleteAllPipelines: () => deleteAllPipelines(pps),
  });
  registerRepoHeadsApi(methods, { store: pfs, messages: pfsMessages });
  registerPfsActivateAuth(methods);
  registerProvenanceWalkApi(methods, {
    store: pfs,
    messages: pfsMessages,
    derivedBranchEdges: pipelineBranchEdges(pps),
  });
  registerFsckApi(methods, { db, blobs, reclaimer });
  registerFileSetApi(methods, { store: pfs, blobs, db });
  registerEgressApi(methods, { store: pfs, blobs, egress: { roots: options.egressRoots ?? [] } });
  registerSquashDropApi(methods, { store: pfs, db, events });
  registerPpsAdminApi(methods, { pfs, pps, deleteAll });
  registerRenderTemplateApi(methods);
  registerLoadTestApi(methods, { pfs, blobs, db, pps });
  const trials = openTrials({ db, pfs, blobs, pps, methods, events });
  reclaimer.watch(methods);
  return {
    db,
    blobs,
    pfs,
    events,
    cluster,
    methods,
    pps,
    trials,
    reclaimer,
    authorizer,
    async close() {
      reclaimer.close();
      await trials.close();
      await pps.close();
      db.close();
    },
  };
}
