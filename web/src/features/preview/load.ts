import Papa from 'papaparse';
import { concatBytes, type Prefix } from './file-prefix.ts';

export const CSV_MAX_ROWS = 1000;
/** The most text a gz preview shows from the bytes it reads. */
export const GZ_MAX_TEXT_BYTES = 64 * 1024;

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

/** The first rows of a CSV/TSV file's first bytes (see fetchPrefix). */
export function firstRowsOf(
  prefix: Prefix,
  options: { delimiter?: string; maxRows?: number } = {},
): CsvRows {
  return parseFirstRows(new TextDecoder().decode(prefix.bytes), {
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
  const bytes = concatBytes(chunks, Math.min(received, maxTextBytes));
  return { text: new TextDecoder().decode(bytes), truncated };
}

/** A whole small text file (callers check the size first). */
export async function fetchWholeText(url: string, signal?: AbortSignal): Promise<string> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`Unable to read the file (HTTP ${response.status})`);
  return response.text();
}
