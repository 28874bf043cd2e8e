import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_TOKEN_COOKIE, cookieValue, requestToken } from '../auth/guard.ts';
import { ApiError, Code, invalidArgument, unimplemented } from '../errors.ts';
import { sendJson, toApiError } from '../http/errors.ts';
import { decodeJsonRequest } from '../platform/typed-method.ts';
import type { Method, MethodRegistry } from '../platform/platform.ts';
import type { PachTokens } from './pach-tokens.ts';
import {
  errorFromAnswer,
  PACHD_TOKEN_HEADER,
  readText,
  UPSTREAM_RESET_AFTER_HEADERS,
  type Upstream,
} from './upstream.ts';

/** Services the cluster does not have: served by the server's own registry (SQLite). */
export const LOCAL_SERVICES = new Set(['omni_v1.API']);

export interface ApiProxyOptions {
  upstream: Upstream;
  /** Set when authentication is on: id tokens are exchanged for pach tokens. */
  tokens: PachTokens | null;
  /** The local registry: serves LOCAL_SERVICES, and tells which methods are server streams. */
  local: MethodRegistry;
  /** Called with the pach token (or '') after each forwarded call, e.g. to learn the cluster id. */
  onForwarded?: (pachToken: string) => void;
}

/** The `authn-token` value for a request that went through the guard ('' with auth off). */
export async function pachTokenFor(
  request: FastifyRequest,
  tokens: PachTokens | null,
): Promise<string> {
  if (!tokens || !request.authClaims) return '';
  // The guard also accepts the auth-token cookie (GET/HEAD /files, e.g. an <img> or a download):
  // that is the token it verified when the request has no header token.
  const idToken = requestToken(request) || cookieValue(request, AUTH_TOKEN_COOKIE);
  return tokens.tokenFor(idToken, request.authClaims.exp);
}

/** An AbortSignal that fires when the client goes away before the response is complete. */
export function disconnectSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\b/i.test(contentType ?? '');
}

/**
 * POST /api/<service>/<Method> in cluster mode: forwarded to the cluster as it comes, request
 * body piped (ModifyFile streams) and the answer piped back as it is produced (NDJSON streams
 * line by line). Routes registered on their own (WhoAmI, Authorize with auth on) win over this
 * parametric route.
 */
export function registerApiProxy(app: FastifyInstance, options: ApiProxyOptions): void {
  const { upstream, tokens, local } = options;
  app.register(async (scope) => {
    // Never parse the body: it is forwarded untouched, as a stream.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    scope.post<{ Params: { service: string; method: string } }>(
      '/api/:service/:method',
      async (request, reply) => {
        const { service, method } = request.params;
        const name = `${service}/${method}`;
        if (LOCAL_SERVICES.has(service))
          return serveLocally(request, reply, method, local.get(name));

        const signal = disconnectSignal(reply);
        const pachToken = await pachTokenFor(request, tokens);
        const headers: OutgoingHttpHeaders = {
          'content-type': request.headers['content-type'] || 'application/json',
          accept: 'application/json',
        };
        if (pachToken) headers[PACHD_TOKEN_HEADER] = pachToken;
        const serverStream = local.get(name)?.kind === 'stream' || !local.has(name);
        const response = await upstream.request({
          method: 'POST',
          path: `/api/${encodeURIComponent(service)}/${encodeURIComponent(method)}`,
          headers,
          body: request.raw,
          headersTimeoutMs: serverStream ? 0 : undefined,
          signal,
        });
        options.onForwarded?.(pachToken);
        return relay(reply, response);
      },
    );
  });
}

/** Pipes an upstream /api answer to the client, chunk by chunk. */
async function relay(reply: FastifyReply, response: IncomingMessage): Promise<void> {
  const status = response.statusCode ?? 502;
  const contentType = response.headers['content-type'];
  if (status >= 400 && !isJson(contentType)) {
    // A proxy or load balancer in front of pachd answered: make it the usual error JSON.
    const error = errorFromAnswer(status, await readText(response, 64 * 1024).catch(() => ''));
    sendJson(reply, error.httpStatus, error.toWire());
    return;
  }

  reply.hijack();
  const out = reply.raw;
  const headers: OutgoingHttpHeaders = {
    // Exactly this: generated clients compare the string.
    'content-type': isJson(contentType) ? 'application/json' : (contentType ?? 'application/json'),
    'cache-control': 'no-store',
  };
  const authenticate = response.headers['www-authenticate'];
  if (authenticate) headers['www-authenticate'] = authenticate;
  out.writeHead(status, headers);
  await pipeResponse(response, out, status === 200 && isJson(contentType));
}

/**
 * Copies the upstream body to the client as it arrives (backpressure both ways). If the cluster
 * goes away mid-stream and the last line was complete, an NDJSON error line says so; otherwise
 * the client's connection is cut, as a half line cannot be repaired.
 */
function pipeResponse(
  response: IncomingMessage,
  out: ServerResponse,
  ndjson: boolean,
): Promise<void> {
  return new Promise((resolve) => {
    let lastByte = 10;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve();
    };
    response.on('data', (chunk: Buffer) => {
      if (chunk.length > 0) lastByte = chunk[chunk.length - 1] ?? lastByte;
      if (!out.write(chunk)) {
        response.pause();
        out.once('drain', () => response.resume());
      }
    });
    response.on('end', () => {
      out.end();
      finish();
    });
    response.on('error', () => undefined);
    response.on('close', () => {
      if (done) return;
      if (!response.complete && !out.destroyed) {
        if (ndjson && lastByte === 10) {
          const error = {
            code: Code.UNAVAILABLE,
            message: `${UPSTREAM_RESET_AFTER_HEADERS}: the cluster closed the stream`,
            details: [],
          };
          out.end(JSON.stringify({ error }) + '\n');
        } else {
          out.destroy();
        }
      }
      finish();
    });
    out.on('close', () => {
      if (!out.writableFinished) response.destroy();
      finish();
    });
  });
}

/** Reads a whole JSON request body from the raw stream (local services only; small bodies). */
async function readJsonBody(raw: Readable, limit = 32 * 1024 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw) {
    size += (chunk as Buffer).length;
    if (size > limit) throw invalidArgument(`the request body is larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidArgument(`invalid JSON: ${(error as Error).message}`);
  }
}

/** Serves a method of a local-only service from the server's own registry. */
async function serveLocally(
  request: FastifyRequest,
  reply: FastifyReply,
  method: string,
  entry: Method | undefined,
): Promise<void> {
  const json = await readJsonBody(request.raw);
  if (!entry) throw unimplemented(`${method} is not implemented yet`);
  const body = decodeJsonRequest(entry, json);
  const signal = disconnectSignal(reply);
  if (entry.kind === 'unary') {
    sendJson(reply, 200, await entry.handler(body, signal));
    return;
  }
  if (entry.kind === 'clientStream') {
    sendJson(reply, 200, await entry.handler(oneMessage(body), signal));
    return;
  }
  const iterator = entry.handler(body, signal)[Symbol.asyncIterator]();
  let step = await iterator.next();
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  try {
    while (!step.done && !signal.aborted) {
      out.write(JSON.stringify({ result: step.value }) + '\n');
      step = await iterator.next();
    }
  } catch (error) {
    const apiError = error instanceof ApiError ? error : toApiError(error, request.log);
    if (!out.destroyed) out.write(JSON.stringify({ error: apiError.toWire() }) + '\n');
  } finally {
    if (!step.done) await iterator.return?.();
    out.end();
  }
}

async function* oneMessage(message: unknown): AsyncIterable<unknown> {
  yield message;
}
