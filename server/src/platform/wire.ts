/**
 * Protobuf-JSON output helpers for the gateway's answers (see shared/api/README.md "Encoding
 * rules"): int64 as decimal strings, timestamps RFC 3339 UTC, durations as "1.5s". Requests are
 * read as the generated messages (typed-method.ts), not here.
 */

export type WireObject = Record<string, unknown>;

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

/** A hex digest → protobuf bytes (base64). */
export function hexToBytesField(hex: string): string {
  return Buffer.from(hex, 'hex').toString('base64');
}

/**
 * A server stream's message as its JSON has it: bytes (GetFile's and GetFileTAR's BytesValue
 * chunks) as base64, as protobuf JSON has them; anything else as it is.
 */
export function messageJson(value: unknown): unknown {
  if (!(value instanceof Uint8Array)) return value;
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}
