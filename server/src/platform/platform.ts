/**
 * The platform behind the HTTP gateway: a registry of `service/Method` → handler.
 * The embedded platform fills it with local implementations; a cluster-mode proxy can fill it
 * with forwarding handlers instead, so the HTTP layer never knows which one it talks to.
 */

import type { DescMessage } from '@bufbuild/protobuf';

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
 * What a method takes, when it says (see typed-method.ts): its handler gets request messages of
 * `requestSchema` (protobuf-es), decoded once by the transport — binary on gRPC, JSON on the
 * HTTP gateway. Without it, the handler gets the gateway's JSON (object keys in lowerCamelCase).
 */
export interface RequestDecoding {
  requestSchema?: DescMessage;
  /** Decodes one JSON request instead of the generic fromJson (a faster path for bulk bytes). */
  requestFromJson?: (json: unknown) => unknown;
}

export type Method = RequestDecoding &
  (
    | { kind: 'unary'; handler: UnaryHandler }
    | { kind: 'stream'; handler: StreamHandler }
    | { kind: 'clientStream'; handler: ClientStreamHandler }
  );

/** Keyed by full method name, e.g. "pfs_v2.API/CreateRepo". */
export type MethodRegistry = Map<string, Method>;

export const unary = (handler: UnaryHandler): Method => ({ kind: 'unary', handler });
export const stream = (handler: StreamHandler): Method => ({ kind: 'stream', handler });
export const clientStream = (handler: ClientStreamHandler): Method => ({
  kind: 'clientStream',
  handler,
});
