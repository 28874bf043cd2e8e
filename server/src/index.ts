import Fastify, { LogController, type FastifyInstance } from 'fastify';
import {
  createAuth,
  registerAuthGuard,
  registerAuthRoutes,
  registerAuthorizeRoute,
  registerWhoAmIRoute,
} from './auth/index.ts';
import type { ServerConfig } from './config.ts';
import { edaBoltPlanner } from './eda/bolt-cases.ts';
import { registerEdaToolsApi } from './eda/tools.ts';
import { ApiError, invalidArgument } from './errors.ts';
import { callerResolver } from './grpc/grpc-auth.ts';
import { startGrpcServer, type GrpcListener } from './grpc/grpc-server.ts';
import { registerAdmissionControl } from './http/admission.ts';
import { registerApiRoutes } from './http/api-routes.ts';
import { registerErrorHandler } from './http/errors.ts';
import { registerFilesRoute } from './http/files-route.ts';
import { registerHealthRoute } from './http/health.ts';
import { checkJsonDepth, registerRequestLimits } from './http/request-limits.ts';
import { registerRouteAuthorization, uploadChunkCheck } from './http/route-authorization.ts';
import { registerJsonSchemaRoute } from './http/jsonschema-route.ts';
import { loggerOptions, registerRequestLog } from './http/request-log.ts';
import { registerRuntimeConfigRoute } from './http/runtime-config.ts';
import { appPolicyFor, registerSecurityHeaders } from './http/security-headers.ts';
import { registerStaticRoutes } from './http/static-routes.ts';
import { registerUnusedConnectionsClose } from './http/unused-connections.ts';
import { openEmbeddedPlatform, type EmbeddedPlatform } from './platform/embedded-platform.ts';
import { registerPipelineSchemaRoute } from './platform/pps/index.ts';
import { pachTokenFor } from './proxy/api-proxy.ts';
import { registerClusterMode, type ClusterMode } from './proxy/cluster-mode.ts';
import { registerAuthenticateRoute, rewritePfsUrl } from './proxy/embedded-pachd.ts';
import { seedDemo } from './seed/demo.ts';
import { seedEda } from './seed/eda.ts';
import { FaultInjector } from './upload/fault-injection.ts';
import { registerUploadRoutes } from './upload/upload-routes.ts';
import { UploadSessions } from './upload/upload-sessions.ts';

export type { ServerConfig } from './config.ts';
export { configFromEnv } from './config.ts';

export interface IvoryServer {
  app: FastifyInstance;
  platform: EmbeddedPlatform;
  /** Set in cluster mode (IVORY_PACHD_ADDRESS): the upstream, token cache, cluster id, lander. */
  cluster: ClusterMode | null;
  /** The gRPC listener (IVORY_GRPC_PORT), null when off. */
  grpc: GrpcListener | null;
  close(): Promise<void>;
}

/** JSON request bodies (ModifyFile streams instead): room for a 20 MiB message in base64. */
const jsonBodyLimit = 32 * 1024 * 1024;
const uploadCleanupIntervalMs = 10 * 60 * 1000;

/** Starts gRPC; the default port already taken leaves it off with a warning. */
async function startGrpc(
  settings: { port: number; optional: boolean },
  options: Omit<Parameters<typeof startGrpcServer>[0], 'port'>,
): Promise<GrpcListener | null> {
  try {
    const listener = await startGrpcServer({ ...options, port: settings.port });
    options.log.info({ port: listener.port }, 'gRPC listening');
    return listener;
  } catch (error) {
    if (!settings.optional) throw error;
    options.log.warn(
      { err: error, port: settings.port },
      'gRPC is off: its default port is taken (set IVORY_GRPC_PORT)',
    );
    return null;
  }
}

/** Builds the whole server (platform + HTTP routes); main.ts and tests share it. */
export async function buildServer(config: ServerConfig): Promise<IvoryServer> {
  const signInOn = Boolean(config.auth.issuer);
  const platform = await openEmbeddedPlatform({
    dataDir: config.dataDir,
    releaseVersion: config.releaseVersion,
    egressRoots: config.egressRoots,
    // Roles apply to the embedded platform with sign-in on; a cluster checks its own.
    authorization: signInOn && !config.pachdAddress ? { admins: config.admins ?? [] } : null,
  });
  const app = Fastify({
    logger: loggerOptions(config.logLevel, config.logFormat),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: jsonBodyLimit,
    // /pfs/<project>/<repo>/<commit>/<path> (Pachyderm's file server path) = /files/...
    rewriteUrl: rewritePfsUrl,
  });

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      checkJsonDepth(text);
      done(null, JSON.parse(text));
    } catch (error) {
      if (error instanceof ApiError) return done(error);
      done(invalidArgument(`invalid JSON: ${(error as Error).message}`));
    }
  });

  // A read that meets a damaged blob ends with an error; the damage is logged here (and Fsck
  // reports it).
  platform.blobs.onCorrupt = (hash, detail) =>
    app.log.error({ blob: hash, detail }, 'a stored blob is damaged: its read was refused');
  registerErrorHandler(app);
  // Reads start a few at a time (before their tokens are checked): writes never queue behind them.
  registerAdmissionControl(app);
  registerUnusedConnectionsClose(app);
  registerRequestLimits(app);
  registerSecurityHeaders(app, appPolicyFor(config.webDist, config.browserSettings));
  registerRequestLog(app);
  const auth = await createAuth(config.auth, { logger: app.log });
  // The guard goes on the root instance before the routes it protects (/api, /upload, /files).
  const authorizer = platform.authorizer;
  registerAuthGuard(app, auth, {
    robotToken: authorizer ? (token) => authorizer.bindings.tokenSubject(token) : undefined,
  });
  registerAuthRoutes(app, auth);
  if (authorizer) registerRouteAuthorization(app, authorizer);
  else if (auth.enabled) {
    // Cluster mode: the cluster decides; these answer for the console locally.
    registerWhoAmIRoute(app, auth);
    registerAuthorizeRoute(app, auth);
  }
  registerHealthRoute(app);
  registerEdaToolsApi(platform.methods, config.edaToolsPath);
  // Which cases a commit to the EDA flow's bolt affects, and the case a new design gets.
  platform.trials.planner = edaBoltPlanner;
  // With roles on, the gateway and gRPC dispatch to the checked registry (one table, every method).
  const served = authorizer ? authorizer.wrap(platform.methods) : platform.methods;
  const grpc =
    config.grpc && !config.pachdAddress
      ? await startGrpc(config.grpc, {
          host: config.host,
          methods: served,
          callerOf: callerResolver(
            auth,
            (token) => authorizer?.bindings.tokenSubject(token) ?? null,
          ),
          log: app.log,
        })
      : null;
  registerRuntimeConfigRoute(
    app,
    grpc
      ? {
          ...config,
          browserSettings: { ...config.browserSettings, REACT_APP_GRPC_PORT: String(grpc.port) },
        }
      : config,
  );
  // Cluster mode forwards /api and /files to the cluster; the embedded platform keeps only
  // what the cluster lacks (omni_v1.API, upload staging).
  const cluster = config.pachdAddress
    ? registerClusterMode(app, {
        pachdAddress: config.pachdAddress,
        auth,
        methods: platform.methods,
      })
    : null;
  if (!cluster) {
    registerAuthenticateRoute(app, auth);
    registerApiRoutes(app, served);
  }
  registerPipelineSchemaRoute(app);
  registerJsonSchemaRoute(app);
  if (!cluster) registerFilesRoute(app, platform.pfs, platform.blobs);

  const faults = new FaultInjector(config.faultKillAt);
  const uploads = new UploadSessions(
    platform.db,
    platform.pfs,
    platform.blobs,
    config.dataDir,
    faults,
    cluster?.lander ?? null,
  );
  await uploads.init();
  platform.reclaimer.addReferences(() => uploads.movedHashes());
  // Recovery: bytes a killed request left behind (stored, but named by nothing) go at start.
  platform.reclaimer.schedule();
  await uploads.removeAbandoned(config.uploadTtlMs);
  await registerUploadRoutes(
    app,
    uploads,
    platform.blobs,
    faults,
    (request) => pachTokenFor(request, cluster?.tokens ?? null),
    uploadChunkCheck(authorizer),
    // The trials a commit to a flow's bolt started (embedded platform), for the modal to name.
    async (landed) => {
      if (cluster) return {};
      const trials = await Promise.race([
        platform.trials.trialsOfBoltCommit(landed.project, landed.repo, landed.commitId),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000).unref()),
      ]);
      return trials
        ? {
            trials: trials.map((trial) => ({
              id: trial.id,
              project: { name: trial.project },
              flow: trial.flow,
              case: trial.case_name,
            })),
          }
        : {};
    },
  );
  await registerStaticRoutes(app, config.webDist);

  const fresh =
    !cluster && config.seed && (await seedDemo(platform.pfs, platform.blobs, platform.pps));
  if (fresh) app.log.info('seeded the demo project');
  // Pipelines start after seeding: the demo's jobs (and any interrupted ones) run from here.
  if (!cluster) platform.pps.start({ signIn: signInOn });
  // The EDA demo's trials need the running runner (it creates their jobs); they run in it.
  if (fresh && config.seedEda) {
    const { pfs, blobs, pps, trials } = platform;
    if (await seedEda(pfs, blobs, pps, trials, { toolsPath: config.edaToolsPath }))
      app.log.info('seeded the EDA demo project');
  }

  const cleanup = setInterval(
    () => {
      uploads
        .removeAbandoned(config.uploadTtlMs)
        .catch((error: unknown) => app.log.error({ err: error }, 'upload cleanup failed'));
    },
    Math.min(uploadCleanupIntervalMs, Math.max(1000, config.uploadTtlMs)),
  );
  cleanup.unref();

  await app.ready();
  return {
    app,
    platform,
    cluster,
    grpc,
    async close() {
      clearInterval(cleanup);
      await Promise.all([app.close(), grpc?.close()]);
      cluster?.close();
      await platform.close();
    },
  };
}
