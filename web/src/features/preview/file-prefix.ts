import { queryOptions } from '@tanstack/react-query';
import { COMMIT_CONTENT_STALE_TIME_MS, queryKeys } from '../../data/query-keys.ts';
import type { PreviewRenderer } from './registry.ts';

/** Bytes read from the start of a file for a CSV preview: rows come from this prefix only. */
export const CSV_PREFIX_BYTES = 256 * 1024;
/** Compressed bytes read for a gz preview. */
export const GZ_PREFIX_BYTES = 256 * 1024;

/**
 * The renderers that show a file from its first bytes, whatever its size, and how many they
 * read: what they need can be asked for from the file's name alone (see preloadPreviewOf).
 */
export const PREFIX_BYTES: Partial<Record<PreviewRenderer, number>> = {
  csv: CSV_PREFIX_BYTES,
  gz: GZ_PREFIX_BYTES,
};

export interface Prefix {
  bytes: Uint8Array;
  /** The file has more bytes than were read. */
  truncated: boolean;
}

/**
 * The first `maxBytes` of a file with a Range request. A server that ignores the range is cut
 * off after `maxBytes` (the body is read as a stream and the rest cancelled), so a 1 GiB file
 * never loads whole.
 */
export async function fetchPrefix(
  url: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Prefix> {
  const response = await fetch(url, { headers: { Range: `bytes=0-${maxBytes - 1}` }, signal });
  if (!response.ok) throw new Error(`Unable to read the file (HTTP ${response.status})`);
  const total = totalFromContentRange(response.headers.get('content-range'));
  const reader = response.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(0), truncated: false };
  const chunks: Uint8Array[] = [];
  let received = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    if (received >= maxBytes) {
      cut = true;
      await reader.cancel();
      break;
    }
  }
  const bytes = concatBytes(chunks, Math.min(received, maxBytes));
  const truncated = total !== null ? total > bytes.length : cut;
  return { bytes, truncated };
}

function totalFromContentRange(header: string | null): number | null {
  const match = header ? /\/(\d+)$/.exec(header) : null;
  return match ? Number(match[1]) : null;
}

/** The first `length` bytes of `chunks`, as one array. */
export function concatBytes(chunks: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, Math.max(0, length - offset));
    out.set(part, offset);
    offset += part.length;
    if (offset >= length) break;
  }
  return out;
}

/**
 * A file's first `bytes`, shared by the renderer that shows them and the route's prefetch. Kept
 * briefly: the renderer keeps what it made of them.
 */
export function filePrefixQuery(url: string, bytes: number) {
  return queryOptions({
    queryKey: queryKeys.filePrefix(url, bytes),
    queryFn: ({ signal }) => fetchPrefix(url, bytes, signal),
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
    gcTime: 30_000,
  });
}

/**
 * Bytes `start` to `end` (inclusive) of a file with a Range request. A server that answers the
 * whole file instead (200) is refused rather than read: the file is known to be large.
 */
export async function fetchRange(
  url: string,
  start: number,
  end: number,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const response = await fetch(url, { headers: { Range: `bytes=${start}-${end}` }, signal });
  if (response.status !== 206) {
    await response.body?.cancel();
    throw new Error(`Unable to read part of the file (HTTP ${response.status})`);
  }
  return new Uint8Array(await response.arrayBuffer());
}
