import {
  fromJson,
  toBinary,
  toJson,
  type DescMessage,
  type DescMethod,
  type JsonValue,
} from '@bufbuild/protobuf';
import { ApiError, Code } from '../errors.ts';
import { withHeader } from '../platform/storage/read-chunks.ts';
import { jsonRegistry, requestFromBinary } from '../platform/typed-method.ts';

/**
 * Binary ⇄ what one method's handler takes and answers. A typed method (typed-method.ts) gets its
 * request message as decoded from binary. Any other gets it as the protobuf JSON the HTTP gateway
 * would pass
 * (lowerCamelCase names, int64 as strings, enums by name, bytes as base64; fields at their zero
 * value are left out, as proto3 binary cannot tell them from unset); answers are read as
 * protobuf JSON and written as binary. Both conversions are protobuf-es's conformance-tested
 * encodings.
 */
export interface MethodCodec {
  decodeRequest(bytes: Uint8Array): unknown;
  encodeResponse(message: unknown): Uint8Array;
}

const BYTES_VALUE = 'google.protobuf.BytesValue';

/**
 * BytesValue{value} as binary: field 1, length-delimited (an empty value is an empty message).
 * A chunk read with headroom (GetFile's, read-chunks.ts) gets its header written in front of it, in
 * place: no copy of the bytes and no new buffer (grpc-js copies the message into its frame anyway).
 */
function bytesValue(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 0) return new Uint8Array(0);
  const header: number[] = [0x0a];
  let length = bytes.length;
  while (length > 0x7f) {
    header.push((length & 0x7f) | 0x80);
    length >>>= 7;
  }
  header.push(length);
  const framed = withHeader(bytes, Uint8Array.from(header));
  if (framed) return framed;
  const message = Buffer.allocUnsafe(header.length + bytes.length);
  message.set(header);
  message.set(bytes, header.length);
  return message;
}

/** Reads a handler's answer as the message `schema` (fields the protocol lacks are ignored). */
export function responseMessage(schema: DescMessage, value: unknown, strict = false) {
  const options = { registry: jsonRegistry, ignoreUnknownFields: !strict };
  try {
    return fromJson(schema, value as JsonValue, options);
  } catch (error) {
    // A handler's object may hold `undefined` members: JSON (as the gateway sends it) drops them.
    const json = JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
    try {
      return fromJson(schema, json, options);
    } catch {
      throw new ApiError(
        Code.INTERNAL,
        `the answer does not fit ${schema.typeName}: ${(error as Error).message}`,
      );
    }
  }
}

/**
 * The codec of one method. A method that carries its request schema (typed-method.ts) gets the
 * decoded message itself, with no JSON step (ModifyFile's bytes stay the bytes received).
 */
export function methodCodec(method: DescMethod, typed = false): MethodCodec {
  const { input, output } = method;
  return {
    decodeRequest(bytes) {
      const message = requestFromBinary(input, bytes);
      if (typed) return message;
      return toJson(input, message, { registry: jsonRegistry }) ?? {};
    },
    encodeResponse(value) {
      // GetFile, GetFileTAR: handlers stream chunks of bytes; written without a message object.
      if (output.typeName === BYTES_VALUE && value instanceof Uint8Array) return bytesValue(value);
      return toBinary(output, responseMessage(output, value));
    },
  };
}
