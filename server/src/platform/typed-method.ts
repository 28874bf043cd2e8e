import {
  fromBinary,
  fromJson,
  type DescMessage,
  type JsonValue,
  type MessageShape,
} from '@bufbuild/protobuf';
import { protoRegistry } from '@ivory/api/proto';
import { invalidArgument } from '../errors.ts';
import type { Method } from './platform.ts';

/**
 * Registration of a handler that takes the generated request message X (protobuf-es):
 *
 *   add('GetFile', typedStream(pfs_v2.GetFileRequestSchema, async function* (request) { … }))
 *
 * The method carries its request schema, so each transport decodes a request once — the gRPC
 * listener from binary (`requestFromBinary`, no JSON step), the HTTP gateway from its JSON
 * (`requestFromJson`) — and the handler gets `MessageShape<X>` (int64 as bigint, enums as
 * numbers, oneofs as `{case, value}`, bytes as Uint8Array). Answers are unchanged: the
 * gateway's JSON form, or bytes (Uint8Array) for a method that answers google.protobuf.BytesValue
 * (GetFile, GetFileTAR), which the gateway writes as base64 and gRPC as the message.
 *
 * JSON requests are read as leniently as the gateway always did (protobuf JSON): snake_case or
 * lowerCamelCase names, int64 as strings or numbers, enums by name or number, unknown fields
 * ignored. A request that does not fit is INVALID_ARGUMENT.
 */

export interface TypedOptions<S extends DescMessage> {
  /** Decodes one JSON request instead of fromJson (e.g. bulk bytes with Node's native base64). */
  fromJson?: (json: unknown) => MessageShape<S>;
}

export function typedUnary<S extends DescMessage>(
  schema: S,
  handler: (request: MessageShape<S>, signal: AbortSignal) => Promise<unknown>,
  options: TypedOptions<S> = {},
): Method {
  return {
    kind: 'unary',
    requestSchema: schema,
    requestFromJson: options.fromJson,
    handler: (request, signal) => handler(request as MessageShape<S>, signal),
  };
}

export function typedStream<S extends DescMessage>(
  schema: S,
  handler: (request: MessageShape<S>, signal: AbortSignal) => AsyncIterable<unknown>,
  options: TypedOptions<S> = {},
): Method {
  return {
    kind: 'stream',
    requestSchema: schema,
    requestFromJson: options.fromJson,
    handler: (request, signal) => handler(request as MessageShape<S>, signal),
  };
}

export function typedClientStream<S extends DescMessage>(
  schema: S,
  handler: (requests: AsyncIterable<MessageShape<S>>, signal: AbortSignal) => Promise<unknown>,
  options: TypedOptions<S> = {},
): Method {
  return {
    kind: 'clientStream',
    requestSchema: schema,
    requestFromJson: options.fromJson,
    handler: (requests, signal) => handler(requests as AsyncIterable<MessageShape<S>>, signal),
  };
}

const jsonOptions = { ignoreUnknownFields: true, registry: protoRegistry };

/** Reads a JSON request as `schema`'s message; a request that does not fit is 3. */
export function messageFromJson<S extends DescMessage>(schema: S, json: unknown): MessageShape<S> {
  try {
    return fromJson(schema, (json ?? {}) as JsonValue, jsonOptions);
  } catch (error) {
    throw invalidArgument(`malformed ${schema.typeName}: ${(error as Error).message}`);
  }
}

/** One JSON request for the method's handler: its message when it has a schema, else as is. */
export function requestFromJson(method: Method, json: unknown): unknown {
  if (method.requestFromJson) return method.requestFromJson(json);
  return method.requestSchema ? messageFromJson(method.requestSchema, json) : json;
}

/** One binary request (gRPC) as `schema`'s message; malformed bytes are 3. */
export function requestFromBinary<S extends DescMessage>(
  schema: S,
  bytes: Uint8Array,
): MessageShape<S> {
  try {
    return fromBinary(schema, bytes);
  } catch (error) {
    throw invalidArgument(`malformed ${schema.typeName}: ${(error as Error).message}`);
  }
}
