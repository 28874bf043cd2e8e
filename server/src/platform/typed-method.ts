import { fromJson, type DescMessage, type JsonValue, type MessageShape } from '@bufbuild/protobuf';
import { protoRegistry } from '@ivory/api/proto';
import { invalidArgument } from '../errors.ts';
import type { Method } from './platform.ts';
import { normaliseKeys } from './wire.ts';

/**
 * Methods whose handlers take the generated request message (protobuf-es, `@ivory/api/proto`):
 * the transport decodes the request once — the HTTP gateway from JSON (`decodeJsonRequest`),
 * the gRPC listener from binary — and the handler gets e.g. a `pfs_v2.InspectRepoRequest`
 * (int64 as bigint, enums as numbers, oneofs as `{case, value}`). Answers stay the gateway's
 * JSON, built by the handler. Semantic checks (a name must not be empty) stay in handlers.
 */

export const typedUnary = <D extends DescMessage>(
  requestSchema: D,
  handler: (request: MessageShape<D>, signal: AbortSignal) => Promise<unknown>,
): Method => ({
  kind: 'unary',
  requestSchema,
  handler: (request, signal) => handler(request as MessageShape<D>, signal),
});

export const typedStream = <D extends DescMessage>(
  requestSchema: D,
  handler: (request: MessageShape<D>, signal: AbortSignal) => AsyncIterable<unknown>,
): Method => ({
  kind: 'stream',
  requestSchema,
  handler: (request, signal) => handler(request as MessageShape<D>, signal),
});

const jsonOptions = { ignoreUnknownFields: true, registry: protoRegistry } as const;

/**
 * The request a method's handler takes, from a JSON body: its generated message when the method
 * has a schema (lenient as protobuf JSON is: snake_case or lowerCamelCase names, int64 as string
 * or number, enums by name or number), otherwise the JSON with lowerCamelCase keys.
 */
export function decodeJsonRequest(method: Method, body: unknown): unknown {
  if (!method.requestSchema) return normaliseKeys(body);
  return messageFromJson(method.requestSchema, body);
}

/** `json` as the message `schema`; a value that does not fit is INVALID_ARGUMENT naming its field. */
export function messageFromJson<D extends DescMessage>(schema: D, json: unknown): MessageShape<D> {
  try {
    return fromJson(schema, json as JsonValue, jsonOptions);
  } catch (error) {
    const path = failingField(schema, json, '');
    const reason = (error as Error).message;
    throw invalidArgument(path ? `${path}: ${reason}` : `${schema.typeName}: ${reason}`);
  }
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
