import { invalidArgument } from '../errors.ts';

/**
 * Protobuf-JSON wire helpers (see shared/api/README.md "Encoding rules").
 * Output: int64 as decimal strings, timestamps RFC 3339 UTC, enums as names.
 * Input: lenient — snake_case keys, numbers for int64, enum numbers.
 */

export type WireObject = Record<string, unknown>;

/** Keys whose values are string maps: their keys are data, not field names. */
const mapFields = new Set(['metadata', 'replacement', 'parameters', 'labels']);

/** Recursively renames snake_case keys to lowerCamelCase (map fields' keys are left alone). */
export function normaliseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normaliseKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: WireObject = {};
  for (const [key, inner] of Object.entries(value as WireObject)) {
    const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    out[camel] = mapFields.has(camel) ? inner : normaliseKeys(inner);
  }
  return out;
}

export function readObject(value: unknown, field: string): WireObject {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidArgument(`${field} must be an object`);
  }
  return value as WireObject;
}

/** Like readObject but keeps "unset" distinguishable. */
export function readOptionalObject(value: unknown, field: string): WireObject | null {
  if (value === undefined || value === null) return null;
  return readObject(value, field);
}

export function readString(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalidArgument(`${field} must be a string`);
  return value;
}

export function readBool(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidArgument(`${field} must be a boolean`);
  return value;
}

/** int64/uint64/int32: a JSON number or a decimal string. */
export function readInt(value: unknown, field: string): number {
  if (value === undefined || value === null || value === '') return 0;
  const parsed = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof parsed !== 'number' || !Number.isSafeInteger(parsed)) {
    throw invalidArgument(`${field} must be an integer`);
  }
  return parsed;
}

export function readList(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidArgument(`${field} must be a list`);
  return value;
}

/** An enum given by name or number; returns the name. */
export function readEnum<T extends string>(value: unknown, names: readonly T[], field: string): T {
  if (value === undefined || value === null) return names[0] as T;
  if (typeof value === 'number' && names[value] !== undefined) return names[value] as T;
  if (typeof value === 'string' && (names as readonly string[]).includes(value)) return value as T;
  throw invalidArgument(`${field} must be one of ${names.join(', ')}`);
}

export function readStringMap(value: unknown, field: string): Record<string, string> {
  const obj = readObject(value, field);
  for (const [key, inner] of Object.entries(obj)) {
    if (typeof inner !== 'string') throw invalidArgument(`${field}.${key} must be a string`);
  }
  return obj as Record<string, string>;
}

export function int64(value: number): string {
  return String(Math.trunc(value));
}

/** Milliseconds since the epoch → RFC 3339 UTC with 3 fractional digits; null when unset. */
export function timestamp(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

/** Milliseconds → protobuf Duration string ("3s", "1.500s"). */
export function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(3)}s`;
}

/** Protobuf Duration string → milliseconds ("1.5s" accepted). */
export function readDuration(value: unknown, field: string): number {
  if (value === undefined || value === null || value === '') return 0;
  if (typeof value === 'string') {
    const match = /^(-?\d+(?:\.\d{1,9})?)s$/.exec(value);
    if (match?.[1]) return Math.round(Number(match[1]) * 1000);
  }
  throw invalidArgument(`${field} must be a duration such as "1.5s"`);
}

/** A hex digest → protobuf bytes (base64). */
export function hexToBytesField(hex: string): string {
  return Buffer.from(hex, 'hex').toString('base64');
}
