import type { FastifyInstance } from 'fastify';
import type { CommitEvents } from '../pfs/commit-events.ts';
import { PfsMessages } from '../pfs/pfs-messages.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import type { MethodRegistry } from '../platform.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { Db } from '../storage/database.ts';
import { LogStore } from './logs.ts';
import { Pipelines } from './pipelines.ts';
import { registerPpsApi } from './pps-api.ts';
import { PpsStore } from './pps-store.ts';
import { Runner } from './runner/runner.ts';
import { SecretStore } from './secrets.ts';
import { pipelineSpecSchema } from './spec-schema.ts';

/** The embedded pipeline engine (pps): specs, jobs, datums, logs, secrets, defaults. */
export interface Pps {
  store: PpsStore;
  runner: Runner;
  pipelines: Pipelines;
  logs: LogStore;
  secrets: SecretStore;
  /**
   * Starts running jobs (and resumes the ones a previous process left unfinished). With sign-in
   * on, pipelines only ever run in a sandbox.
   */
  start(options?: { signIn?: boolean }): void;
  close(): Promise<void>;
}

export function openPps(options: {
  db: Db;
  dataDir: string;
  pfs: PfsStore;
  blobs: BlobStore;
  events: CommitEvents;
  methods: MethodRegistry;
}): Pps {
  const store = new PpsStore(options.db);
  const logs = new LogStore(options.db);
  const secrets = new SecretStore(options.db, options.dataDir);
  const runner = new Runner({
    dataDir: options.dataDir,
    pfs: options.pfs,
    blobs: options.blobs,
    store,
    logs,
    secrets,
  });
  const pipelines = new Pipelines(options.pfs, options.blobs, store, runner, logs);
  registerPpsApi(options.methods, {
    pfs: options.pfs,
    pfsMessages: new PfsMessages(options.pfs),
    store,
    runner,
    pipelines,
    logs,
    secrets,
  });
  let started = false;
  return {
    store,
    runner,
    pipelines,
    logs,
    secrets,
    start(startOptions = {}) {
      if (started) return;
      started = true;
      runner.start((listener) => options.events.onFinished(listener), startOptions);
    },
    close: () => runner.close(),
  };
}

/** GET /api-schema/pipeline-spec.json: the JSON Schema the server validates specs with. */
export function registerPipelineSchemaRoute(app: FastifyInstance): void {
  app.get('/api-schema/pipeline-spec.json', async (_request, reply) =>
    reply
      .header('content-type', 'application/schema+json')
      .send(JSON.stringify(pipelineSpecSchema)),
  );
}
