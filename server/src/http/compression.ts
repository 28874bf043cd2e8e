import negotiate from '@fastify/accept-negotiator';
import type { TransformOptions } from 'node:stream';
import {
  constants,
  createBrotliCompress,
  createGzip,
  type BrotliCompress,
  type BrotliOptions,
  type Gzip,
  type ZlibOptions,
} from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** The encodings of API answers, in the order the server prefers them. */
const API_ENCODINGS: ApiEncoding[] = ['br', 'gzip'];
export type ApiEncoding = 'br' | 'gzip';

// Level 1, not zlib's default 6: answers are compressed as they are made, and on a 41 MB
// listing (GlobFile over 100,000 files) level 6 took about 130 ms of CPU, level 3 about 65 ms
// and level 1 less again; the call took 241-247 ms at level 1 against 365-380 ms at level 3
// (perf/store-figures.ts, same machine, idle), for a somewhat larger answer.
const GZIP_LEVEL = 1;
const BROTLI_QUALITY = 4;
/**
 * Brotli quality for a bulk stream (streamEncoder): one whose first message alone is a long run
 * of lines, a listing of many files. On GlobFile over 100,000 files (39 MiB of NDJSON) quality 4
 * took 80-110 ms of the thread pool's CPU per call and quality 1 about 40 ms (as much as gzip
 * at level 1), for 0.25 MiB against 0.13 MiB (gzip: 0.36 MiB). Other streams keep quality 4:
 * on lists of 100-1,000 repos quality 1 is 10-15 % larger, and a job's logs page 13 % larger
 * (perf/glob-wire.ts, perf/head-to-head.ts).
 */
const BULK_STREAM_BROTLI_QUALITY = 1;

/**
 * Compression of the API's JSON and NDJSON answers, for the scope it is registered in, by
 * content negotiation (brotli, then gzip). Every write is flushed through the compressor, so a
 * stream sent through it still reaches the client one line at a time, as it does uncompressed.
 * Brotli runs at a quality fit for answers made on the fly (the static assets are compressed at
 * build time). The gateway's server streams compress themselves (streamEncoder): they set their
 * Content-Encoding, which this leaves alone.
 */
export async function registerApiCompression(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyCompress, {
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: API_ENCODINGS,
    customTypes: /^application\/(json|x-ndjson)\b/,
    globalDecompression: false,
    zlibOptions: { flush: constants.Z_SYNC_FLUSH, level: GZIP_LEVEL },
    brotliOptions: {
      flush: constants.BROTLI_OPERATION_FLUSH,
      params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
    },
  });
}

/**
 * The encoding an answer to this Accept-Encoding gets, or null (as it is): the same choice
 * @fastify/compress makes (`*` and `x-gzip` count as gzip).
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ApiEncoding | null {
  if (acceptEncoding === undefined) return null;
  const header = acceptEncoding.toLowerCase().replace(/\*|x-gzip/g, 'gzip');
  return negotiate(header, API_ENCODINGS);
}

/**
 * A compressor for a server stream written by its producer, which flushes it (flushStream)
 * when it is about to wait: writes are not flushed one by one. `writableHighWaterMark` is how
 * much input may queue before a write reports backpressure; `bulk`: a long listing, compressed
 * at brotli's cheapest useful quality (BULK_STREAM_BROTLI_QUALITY).
 */
export function streamEncoder(
  encoding: ApiEncoding,
  writableHighWaterMark: number,
  bulk: boolean,
): Gzip | BrotliCompress {
  // Output in 64 KiB buffers: each buffer the compressor fills is one turn of the thread pool.
  // (Node's compressors are Transform streams: they take its options too.)
  const stream: TransformOptions = { writableHighWaterMark };
  const chunkSize = 64 * 1024;
  return encoding === 'gzip'
    ? createGzip({ ...stream, level: GZIP_LEVEL, chunkSize } as ZlibOptions)
    : createBrotliCompress({
        ...stream,
        chunkSize,
        params: {
          [constants.BROTLI_PARAM_QUALITY]: bulk ? BULK_STREAM_BROTLI_QUALITY : BROTLI_QUALITY,
        },
      } as BrotliOptions);
}

/** Sends what a streamEncoder holds so far on to the client (after the writes before it). */
export function flushStream(encoder: Gzip | BrotliCompress, encoding: ApiEncoding): void {
  encoder.flush(encoding === 'gzip' ? constants.Z_SYNC_FLUSH : constants.BROTLI_OPERATION_FLUSH);
}
