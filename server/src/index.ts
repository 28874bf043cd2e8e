import Fastify, { type FastifyInstance } from 'fastify';
import {
  createAuth,
  registerAuthGuard,
  registerAuthRoutes,
  registerAuthorizeRoute,
  registerWhoAmIRoute,
} from './auth/index.ts';
import type { ServerConfig } from './config.ts';
import { invalidArgument } from './errors.ts';
import { registerApiRoutes } from './http/api-routes.ts';
import { registerErrorHandler } from './http/errors.ts';
import { registerFilesRoute } from './http/files-route.ts';
import { registerHealthRoute } from './http/health.ts';
import { registerRuntimeConfigRoute } from './http/runtime-config.ts';
import { registerStaticRoutes } from './http/static-routes.ts';
import { openEmbeddedPlatform, type EmbeddedPlatform } from './platform/embedded-platform.ts';
import { registerPipelineSchemaRoute } from './platform/pps/index.ts';
import { pachTokenFor } from './proxy/api-proxy.ts';
import { registerClusterMode, type ClusterMode } from './proxy/cluster-mode.ts';
import { registerAuthenticateRoute, rewritePfsUrl } from './proxy/embedded-pachd.ts';
import { seedDemo } from './seed/demo.ts';
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
  close(): Promise<void>;
}

/** JSON request bodies (ModifyFile streams instead): room for a 20 MiB message in base64. */
const jsonBodyLimit = 32 * 1024 * 1024;
const uploadCleanupIntervalMs = 10 * 60 * 1000;

/** Builds the whole server (platform + HTTP routes); main.ts and tests share it. */
export async function buildServer(config: ServerConfig): Promise<IvoryServer> {
  const platform = await openEmbeddedPlatform({
    dataDir: config.dataDir,
    releaseVersion: config.releaseVersion,
  });
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: jsonBodyLimit,
    // /pfs/<project>/<repo>/<commit>/<path> (Pachyderm's file server path) = /files/...
    rewriteUrl: rewritePfsUrl,
  });

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(invalidArgument(`invalid JSON: ${(error as Error).message}`));
    }
  });

  registerErrorHandler(app);
  const auth = await createAuth(config.auth, { logger: app.log });
  // The guard goes on the root instance before the routes it protects (/api, /upload, /files).
  registerAuthGuard(app, auth);
  registerAuthRoutes(app, auth);
  if (auth.enabled) {
    registerWhoAmIRoute(app, auth);
    registerAuthorizeRoute(app, auth);
  }
  registerHealthRoute(app);
  registerRuntimeConfigRoute(app, config);
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
    registerApiRoutes(app, platform.methods);
  }
  registerPipelineSchemaRoute(app);
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
  await uploads.removeAbandoned(config.uploadTtlMs);
  await registerUploadRoutes(app, uploads, platform.blobs, faults, (request) =>
    pachTokenFor(request, cluster?.tokens ?? null),
  );
  await registerStaticRoutes(app, config.webDist);

  if (!cluster && config.seed && (await seedDemo(platform.pfs, platform.blobs, platform.pps)))
    app.log.info('seeded the demo project');
  // Pipelines start after seeding: the demo's jobs (and any interrupted ones) run from here.
  if (!cluster) platform.pps.start({ signIn: Boolean(config.auth.issuer) });

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
    async close() {
      clearInterval(cleanup);
      await app.close();
      cluster?.close();
      await platform.close();
    },
  };
}
