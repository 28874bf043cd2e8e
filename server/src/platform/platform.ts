import type { DescMessage } from '@bufbuild/protobuf';

/**
 * The platform behind the HTTP gateway: a registry of `service/Method` → handler.
 * The embedded platform fills it with local implementations; a cluster-mode proxy can fill it
 * with forwarding handlers instead, so the HTTP layer never knows which one it talks to.
 */

/** One request, one response message. */
export type UnaryHandler = (request: unknown, signal: AbortSignal) => Promise<unknown>;
/** One request, a stream of response messages. */
export type StreamHandler = (request: unknown, signal: AbortSignal) => AsyncIterable<unknown>;
/** A stream of request messages (ModifyFile), one response message. */
export type ClientStreamHandler = (
  requests: AsyncIterable<unknown>,
  signal: AbortSignal,
) => Promise<unknown>;

/**
 * `requestSchema` (set by typed-method.ts): the handler takes that generated message, decoded
 * once by the transport (JSON by the gateway, binary by gRPC). Without it the handler takes the
 * gateway's JSON (keys in lowerCamelCase).
 */
export type Method = (
  | { kind: 'unary'; handler: UnaryHandler }
  | { kind: 'stream'; handler: StreamHandler }
  | { kind: 'clientStream'; handler: ClientStreamHandler }
) & {
  requestSchema?: DescMessage;
  /** The method's own lenient JSON forms (aliases) rewritten to the protocol's, before decoding. */
  requestJson?: (body: unknown) => unknown;
  /** Decodes one JSON request instead of the generic fromJson (a faster path for bulk bytes). */
  requestFromJson?: (json: unknown) => unknown;
};

/** Keyed by full method name, e.g. "pfs_v2.API/CreateRepo". */
export type MethodRegistry = Map<string, Method>;

export const unary = (handler: UnaryHandler): Method => ({ kind: 'unary', handler });
export const stream = (handler: StreamHandler): Method => ({ kind: 'stream', handler });
export const clientStream = (handler: ClientStreamHandler): Method => ({
  kind: 'clientStream',
  handler,
});
