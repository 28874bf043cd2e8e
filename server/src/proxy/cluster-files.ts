import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Code } from '../errors.ts';
import { disconnectSignal, pachTokenFor } from './api-proxy.ts';
import type { PachTokens } from './pach-tokens.ts';
import { PACHD_TOKEN_HEADER, type Upstream } from './upstream.ts';

/** One file (or folder) of a commit, as the console names it in /files URLs. */
export interface FileRef {
  project: string;
  repo: string;
  /** A commit id or a branch name. */
  commit: string;
  path: string;
}

export interface FileBytesRequest {
  method: 'GET' | 'HEAD';
  /** The client's Range header, passed on as is. */
  range?: string;
  ifNoneMatch?: string;
  ifRange?: string;
  /** The cluster token ('' with auth off). */
  pachToken?: string;
  signal?: AbortSignal;
}

/**
 * Where file bytes come from in cluster mode: the cluster's own file server
 * `/pfs/<project>/<repo>/<commit>/<path>`. The answer is the raw upstream response (status,
 * headers, unread body); the caller streams it.
 */
export interface FileBytesSource {
  open(file: FileRef, request: FileBytesRequest): Promise<IncomingMessage>;
}

/** Response headers passed from the cluster's file server to the browser. */
const passedHeaders = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'etag',
  'last-modified',
  'content-disposition',
] as const;

/** On every /files answer (errors too): same policy as the embedded files route. */
export const clusterFilesSecurityHeaders = {
  'content-security-policy': 'sandbox',
  'x-content-type-options': 'nosniff',
} as const;

const encodePath = (filePath: string) =>
  filePath
    .split('/')
    .filter((segment) => segment !== '')
    .map(encodeURIComponent)
    .join('/');

export function clusterFileSource(upstream: Upstream): FileBytesSource {
  return {
    open(file, request) {
      const headers: OutgoingHttpHeaders = {};
      if (request.range) headers.range = request.range;
      if (request.ifNoneMatch) headers['if-none-match'] = request.ifNoneMatch;
      if (request.ifRange) headers['if-range'] = request.ifRange;
      if (request.pachToken) headers[PACHD_TOKEN_HEADER] = request.pachToken;
      const target =
        `/pfs/${encodeURIComponent(file.project)}/${encodeURIComponent(file.repo)}/` +
        `${encodeURIComponent(file.commit)}/${encodePath(file.path)}`;
      return upstream.request({
        method: request.method,
        path: target,
        headers,
        headersTimeoutMs: 0,
        signal: request.signal,
      });
    },
  };
}

const headerText = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(', ') : value;

const attachment = (name: string) =>
  `attachment; filename="${name.replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply
    .code(error.httpStatus)
    .headers(clusterFilesSecurityHeaders)
    .header('content-type', 'application/json')
    .send(Buffer.from(JSON.stringify(error.toWire())));
}

/**
 * GET/HEAD /files/:project/:repo/:commit/* in cluster mode: forwarded to the cluster's file
 * server with Range (and conditional headers), the body streamed back. `?download=1` adds an
 * attachment disposition. The selection archive (`/files/:project/:repo/:commit?archive=tar`)
 * is not available against a cluster yet: 501 code 12.
 */
export function registerClusterFilesRoute(
  app: FastifyInstance,
  source: FileBytesSource,
  tokens: PachTokens | null,
): void {
  app.get('/files/:project/:repo/:commit', async (_request, reply) =>
    sendError(
      reply,
      new ApiError(Code.UNIMPLEMENTED, 'archive downloads are not available in cluster mode yet'),
    ),
  );

  const handler = async (
    request: FastifyRequest<{
      Params: { project: string; repo: string; commit: string; '*': string };
      Querystring: { download?: string };
    }>,
    reply: FastifyReply,
  ) => {
    const { project, repo, commit } = request.params;
    const filePath = request.params['*'];
    let response: IncomingMessage;
    try {
      response = await source.open(
        { project, repo, commit, path: filePath },
        {
          method: request.method === 'HEAD' ? 'HEAD' : 'GET',
          range: request.headers.range,
          ifNoneMatch: request.headers['if-none-match'],
          ifRange: headerText(request.headers['if-range']),
          pachToken: await pachTokenFor(request, tokens),
          signal: disconnectSignal(reply),
        },
      );
    } catch (error) {
      if (error instanceof ApiError) return sendError(reply, error);
      throw error;
    }

    const headers: OutgoingHttpHeaders = { ...clusterFilesSecurityHeaders };
    for (const name of passedHeaders) {
      const value = response.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    if (/^application\/json\b/i.test(String(headers['content-type'] ?? ''))) {
      headers['content-type'] = 'application/json';
    }
    const status = response.statusCode ?? 502;
    if (request.query.download === '1' && status < 300 && filePath) {
      headers['content-disposition'] = attachment(path.posix.basename(filePath));
    }
    reply.hijack();
    const out = reply.raw;
    out.writeHead(status, headers);
    if (request.method === 'HEAD') {
      response.destroy();
      out.end();
      return;
    }
    response.on('error', () => out.destroy());
    response.on('close', () => {
      if (!response.complete) out.destroy();
    });
    out.on('close', () => {
      if (!out.writableFinished) response.destroy();
    });
    response.pipe(out);
  };

  app.route({
    method: ['GET', 'HEAD'],
    url: '/files/:project/:repo/:commit/*',
    exposeHeadRoute: false,
    handler,
  });
}
