import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Auth } from '../auth/auth.ts';
import type { MethodRegistry } from '../platform/platform.ts';
import { registerApiProxy } from './api-proxy.ts';
import {
  clusterFileSource,
  registerClusterFilesRoute,
  type FileBytesSource,
} from './cluster-files.ts';
import { ClusterUploadLander, type UploadLander } from './cluster-upload.ts';
import { PachTokens } from './pach-tokens.ts';
import { PACHD_TOKEN_HEADER, Upstream, type UpstreamOptions } from './upstream.ts';

/**
 * The cluster's id (`admin_v2.API/InspectCluster`), which keys what the server keeps for the
 * cluster in its own SQLite (e.g. trials). Fetched at startup; when that fails (cluster down, or
 * it wants a token) it is fetched again, at most every 10 s, after forwarded calls.
 */
export class ClusterIdentity {
  private known: string | undefined;
  private pending: Promise<string> | undefined;
  private lastAttempt = 0;

  constructor(
    private readonly upstream: Upstream,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** The cluster id, once known. */
  get id(): string | undefined {
    return this.known;
  }

  /** Fetches the id (or returns the known one). Rejects when the cluster cannot tell. */
  fetch(pachToken = ''): Promise<string> {
    if (this.known) return Promise.resolve(this.known);
    if (this.pending) return this.pending;
    this.lastAttempt = Date.now();
    const headers = pachToken ? { [PACHD_TOKEN_HEADER]: pachToken } : {};
    const attempt = this.upstream
      .call('admin_v2.API/InspectCluster', {}, headers)
      .then((answer) => {
        const id = (answer as { id?: unknown } | null)?.id;
        if (typeof id !== 'string' || !id) throw new Error('InspectCluster answered without an id');
        this.known = id;
        this.log?.info({ clusterId: id }, 'connected to the Pachyderm cluster');
        return id;
      });
    this.pending = attempt;
    attempt.then(
      () => (this.pending = undefined),
      () => (this.pending = undefined),
    );
    return attempt;
  }

  /** Tries again in the background if the id is still unknown (rate-limited). */
  refreshSoon(pachToken = ''): void {
    if (this.known || this.pending || Date.now() - this.lastAttempt < 10_000) return;
    this.fetch(pachToken).catch(() => undefined);
  }
}

/** What cluster mode adds to the server; exposed on IvoryServer.cluster. */
export interface ClusterMode {
  upstream: Upstream;
  /** Id token → pach token exchange (null with auth off). */
  tokens: PachTokens | null;
  identity: ClusterIdentity;
  files: FileBytesSource;
  /** For the /upload flow: lands staged files through the cluster's API. */
  lander: UploadLander;
  close(): void;
}

export interface ClusterModeOptions extends UpstreamOptions {
  pachdAddress: string;
  auth: Auth;
  /** The local registry: serves what the cluster lacks (omni_v1.API) and knows method kinds. */
  methods: MethodRegistry;
}

/**
 * Registers the cluster-mode routes instead of the embedded /api and /files routes: /api/* is
 * forwarded to the cluster, /files/* to the cluster's file server.
 */
export function registerClusterMode(
  app: FastifyInstance,
  options: ClusterModeOptions,
): ClusterMode {
  const upstream = new Upstream(options.pachdAddress, options);
  const tokens = options.auth.enabled ? new PachTokens(upstream) : null;
  const identity = new ClusterIdentity(upstream, app.log);
  const files = clusterFileSource(upstream);
  registerApiProxy(app, {
    upstream,
    tokens,
    local: options.methods,
    onForwarded: (pachToken) => identity.refreshSoon(pachToken),
  });
  registerClusterFilesRoute(app, files, tokens);
  app.log.info(`cluster mode: forwarding /api and /files to ${upstream.address.href}`);
  identity.fetch().catch((error: unknown) => {
    app.log.warn(
      `could not read the cluster id yet (will retry): ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  return {
    upstream,
    tokens,
    identity,
    files,
    lander: new ClusterUploadLander(upstream),
    close: () => upstream.close(),
  };
}
