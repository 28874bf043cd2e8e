import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unimplemented } from '../errors.ts';
import { slicer } from '../platform/event-loop.ts';
import { readRuns, type MessageRun } from '../platform/message-runs.ts';
import type { Method, MethodRegistry } from '../platform/platform.ts';
import { registerApiCompression } from './compression.ts';
import { sendJson, toApiError } from './errors.ts';
import { readNdjson } from './ndjson.ts';
import { asCaller } from './route-authorization.ts';
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

/**
 * Lines a stream has ready at once go out as one write of up to this many bytes: through a
 * compressor, every write is a flush, and a flush per line made a compressed listing 5× slower.
 */
const STREAM_BATCH_BYTES = 64 * 1024;

/**
 * Whether a promise settles before the event loop's next turn (a message that is ready now).
 * One setImmediate marks the turn for every message asked meanwhile (one per message cost a
 * second per 50,000 lines); a new one is set once it has fired.
 */
function readiness(): (promise: Promise<unknown>) => Promise<boolean> {
  let nextTurn: Promise<boolean> | null = null;
  return (promise) => {
    nextTurn ??= new Promise<boolean>((resolve) =>
      setImmediate(() => {
        nextTurn = null;
        resolve(false);
      }),
    );
    return Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      nextTurn,
    ]);
  };
}

/**
 * Writes a server stream as NDJSON, one `{"result": …}` line per message (through the scope's
 * compression when the client accepts it). Messages that are ready together are written
 * together; a message the stream had to wait for is written at once, so a client still sees
 * each line as it is produced. A failure before the first message is an ordinary error response
 * (thrown); after it, a final `{"error": …}` line. A client that goes away ends the stream, and
 * with it the handler's iterator.
 */
async function sendStream(
  request: FastifyRequest,
  reply: FastifyReply,
  messages: AsyncIterable<unknown>,
  signal: AbortSignal,
): Promise<FastifyReply> {
  // A stream of message runs (message-runs.ts) is read a run at a time, each run's lines made
  // by the run itself; any other stream a message at a time.
  const runs = readRuns(messages);
  const encode = runs ? encodeRun : encodeMessage;
  const iterator = (runs ?? messages)[Symbol.asyncIterator]();
  // The stream pulls later messages from outside this request's async context: each pull runs
  // in the context the handler started in (the caller's identity, for role checks).
  const inRequestContext = AsyncLocalStorage.snapshot();
  const next = () => inRequestContext(() => iterator.next());
  const first = await next();
  async function* lines(): AsyncGenerator<string> {
    let step = first;
    let batch = '';
    const pause = slicer();
    const settlesNow = readiness();
    try {
      while (!step.done && !signal.aborted) {
        for (const piece of encode(step.value)) {
          batch += piece;
          if (batch.length >= STREAM_BATCH_BYTES) {
            yield batch;
            batch = '';
          }
        }
        const pending = next();
        if (batch !== '' && !(await settlesNow(pending))) {
          yield batch;
          batch = '';
        }
        await pause();
        step = await pending;
      }
    } catch (error) {
      batch += JSON.stringify({ error: toApiError(error, request.log).toWire() }) + '\n';
    } finally {
      if (!step.done) await iterator.return?.();
    }
    if (batch !== '') yield batch;
  }
  return reply
    .code(200)
    .header('content-type', 'application/json')
    .header('cache-control', 'no-store')
    .send(Readable.from(lines(), { objectMode: false }));
}

/** A message as JSON: bytes (GetFile's BytesValue chunks) as base64, as protobuf JSON has them. */
function jsonResult(value: unknown): unknown {
  if (!(value instanceof Uint8Array)) return value;
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}
const encodeMessage = (message: unknown) => [
  JSON.stringify({ result: jsonResult(message) }) + '\n',
];
const encodeRun = (run: unknown) => (run as MessageRun).resultLines();

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
        callMethod(methods, request, reply, service, method),
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
        return sendStream(request, reply, entry.handler(body, signal), signal);
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
