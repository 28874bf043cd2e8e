import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Compression of the API's JSON and NDJSON answers, for the scope it is registered in, by
 * content negotiation (brotli, then gzip). Every write is flushed through the compressor, so a
 * server stream still reaches the client one line at a time, as it does uncompressed. Brotli runs
 * at a quality fit for answers made on the fly (the static assets are compressed at build time).
 */
export async function registerApiCompression(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyCompress, {
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: /^application\/(json|x-ndjson)\b/,
    globalDecompression: false,
    // Level 1, not zlib's default 6: answers are compressed as they are made, and on a 41 MB
    // listing (GlobFile over 100,000 files) level 6 took about 130 ms of CPU, level 3 about 65 ms
    // and level 1 less again; the call took 241-247 ms at level 1 against 365-380 ms at level 3
    // (perf/store-figures.ts, same machine, idle), for a somewhat larger answer.
    zlibOptions: { flush: constants.Z_SYNC_FLUSH, level: 1 },
    brotliOptions: {
      flush: constants.BROTLI_OPERATION_FLUSH,
      params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
    },
  });
}
