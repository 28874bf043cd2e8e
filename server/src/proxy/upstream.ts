import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { ApiError, Code, type CodeNumber } from '../errors.ts';

/**
 * The HTTP client for a Pachyderm cluster's gateway (IVORY_PACHD_ADDRESS). Plain node:http so
 * that both directions stream (no buffering), with a connect timeout and an optional
 * response-headers timeout but never a total or idle-body timeout: server streams such as
 * SubscribeCommit or GetLogs{follow} may stay silent for as long as they like.
 */

/** Envoy's wording: the console reads messages containing it as "Unable to connect to API". */
export const UPSTREAM_CONNECT_ERROR = 'upstream connect error or disconnect/reset before headers';
export const UPSTREAM_RESET_AFTER_HEADERS =
  'upstream connect error or disconnect/reset after headers';

/** The cluster could not be reached (refused, reset, timed out): 503 `{code: 14, …}`. */
export class UpstreamUnavailable extends ApiError {
  constructor(cause: string) {
    super(Code.UNAVAILABLE, `${UPSTREAM_CONNECT_ERROR}: ${cause}`);
    this.name = 'UpstreamUnavailable';
  }
}

export interface UpstreamOptions {
  /** TCP (and TLS) connect timeout; default 10 s. */
  connectTimeoutMs?: number;
  /**
   * Default wait for response headers once the request body is sent, for calls that are not
   * server streams; default 60 s. 0 = wait forever.
   */
  headersTimeoutMs?: number;
}

export interface UpstreamRequest {
  method: 'GET' | 'HEAD' | 'POST';
  /** Path and query, starting with '/', appended to the address's own path. */
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: Readable | Buffer | string;
  /** Overrides the default headers timeout; 0 = wait forever (server streams). */
  headersTimeoutMs?: number;
  signal?: AbortSignal;
}

/** The header real pachd reads its token from (gRPC metadata through the gateway). */
export const PACHD_TOKEN_HEADER = 'authn-token';

const knownCodes = new Set<number>(Object.values(Code));

/** An upstream error code as one this server can answer with (the message is kept as is). */
export function upstreamApiError(
  code: unknown,
  message: string,
  details: unknown[] = [],
): ApiError {
  const number = typeof code === 'number' ? code : Number(code);
  if (knownCodes.has(number)) return new ApiError(number as CodeNumber, message, details);
  // 1 CANCELLED, 4 DEADLINE_EXCEEDED, 8 RESOURCE_EXHAUSTED, 10 ABORTED: try again later.
  if ([1, 4, 8, 10].includes(number)) return new ApiError(Code.UNAVAILABLE, message, details);
  if (number === 11) return new ApiError(Code.INVALID_ARGUMENT, message, details);
  if (number === 15) return new ApiError(Code.INTERNAL, message, details);
  // 2 UNKNOWN and anything else: a plain failure, never a sign-out code.
  return new ApiError(Code.FAILED_PRECONDITION, message, details);
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || (error as { code?: string }).code || 'error';
  return String(error);
}

export class Upstream {
  readonly address: URL;
  private readonly basePath: string;
  private readonly agent: http.Agent;
  private readonly connectTimeoutMs: number;
  private readonly headersTimeoutMs: number;

  constructor(address: string, options: UpstreamOptions = {}) {
    this.address = new URL(address);
    if (this.address.protocol !== 'http:' && this.address.protocol !== 'https:') {
      throw new Error(`the pachd address must be an http(s) URL, got ${address}`);
    }
    this.basePath = this.address.pathname.replace(/\/+$/, '');
    const secure = this.address.protocol === 'https:';
    this.agent = secure
      ? new https.Agent({ keepAlive: true, maxSockets: 256 })
      : new http.Agent({ keepAlive: true, maxSockets: 256 });
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.headersTimeoutMs = options.headersTimeoutMs ?? 60_000;
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.agent.destroy();
  }

  /**
   * Sends one request and resolves with the response once its headers arrived (any status).
   * Rejects with UpstreamUnavailable when the cluster cannot be reached or a timeout expires.
   * The caller owns the response body (read it, or destroy it).
   */
  request(options: UpstreamRequest): Promise<IncomingMessage> {
    const url = `${this.address.origin}${this.basePath}${options.path}`;
    const lib = this.address.protocol === 'https:' ? https : http;
    const headersTimeoutMs = options.headersTimeoutMs ?? this.headersTimeoutMs;
    return new Promise<IncomingMessage>((resolve, reject) => {
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      let headersTimer: NodeJS.Timeout | undefined;
      const clearTimers = () => {
        clearTimeout(connectTimer);
        clearTimeout(headersTimer);
      };
      const request = lib.request(url, {
        method: options.method,
        headers: { host: this.address.host, ...options.headers },
        agent: this.agent,
      });
      const fail = (cause: string) => {
        if (settled) return;
        settled = true;
        clearTimers();
        request.destroy();
        if (options.body instanceof Readable) options.body.unpipe(request);
        reject(new UpstreamUnavailable(cause));
      };
      const onAbort = () => fail('the request was cancelled');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.signal?.aborted) onAbort();

      request.on('socket', (socket: Socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(
          () => fail(`connect timeout after ${this.connectTimeoutMs} ms`),
          this.connectTimeoutMs,
        );
        socket.once(this.address.protocol === 'https:' ? 'secureConnect' : 'connect', () =>
          clearTimeout(connectTimer),
        );
      });
      request.on('finish', () => {
        if (settled || headersTimeoutMs <= 0) return;
        headersTimer = setTimeout(
          () => fail(`no response headers within ${headersTimeoutMs} ms`),
          headersTimeoutMs,
        );
      });
      request.on('response', (response) => {
        options.signal?.removeEventListener('abort', onAbort);
        if (settled) {
          response.destroy();
          return;
        }
        settled = true;
        clearTimers();
        // Once the caller holds the response, a cancelled request tears the response down.
        options.signal?.addEventListener('abort', () => response.destroy(), { once: true });
        resolve(response);
      });
      request.on('error', (error) => fail(describe(error)));

      const body = options.body;
      if (body instanceof Readable) {
        body.on('error', (error) => fail(`reading the request body failed: ${describe(error)}`));
        body.pipe(request);
      } else {
        request.end(body);
      }
    });
  }

  /**
   * A unary call `POST /api/<method>` with a JSON body; resolves with the parsed answer.
   * Throws UpstreamUnavailable, or an ApiError carrying the cluster's own code and message.
   */
  async call(
    method: string,
    body: unknown,
    headers: OutgoingHttpHeaders = {},
    signal?: AbortSignal,
  ): Promise<unknown> {
    const response = await this.request({
      method: 'POST',
      path: `/api/${method}`,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
    return readJsonAnswer(response, method);
  }

  /** Like call() but with a streamed request body (ModifyFile). */
  async callWithStream(
    method: string,
    body: Readable,
    headers: OutgoingHttpHeaders = {},
    signal?: AbortSignal,
  ): Promise<unknown> {
    const response = await this.request({
      method: 'POST',
      path: `/api/${method}`,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body,
      signal,
    });
    return readJsonAnswer(response, method);
  }
}

/** Reads a whole (small) response body; a reset mid-body counts as UpstreamUnavailable. */
export async function readText(
  response: IncomingMessage,
  limit = 64 * 1024 * 1024,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        response.destroy();
        throw new ApiError(Code.INTERNAL, `the cluster's answer is larger than ${limit} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new UpstreamUnavailable(describe(error));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The error a non-200 upstream answer stands for (JSON `{code, message}` or plain text). */
export function errorFromAnswer(status: number, text: string): ApiError {
  try {
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown; details?: unknown };
    if (parsed && typeof parsed === 'object' && typeof parsed.message === 'string') {
      const details = Array.isArray(parsed.details) ? parsed.details : [];
      return upstreamApiError(parsed.code, parsed.message, details);
    }
  } catch {
    // not JSON: a load balancer or ingress answered
  }
  const trimmed = text.trim().slice(0, 1000);
  if (status === 502 || status === 503 || status === 504) {
    if (/no healthy upstream|upstream connect error/.test(trimmed)) {
      return new ApiError(Code.UNAVAILABLE, trimmed);
    }
    return new UpstreamUnavailable(`the cluster answered ${status} ${trimmed}`.trim());
  }
  return upstreamApiError(2, `the cluster answered ${status} ${trimmed}`.trim());
}

async function readJsonAnswer(response: IncomingMessage, method: string): Promise<unknown> {
  const text = await readText(response);
  const status = response.statusCode ?? 502;
  if (status !== 200) throw errorFromAnswer(status, text);
  try {
    return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    throw new ApiError(Code.INTERNAL, `the cluster's answer to ${method} is not JSON`);
  }
}
