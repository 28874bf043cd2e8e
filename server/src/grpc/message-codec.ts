import {
  fromBinary,
  fromJson,
  toBinary,
  toJson,
  type DescMessage,
  type DescMethod,
  type JsonValue,
  type Message,
} from '@bufbuild/protobuf';
import { protoRegistry } from '@ivory/api/proto';
import type { pfs_v2 } from '@ivory/api/proto';
import { ApiError, Code, invalidArgument } from '../errors.ts';

/**
 * Binary ⇄ the platform's form for one method: requests are decoded from protobuf binary and
 * handed to a typed handler (one with a request schema, typed-method.ts) as the message itself;
 * to any other handler as the protobuf JSON the HTTP gateway would pass
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

/** BytesValue{value} as binary: field 1, length-delimited (an empty value is an empty message). */
function bytesValue(base64: string): Uint8Array {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) return new Uint8Array(0);
  const header: number[] = [0x0a];
  let length = bytes.length;
  while (length > 0x7f) {
    header.push((length & 0x7f) | 0x80);
    length >>>= 7;
  }
  header.push(length);
  return Buffer.concat([Buffer.from(header), bytes]);
}

/** Reads a handler's answer as the message `schema` (fields the protocol lacks are ignored). */
export function responseMessage(schema: DescMessage, value: unknown, strict = false) {
  const options = { registry: protoRegistry, ignoreUnknownFields: !strict };
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

const MODIFY_FILE_REQUEST = 'pfs_v2.ModifyFileRequest';

/**
 * ModifyFile's addFile{raw} (the bulk of an upload) as JSON with Node's native base64: the
 * generic conversion's base64 runs in JavaScript and made uploads 5× slower. null: any other
 * message, converted generically.
 */
function addFileJson(message: Message): JsonValue | null {
  const { body } = message as pfs_v2.ModifyFileRequest;
  if (body.case !== 'addFile' || body.value.source.case !== 'raw') return null;
  const { path, datum, source } = body.value;
  const raw = source.value.value;
  return {
    addFile: {
      path,
      ...(datum ? { datum } : {}),
      raw: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64'),
    },
  };
}

/** `typed`: the method's handler takes the decoded request message (no JSON step). */
export function methodCodec(method: DescMethod, typed = false): MethodCodec {
  const { input, output } = method;
  return {
    decodeRequest(bytes) {
      let message;
      try {
        message = fromBinary(input, bytes);
      } catch (error) {
        throw invalidArgument(`malformed ${input.typeName}: ${(error as Error).message}`);
      }
      if (typed) return message;
      const fast = input.typeName === MODIFY_FILE_REQUEST ? addFileJson(message) : null;
      return fast ?? toJson(input, message, { registry: protoRegistry }) ?? {};
    },
    encodeResponse(value) {
      // GetFile, GetFileTAR: handlers stream base64 chunks; written without a message object.
      if (output.typeName === BYTES_VALUE && typeof value === 'string') return bytesValue(value);
      return toBinary(output, responseMessage(output, value));
    },
  };
}
