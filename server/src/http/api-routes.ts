import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unimplemented } from '../errors.ts';
import type { Method, MethodRegistry } from '../platform/platform.ts';
import { sendJson, toApiError } from './errors.ts';
import { readNdjson } from './ndjson.ts';
import { asCaller } from './route-authorization.ts';
import { normaliseKeys } from './wire.ts';

/** Maps a URL's service and method to a registered method, or fails with UNIMPLEMENTED. */
function lookup(methods: MethodRegistry, service: string, method: string): Method {
  const entry = methods.get(`${service}/${method}`);
  if (!entry) throw unimplemented(`${method} is not implemented yet`);
  return entry;
}

/** An AbortSignal that fires when the client goes away before the response is complete. */
function disconnectSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Writes a server stream as NDJSON, one `{"result": …}` line per message, flushed as produced.
 * A failure before the first message is an ordinary error response (thrown); after it, a final
 * `{"error": …}` line.
 */
async function sendStream(
  request: FastifyRequest,
  reply: FastifyReply,
  messages: AsyncIterable<unknown>,
  signal: AbortSignal,
): Promise<void> {
  const iterator = messages[Symbol.asyncIterator]();
  let step = await iterator.next();
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  try {
    while (!step.done && !signal.aborted) {
      if (!response.write(JSON.stringify({ result: step.value }) + '\n')) await drained(response);
      step = await iterator.next();
    }
  } catch (error) {
    const apiError = toApiError(error, request.log);
    if (!response.destroyed) response.write(JSON.stringify({ error: apiError.toWire() }) + '\n');
  } finally {
    if (!step.done) await iterator.return?.();
    response.end();
  }
}

/** POST /api/<service>/<Method>: the gateway. Routes only translate wire ⇄ platform calls. */
export function registerApiRoutes(app: FastifyInstance, methods: MethodRegistry): void {
  app.post<{ Params: { service: string; method: string } }>(
    '/api/:service/:method',
    async (request, reply) =>
      // The platform's role checks (sign-in on) see the caller through asCaller.
      asCaller(request, async () => {
        const entry = lookup(methods, request.params.service, request.params.method);
        const body = normaliseKeys(request.body ?? {});
        const signal = disconnectSignal(reply);
        switch (entry.kind) {
          case 'unary':
            return sendJson(reply, 200, await entry.handler(body, signal));
          case 'clientStream':
            return sendJson(reply, 200, await entry.handler(oneMessage(body), signal));
          case 'stream':
            return sendStream(request, reply, entry.handler(body, signal), signal);
        }
      }),
  );

  // ModifyFile's body is a stream of NDJSON messages: read it incrementally, never whole.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.post('/api/pfs_v2.API/ModifyFile', async (request, reply) =>
      asCaller(request, async () => {
        const entry = lookup(methods, 'pfs_v2.API', 'ModifyFile');
        if (entry.kind !== 'clientStream')
          throw unimplemented('ModifyFile is not a client stream here');
        const body = request.body as Readable;
        const messages = (async function* () {
          for await (const message of readNdjson(body)) yield normaliseKeys(message);
        })();
        return sendJson(reply, 200, await entry.handler(messages, disconnectSignal(reply)));
      }),
    );
  });
}

/** Resolves when the response can take more bytes or has closed. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

async function* oneMessage(message: unknown): AsyncIterable<unknown> {
  yield message;
}
