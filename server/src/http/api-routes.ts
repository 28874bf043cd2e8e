import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unimplemented } from '../errors.ts';
import type { Method, MethodRegistry } from '../platform/platform.ts';
import { registerApiCompression } from './compression.ts';
import { sendJson } from './errors.ts';
import { readNdjson } from './ndjson.ts';
import { asCaller } from './route-authorization.ts';
import { sendStream } from './stream-writer.ts';
import { decodeJsonRequest } from '../platform/typed-method.ts';

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

/** POST /api/<service>/<Method>: the gateway. Routes only translate wire ⇄ platform calls. */
export function registerApiRoutes(app: FastifyInstance, methods: MethodRegistry): void {
  app.register(async (scope) => {
    await registerApiCompression(scope);
    registerGatewayRoutes(scope, methods);
  });
  // File bytes go as they are: they are mostly compressed or binary already, and compressing a
  // GetFile stream took 2.5–3× as long for a quarter fewer bytes (base64 of random data).
  app.register(async (scope) => {
    for (const name of FILE_BYTE_STREAMS) {
      const [service = '', method = ''] = name.split('/');
      scope.post(`/api/${name}`, async (request, reply) =>
        callMethod(methods, request, reply, service, method, false),
      );
    }
  });
}

/** Server streams whose messages are a file's bytes: never compressed (see registerApiRoutes). */
export const FILE_BYTE_STREAMS = ['pfs_v2.API/GetFile', 'pfs_v2.API/GetFileTAR'] as const;

/** Calls one registered method with a JSON request body and writes its answer. */
async function callMethod(
  methods: MethodRegistry,
  request: FastifyRequest,
  reply: FastifyReply,
  service: string,
  method: string,
  compress = true,
): Promise<FastifyReply> {
  // The platform's role checks (sign-in on) see the caller through asCaller.
  return asCaller(request, async () => {
    const entry = lookup(methods, service, method);
    const body = decodeJsonRequest(entry, request.body ?? {});
    const signal = disconnectSignal(reply);
    switch (entry.kind) {
      case 'unary':
        return sendJson(reply, 200, await entry.handler(body, signal));
      case 'clientStream':
        return sendJson(reply, 200, await entry.handler(oneMessage(body), signal));
      case 'stream':
        return sendStream(request, reply, entry.handler(body, signal), signal, compress);
    }
  });
}

function registerGatewayRoutes(app: FastifyInstance, methods: MethodRegistry): void {
  app.post<{ Params: { service: string; method: string } }>(
    '/api/:service/:method',
    async (request, reply) =>
      callMethod(methods, request, reply, request.params.service, request.params.method),
  );

  // ModifyFile's and CreateFileSet's bodies are streams of NDJSON messages: read them
  // incrementally, never whole.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    for (const name of ['ModifyFile', 'CreateFileSet'])
      scope.post(`/api/pfs_v2.API/${name}`, async (request, reply) =>
        asCaller(request, async () => {
          const entry = lookup(methods, 'pfs_v2.API', name);
          if (entry.kind !== 'clientStream')
            throw unimplemented(`${name} is not a client stream here`);
          const body = request.body as Readable;
          const messages = (async function* () {
            for await (const message of readNdjson(body)) yield decodeJsonRequest(entry, message);
          })();
          return sendJson(reply, 200, await entry.handler(messages, disconnectSignal(reply)));
        }),
      );
  });
}

async function* oneMessage(message: unknown): AsyncIterable<unknown> {
  yield message;
}
