import {
  Server,
  ServerCredentials,
  type Metadata,
  type ServerReadableStream,
  type ServerUnaryCall,
  type ServerWritableStream,
  type MethodDefinition,
  type UntypedHandleCall,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import type http2 from 'node:http2';
import type { DescMethod } from '@bufbuild/protobuf';
import { protoMethod } from '@ivory/api/proto';
import type { FastifyBaseLogger } from 'fastify';
import { runAs, type Caller } from '../platform/auth/index.ts';
import { releaseChunk } from '../platform/storage/read-chunks.ts';
import type { Method, MethodRegistry } from '../platform/platform.ts';
import { toServiceError } from './grpc-errors.ts';
import { methodCodec, type MethodCodec } from './message-codec.ts';

/** Largest message either way (pachd's clients send files in chunks of at most 20 MiB). */
export const GRPC_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/**
 * HTTP/2 flow-control window the listener grants, per stream and per connection. HTTP/2's
 * default (64 KiB) makes a client stop every 64 KiB of an upload until the server's event loop
 * has read it and answered WINDOW_UPDATE — a round trip per 64 KiB between two busy processes.
 * pachctl and the SDKs (grpc-go, grpc core) grow their own windows up to 16 MiB (BDP probing).
 */
export const GRPC_WINDOW_BYTES = 16 * 1024 * 1024;

/**
 * grpc-js (1.14) has no server option for HTTP/2 windows: the stream window goes in the settings
 * of the HTTP/2 servers it creates and the connection window is set on each session, through its
 * internals when they are as expected (otherwise the defaults stay; nothing else changes).
 */
interface GrpcServerInternals {
  commonServerOptions?: http2.ServerOptions;
  http2Servers?: Map<http2.Http2Server, unknown>;
}

function widenStreamWindow(server: Server): void {
  const options = (server as unknown as GrpcServerInternals).commonServerOptions;
  if (options) options.settings = { ...options.settings, initialWindowSize: GRPC_WINDOW_BYTES };
}

function widenConnectionWindows(server: Server): void {
  const servers = (server as unknown as GrpcServerInternals).http2Servers;
  for (const http2Server of servers?.keys() ?? []) {
    http2Server.on('session', (session: http2.ServerHttp2Session) => {
      try {
        session.setLocalWindowSize(GRPC_WINDOW_BYTES);
      } catch {
        // A session already closing keeps its window.
      }
    });
  }
}

export interface GrpcServerOptions {
  host: string;
  /** 0 = any free port. */
  port: number;
  /** The registry the HTTP gateway serves (with role checks when sign-in is on). */
  methods: MethodRegistry;
  /** Who a call runs for, from its metadata (null = no caller: sign-in off); throws to refuse. */
  callerOf: (metadata: Metadata) => Promise<Caller | null>;
  log: FastifyBaseLogger;
}

export interface GrpcListener {
  /** The port bound. */
  port: number;
  /** Every `service/Method` served. */
  served: ReadonlySet<string>;
  close(): Promise<void>;
}

const identity = (value: Buffer) => value;

/** The same bytes as a Buffer, not copied (Buffer.from(Uint8Array) would copy them). */
const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

type Call = { metadata: Metadata; on(event: 'cancelled', listener: () => void): unknown };

/** An AbortSignal that fires when the client cancels the call or goes away. */
function cancelSignal(call: Call): AbortSignal {
  const controller = new AbortController();
  call.on('cancelled', () => controller.abort());
  return controller.signal;
}

/**
 * One generic gRPC handler per registry entry: decode the binary request (to the handler's
 * message, or to the gateway's JSON for a handler without a request schema),
 * call the same handler as the HTTP route, as the same caller, and encode the answer. A
 * method the platform answers in one message but the protocol streams (GetKubeEvents,
 * QueryLoki) is streamed as that one message.
 */
function implement(
  method: Method,
  desc: DescMethod,
  codec: MethodCodec,
  options: GrpcServerOptions,
  running: Set<Promise<unknown>>,
): UntypedHandleCall {
  const { callerOf, log } = options;
  const asCaller = <T>(metadata: Metadata, fn: () => Promise<T>): Promise<T> => {
    const work = callerOf(metadata).then((caller) => (caller ? runAs(caller, fn) : fn()));
    // Closing waits for the handlers still at work (their calls cancelled), as Fastify does.
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    running.add(settled);
    void settled.then(() => running.delete(settled));
    return work;
  };
  const fail = (error: unknown) => toServiceError(error, log);

  if (method.kind === 'clientStream') {
    return (call: ServerReadableStream<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
      const signal = cancelSignal(call);
      const requests = (async function* () {
        for await (const bytes of call) yield codec.decodeRequest(bytes as Buffer);
      })();
      asCaller(call.metadata, () => method.handler(requests, signal))
        .then((answer) => callback(null, asBuffer(codec.encodeResponse(answer))))
        .catch((error: unknown) => {
          // The rest of the client's stream is not read: end it rather than leave it paused.
          call.destroy();
          callback(fail(error));
        });
    };
  }
  if (desc.methodKind === 'unary') {
    return (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
      const signal = cancelSignal(call);
      asCaller(call.metadata, async () => {
        const request = codec.decodeRequest(call.request);
        if (method.kind !== 'unary') throw new Error(`${desc.name} is not unary here`);
        return codec.encodeResponse(await method.handler(request, signal));
      })
        .then((answer) => callback(null, asBuffer(answer)))
        .catch((error: unknown) => callback(fail(error)));
    };
  }
  return (call: ServerWritableStream<Buffer, Buffer>) => {
    const signal = cancelSignal(call);
    const drained = () =>
      new Promise<void>((resolve) => {
        const done = () => {
          call.off('drain', done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        call.on('drain', done);
        signal.addEventListener('abort', done);
      });
    asCaller(call.metadata, async () => {
      const request = codec.decodeRequest(call.request);
      const messages =
        method.kind === 'stream'
          ? method.handler(request, signal)
          : method.kind === 'unary'
            ? (async function* () {
                yield await method.handler(request, signal);
              })()
            : null;
      if (!messages) throw new Error(`${desc.name} is not a server stream here`);
      for await (const message of messages) {
        if (signal.aborted) break;
        const encoded = asBuffer(codec.encodeResponse(message));
        // grpc-js has copied the message into its frame once the write calls back: a chunk of
        // bytes (GetFile) can then be reused for the next read (read-chunks.ts).
        const done = message instanceof Uint8Array ? () => releaseChunk(encoded) : undefined;
        if (!call.write(encoded, done)) await drained();
      }
    })
      .then(() => call.end())
      .catch((error: unknown) => {
        if (!signal.aborted) call.emit('error', fail(error));
      });
  };
}

/** Starts the gRPC listener (HTTP/2 cleartext) on the platform's method registry. */
export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcListener> {
  const server = new Server({
    'grpc.max_receive_message_length': GRPC_MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': GRPC_MAX_MESSAGE_BYTES,
  });
  const services = new Map<
    string,
    {
      definition: Record<string, MethodDefinition<Buffer, Buffer>>;
      implementation: UntypedServiceImplementation;
    }
  >();
  const served = new Set<string>();
  const running = new Set<Promise<unknown>>();
  for (const [fullName, method] of options.methods) {
    const desc = protoMethod(fullName);
    if (!desc) {
      options.log.warn({ method: fullName }, 'not in the protocol files: not served over gRPC');
      continue;
    }
    const serviceName = desc.parent.typeName;
    let service = services.get(serviceName);
    if (!service) {
      service = { definition: {}, implementation: {} };
      services.set(serviceName, service);
    }
    service.definition[desc.name] = {
      path: `/${serviceName}/${desc.name}`,
      requestStream: desc.methodKind === 'client_streaming' || desc.methodKind === 'bidi_streaming',
      responseStream:
        desc.methodKind === 'server_streaming' || desc.methodKind === 'bidi_streaming',
      requestSerialize: identity,
      requestDeserialize: identity,
      responseSerialize: identity,
      responseDeserialize: identity,
    };
    const typed = method.requestSchema !== undefined;
    if (typed && method.requestSchema?.typeName !== desc.input.typeName)
      throw new Error(
        `${fullName} takes ${method.requestSchema?.typeName}, not ${desc.input.typeName}`,
      );
    service.implementation[desc.name] = implement(
      method,
      desc,
      methodCodec(desc, typed),
      options,
      running,
    );
    served.add(fullName);
  }
  for (const { definition, implementation } of services.values())
    server.addService(definition, implementation);
  widenStreamWindow(server);

  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      `${host}:${options.port}`,
      ServerCredentials.createInsecure(),
      (error, bound) => (error ? reject(error) : resolve(bound)),
    ),
  );
  widenConnectionWindows(server);
  return {
    port,
    served,
    async close() {
      await new Promise<void>((resolve) => {
        // Open streams (SubscribeCommit, a stuck client) get a moment, then are cut.
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      await Promise.all(running);
    },
  };
}
