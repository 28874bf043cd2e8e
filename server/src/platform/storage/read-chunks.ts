import { open } from 'node:fs/promises';
import type { ByteRange } from './blob-store.ts';

/**
 * Bytes kept free in front of every chunk `readChunks` yields, so that a consumer can frame the
 * chunk (a protobuf tag and length: at most 1 + 5 bytes for BytesValue) in place instead of copying
 * it into a new buffer.
 */
export const CHUNK_HEADROOM = 16;

interface ChunkInfo {
  /** The whole buffer the chunk is a view of, headroom included. */
  buffer: Buffer;
  pool: BufferPool;
  released: boolean;
}

/** Chunks yielded by `readChunks` → their buffer, for `withHeader` and `releaseChunk`. */
const chunks = new WeakMap<Uint8Array, ChunkInfo>();

/**
 * Buffers of one size that consumers gave back (`releaseChunk`). Every fresh Buffer of a MiB is an
 * ArrayBuffer V8 counts as external memory, and every 64 MiB of it starts a full garbage
 * collection: reusing the read buffers of a large GetFile saves a third of those collections.
 * At most `maxFree` buffers wait here; a chunk never released is simply collected.
 */
class BufferPool {
  private readonly free: Buffer[] = [];

  constructor(
    readonly size: number,
    private readonly maxFree: number,
  ) {}

  /** A buffer for `length` bytes: a given-back one, or a new one of the pool's size or less. */
  take(length: number): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(Math.min(this.size, length));
  }

  give(buffer: Buffer): void {
    if (buffer.length === this.size && this.free.length < this.maxFree) this.free.push(buffer);
  }
}

/** One pool per chunk size in use (GetFile uses one size). */
const pools = new Map<number, BufferPool>();
const POOL_FREE_BYTES = 16 * 1024 * 1024;

function poolFor(chunkBytes: number): BufferPool {
  let pool = pools.get(chunkBytes);
  if (!pool) {
    const size = CHUNK_HEADROOM + chunkBytes;
    pool = new BufferPool(size, Math.max(1, Math.floor(POOL_FREE_BYTES / size)));
    pools.set(chunkBytes, pool);
  }
  return pool;
}

/**
 * The bytes of `range` of a file, in chunks of at most `chunkBytes`, each read straight into its
 * buffer (no stream re-chunking). A consumer that is done with a chunk — its bytes copied or
 * written out — may give it back with `releaseChunk`, and a later read reuses its buffer; a
 * consumer that keeps chunks, or does not know about this, just never releases them. The next
 * chunk is read while the consumer handles the current one.
 */
export async function* readChunks(
  filePath: string,
  range: ByteRange,
  chunkBytes: number,
): AsyncGenerator<Buffer> {
  const pool = poolFor(chunkBytes);
  const handle = await open(filePath, 'r');
  let position = range.start;
  const readNext = async (): Promise<Buffer | null> => {
    const length = Math.min(chunkBytes, range.end + 1 - position);
    if (length <= 0) return null;
    // A small file (or the end of a range) gets a buffer its size, as Node's streams do.
    const buffer = pool.take(CHUNK_HEADROOM + length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(
        buffer,
        CHUNK_HEADROOM + filled,
        length - filled,
        position + filled,
      );
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled === 0) {
      pool.give(buffer);
      return null;
    }
    position += filled;
    const chunk = buffer.subarray(CHUNK_HEADROOM, CHUNK_HEADROOM + filled);
    chunks.set(chunk, { buffer, pool, released: false });
    return chunk;
  };
  let next: Promise<Buffer | null> = readNext();
  try {
    for (;;) {
      const chunk = await next;
      if (!chunk) return;
      next = readNext();
      // A failed read-ahead surfaces when it is awaited, not as an unhandled rejection.
      next.catch(() => undefined);
      yield chunk;
    }
  } finally {
    // The read-ahead may still be running: let it settle before the handle closes.
    const unread = await next.catch(() => null);
    if (unread) releaseChunk(unread);
    await handle.close();
  }
}

/**
 * `chunk` with `header` written in the bytes just before it, as one view over the same memory —
 * or null when the chunk has no such room (not from `readChunks`, or the header is too long).
 */
export function withHeader(chunk: Uint8Array, header: Uint8Array): Buffer | null {
  const info = chunks.get(chunk);
  if (!info || info.released || header.length > chunk.byteOffset - info.buffer.byteOffset)
    return null;
  const start = chunk.byteOffset - info.buffer.byteOffset - header.length;
  info.buffer.set(header, start);
  const framed = info.buffer.subarray(start, start + header.length + chunk.length);
  // The framed view stands for the chunk: releasing either gives the buffer back once.
  chunks.set(framed, info);
  return framed;
}

/**
 * Gives a chunk's buffer back for reuse: the caller promises that nothing reads `chunk` (or a
 * view of it) any more. Any other bytes are ignored.
 */
export function releaseChunk(chunk: Uint8Array): void {
  const info = chunks.get(chunk);
  if (!info || info.released) return;
  info.released = true;
  info.pool.give(info.buffer);
}
