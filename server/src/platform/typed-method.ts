import {
  createRegistry,
  fromBinary,
  fromJson,
  type DescEnum,
  type DescMessage,
  type JsonValue,
  type MessageShape,
} from '@bufbuild/protobuf';
import {
  file_google_protobuf_any,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_field_mask,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_wrappers,
} from '@bufbuild/protobuf/wkt';
import { protoRegistry } from '@ivory/api/proto';
import { invalidArgument } from '../errors.ts';
import type { Method } from './platform.ts';

/**
 * Methods whose handlers take the generated request message (protobuf-es, `@ivory/api/proto`):
 * the transport decodes the request once — the HTTP gateway from JSON (`decodeJsonRequest`),
 * the gRPC listener from binary — and the handler gets e.g. a `pfs_v2.InspectRepoRequest`
 * (int64 as bigint, enums as numbers, oneofs as `{case, value}`). Answers stay the gateway's
 * JSON, built by the handler, or bytes (Uint8Array) for a method that answers
 * google.protobuf.BytesValue (GetFile, GetFileTAR), which the gateway writes as base64 and gRPC as
 * the message. Semantic checks (a name must not be empty) stay in handlers.
 */

export interface TypedOptions {
  /** Rewrites the gateway JSON's aliases of this method to protobuf JSON (before fromJson). */
  requestJson?: (body: unknown) => unknown;
  /** Decodes one JSON request instead of fromJson (bulk bytes with Node's native base64). */
  requestFromJson?: (json: unknown) => unknown;
}

export const typedUnary = <D extends DescMessage>(
  requestSchema: D,
  handler: (request: MessageShape<D>, signal: AbortSignal) => Promise<unknown>,
  options: TypedOptions = {},
): Method => ({
  kind: 'unary',
  requestSchema,
  ...options,
  handler: (request, signal) => handler(request as MessageShape<D>, signal),
});

export const typedStream = <D extends DescMessage>(
  requestSchema: D,
  handler: (request: MessageShape<D>, signal: AbortSignal) => AsyncIterable<unknown>,
  options: TypedOptions = {},
): Method => ({
  kind: 'stream',
  requestSchema,
  ...options,
  handler: (request, signal) => handler(request as MessageShape<D>, signal),
});

export const typedClientStream = <D extends DescMessage>(
  requestSchema: D,
  handler: (requests: AsyncIterable<MessageShape<D>>, signal: AbortSignal) => Promise<unknown>,
  options: TypedOptions = {},
): Method => ({
  kind: 'clientStream',
  requestSchema,
  ...options,
  handler: (requests, signal) => handler(requests as AsyncIterable<MessageShape<D>>, signal),
});

/**
 * The protocol's types plus the well-known ones: what an Any in a request may hold (PutCache's
 * value, e.g. a google.protobuf.StringValue) for its JSON form to be read or written.
 */
export const jsonRegistry = createRegistry(
  protoRegistry,
  file_google_protobuf_any,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_field_mask,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_wrappers,
);

const jsonOptions = { ignoreUnknownFields: true, registry: jsonRegistry } as const;

/**
 * The request a method's handler takes, from a JSON body: its generated message (lenient as
 * protobuf JSON is: snake_case or lowerCamelCase names, int64 as string or number, enums by name
 * or number). Every platform method has a schema; one without (a test's) gets the JSON as sent.
 */
export function decodeJsonRequest(method: Method, body: unknown): unknown {
  if (!method.requestSchema) return body;
  if (method.requestFromJson) return method.requestFromJson(body);
  return messageFromJson(method.requestSchema, method.requestJson?.(body) ?? body);
}

/** `json` as the message `schema`; a value that does not fit is INVALID_ARGUMENT naming its field. */
export function messageFromJson<D extends DescMessage>(schema: D, json: unknown): MessageShape<D> {
  let message: MessageShape<D>;
  try {
    message = fromJson(schema, json as JsonValue, jsonOptions);
  } catch (error) {
    const path = failingField(schema, json, '');
    const reason = (error as Error).message;
    throw invalidArgument(path ? `${path}: ${reason}` : `${schema.typeName}: ${reason}`);
  }
  // ignoreUnknownFields also drops enum names it does not know; a misspelt one is an error.
  if (reachesEnum(schema)) {
    const bad = unknownEnumName(schema, json, '');
    if (bad) throw invalidArgument(`${bad.path} must be one of ${bad.names}, not ${bad.value}`);
  }
  return message;
}

const enumReach = new WeakMap<DescMessage, boolean>();

/** Whether a request of `schema` can hold an enum (cached per request schema). */
function reachesEnum(schema: DescMessage): boolean {
  let reach = enumReach.get(schema);
  if (reach === undefined) {
    const seen = new Set<DescMessage>();
    const walk = (message: DescMessage): boolean => {
      if (seen.has(message) || ownJsonForm(message)) return false;
      seen.add(message);
      return message.fields.some((field) => {
        if (field.fieldKind === 'enum') return true;
        if (field.fieldKind === 'list')
          return field.listKind === 'enum' || (field.listKind === 'message' && walk(field.message));
        if (field.fieldKind === 'map')
          return field.mapKind === 'enum' || (field.mapKind === 'message' && walk(field.message));
        return field.fieldKind === 'message' && walk(field.message);
      });
    };
    reach = walk(schema);
    enumReach.set(schema, reach);
  }
  return reach;
}

const enumNames = (desc: DescEnum) => desc.values.flatMap((value) => [value.name, value.jsonName]);

interface UnknownEnum {
  path: string;
  names: string;
  value: string;
}

/** The first enum given by a name its enum does not have, walking only the keys `json` holds. */
function unknownEnumName(
  schema: DescMessage,
  json: unknown,
  prefix: string,
): UnknownEnum | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  for (const [key, value] of Object.entries(json)) {
    const field = schema.fields.find((f) => f.jsonName === key || f.name === key);
    if (!field || value === null || value === undefined) continue;
    const path = prefix ? `${prefix}.${field.jsonName}` : field.jsonName;
    const check = (desc: DescEnum, item: unknown, at: string): UnknownEnum | undefined =>
      typeof item === 'string' && !enumNames(desc).includes(item)
        ? {
            path: at,
            names: desc.values.map((v) => v.name).join(', '),
            value: JSON.stringify(item),
          }
        : undefined;
    const inner = (message: DescMessage, item: unknown, at: string) =>
      ownJsonForm(message) ? undefined : unknownEnumName(message, item, at);
    let found: UnknownEnum | undefined;
    if (field.fieldKind === 'enum') found = check(field.enum, value, path);
    else if (field.fieldKind === 'message') found = inner(field.message, value, path);
    else if (field.fieldKind === 'list' && Array.isArray(value)) {
      for (let i = 0; i < value.length && !found; i++) {
        if (field.listKind === 'enum') found = check(field.enum, value[i], `${path}[${i}]`);
        else if (field.listKind === 'message')
          found = inner(field.message, value[i], `${path}[${i}]`);
      }
    } else if (field.fieldKind === 'map' && typeof value === 'object') {
      for (const [mapKey, item] of Object.entries(value)) {
        if (field.mapKind === 'enum') found = check(field.enum, item, `${path}.${mapKey}`);
        else if (field.mapKind === 'message')
          found = inner(field.message, item, `${path}.${mapKey}`);
        if (found) break;
      }
    }
    if (found) return found;
  }
  return undefined;
}

const fits = (schema: DescMessage, json: unknown): boolean => {
  try {
    fromJson(schema, json as JsonValue, jsonOptions);
    return true;
  } catch {
    return false;
  }
};

/** Messages with their own JSON form (Timestamp, Duration, Struct…): the path stops at them. */
const ownJsonForm = (schema: DescMessage) => schema.typeName.startsWith('google.protobuf.');

/** The path (`edits[0].addKey.key`) of the field that keeps `json` from decoding (cold path). */
function failingField(schema: DescMessage, json: unknown, prefix: string): string {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return prefix;
  for (const [key, value] of Object.entries(json)) {
    const field = schema.fields.find((f) => f.jsonName === key || f.name === key);
    if (!field || fits(schema, { [key]: value })) continue;
    const path = prefix ? `${prefix}.${field.jsonName}` : field.jsonName;
    if (field.fieldKind === 'message' && !ownJsonForm(field.message))
      return failingField(field.message, value, path);
    if (field.fieldKind === 'list' && field.listKind === 'message' && Array.isArray(value)) {
      const index = value.findIndex((item) => !fits(field.message, item));
      if (index >= 0 && !ownJsonForm(field.message))
        return failingField(field.message, value[index], `${path}[${index}]`);
    }
    return path;
  }
  return prefix;
}

/** An int64 from a request as a number; INVALID_ARGUMENT beyond 2^53. */
export function safeNumber(value: bigint, field: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw invalidArgument(`${field} is too large: ${value}`);
  return number;
}

/** One binary request (gRPC) as `schema`'s message; malformed bytes are INVALID_ARGUMENT. */
export function requestFromBinary<D extends DescMessage>(
  schema: D,
  bytes: Uint8Array,
): MessageShape<D> {
  try {
    return fromBinary(schema, bytes);
  } catch (error) {
    throw invalidArgument(`malformed ${schema.typeName}: ${(error as Error).message}`);
  }
}
