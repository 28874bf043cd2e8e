import Papa from 'papaparse';

/** Bytes read from the start of a file for a CSV preview: rows come from this prefix only. */
export const CSV_PREFIX_BYTES = 256 * 1024;
export const CSV_MAX_ROWS = 1000;
/** Compressed bytes read for a gz preview, and the most text shown from them. */
export const GZ_PREFIX_BYTES = 256 * 1024;
export const GZ_MAX_TEXT_BYTES = 64 * 1024;

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
  const bytes = concat(chunks, Math.min(received, maxBytes));
  const truncated = total !== null ? total > bytes.length : cut;
  return { bytes, truncated };
}

function totalFromContentRange(header: string | null): number | null {
  const match = header ? /\/(\d+)$/.exec(header) : null;
  return match ? Number(match[1]) : null;
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
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

export interface CsvRows {
  header: string[];
  rows: string[][];
  /** Only the first rows are shown: the file (or the prefix read) has more. */
  truncated: boolean;
}

/**
 * The first rows of CSV/TSV text. When the text is a prefix of a longer file, its last line may
 * be cut mid-row, so it is dropped. The first row is the header.
 */
export function parseFirstRows(
  text: string,
  options: { truncated: boolean; maxRows?: number; delimiter?: string },
): CsvRows {
  const maxRows = options.maxRows ?? CSV_MAX_ROWS;
  let body = text;
  if (options.truncated) {
    const lastNewline = body.lastIndexOf('\n');
    body = lastNewline === -1 ? '' : body.slice(0, lastNewline + 1);
  }
  const parsed = Papa.parse<string[]>(body, {
    delimiter: options.delimiter ?? '',
    skipEmptyLines: true,
    preview: maxRows + 1,
  });
  const [header = [], ...rows] = parsed.data;
  const more = options.truncated || parsed.meta.truncated || rows.length > maxRows;
  return { header, rows: rows.slice(0, maxRows), truncated: more };
}

/** The first rows of a CSV/TSV file through a Range request (never the whole file). */
export async function loadFirstRows(
  url: string,
  options: { delimiter?: string; maxRows?: number; prefixBytes?: number; signal?: AbortSignal },
): Promise<CsvRows> {
  const prefix = await fetchPrefix(url, options.prefixBytes ?? CSV_PREFIX_BYTES, options.signal);
  const text = new TextDecoder().decode(prefix.bytes);
  return parseFirstRows(text, {
    truncated: prefix.truncated,
    maxRows: options.maxRows,
    delimiter: options.delimiter,
  });
}

/**
 * Text from the start of a gzip file: the first compressed bytes through
 * DecompressionStream('gzip'), stopping after `maxTextBytes`. A prefix of a gzip stream ends
 * with an error (unexpected end): what was inflated before it is kept.
 */
export async function gunzipPrefix(
  compressed: Prefix,
  maxTextBytes = GZ_MAX_TEXT_BYTES,
): Promise<{ text: string; truncated: boolean }> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(compressed.bytes);
      controller.close();
    },
  });
  const stream = source.pipeThrough(
    new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
  );
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  let truncated = compressed.truncated;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      if (received >= maxTextBytes) {
        truncated = true;
        await reader.cancel();
        break;
      }
    }
  } catch (error) {
    if (!compressed.truncated && chunks.length === 0) throw error;
    truncated = true;
  }
  const bytes = concat(chunks, Math.min(received, maxTextBytes));
  return { text: new TextDecoder().decode(bytes), truncated };
}

/** A whole small text file (callers check the size first). */
export async function fetchWholeText(url: string, signal?: AbortSignal): Promise<string> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`Unable to read the file (HTTP ${response.status})`);
  return response.text();
}
