import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { ApiError, Code } from '../../errors.ts';
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
 * What a verified read checks: the whole file must hash to `hash` (sha256, hex) and, when given,
 * hold `size` bytes. Whatever the range read, every byte of the file is hashed.
 */
export interface ReadVerification {
  hash: string;
  size?: number;
  /** Called once when the check fails (the store logs it), before the read ends with an error. */
  onCorrupt?: (hash: string, detail: string) => void;
}

/** A blob whose bytes no longer hash to its name, or that is shorter or longer than recorded. */
export class BlobCorruptError extends ApiError {
  constructor(
    readonly hash: string,
    readonly detail: string,
  ) {
    super(
      Code.DATA_LOSS,
      `the stored bytes of blob ${hash} are damaged (${detail}); nothing more is served from it (run Fsck)`,
    );
    this.name = 'BlobCorruptError';
  }
}

/**
 * The bytes of `range` of a file, in chunks of at most `chunkBytes`, each read straight into its
 * buffer (no stream re-chunking). A consumer that is done with a chunk — its bytes copied or
 * written out — may give it back with `releaseChunk`, and a later read reuses its buffer; a
 * consumer that keeps chunks, or does not know about this, just never releases them. The next
 * chunk is read while the consumer handles the current one.
 *
 * With `verify`, the whole file is hashed as it is read (the bytes before and after the range
 * too) and the range's last chunk is held back until the hash is checked: a damaged or
 * truncated file ends the read with a BlobCorruptError (code 15), never with a clean end.
 */
export async function* readChunks(
  filePath: string,
  range: ByteRange,
  chunkBytes: number,
  verify?: ReadVerification,
): AsyncGenerator<Buffer> {
  const pool = poolFor(chunkBytes);
  let handle: FileHandle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    if (!verify || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    verify.onCorrupt?.(verify.hash, 'its file is missing');
    throw new BlobCorruptError(verify.hash, 'its file is missing');
  }
  const hasher = verify ? createHash('sha256') : null;
  let hashed = 0;
  let position = range.start;
  const fail = (detail: string): never => {
    verify?.onCorrupt?.(verify.hash, detail);
    throw new BlobCorruptError(verify?.hash ?? '', detail);
  };
  /** Hashes the file's bytes in [from, to) (outside the range), through a scratch buffer. */
  const hashSpan = async (from: number, to: number): Promise<void> => {
    if (!hasher || from >= to) return;
    const scratch = pool.take(CHUNK_HEADROOM + Math.min(chunkBytes, to - from));
    try {
      for (let at = from; at < to;) {
        const length = Math.min(scratch.length, to - at);
        const { bytesRead } = await handle.read(scratch, 0, length, at);
        if (bytesRead === 0) return;
        hasher.update(scratch.subarray(0, bytesRead));
        hashed += bytesRead;
        at += bytesRead;
      }
    } finally {
      pool.give(scratch);
    }
  };
  /** After the range: the rest of the file hashed, then the whole compared. */
  const check = async (): Promise<void> => {
    if (!hasher || !verify) return;
    await hashSpan(hashed, verify.size ?? Number.MAX_SAFE_INTEGER);
    if (verify.size !== undefined) {
      if (hashed < verify.size) fail(`${hashed} of its ${verify.size} bytes are left`);
      const probe = Buffer.alloc(1);
      if ((await handle.read(probe, 0, 1, verify.size)).bytesRead > 0)
        fail(`it holds more than its ${verify.size} bytes`);
    }
    const digest = hasher.digest('hex');
    if (digest !== verify.hash) fail(`its bytes hash to ${digest}`);
  };
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
    if (hasher) {
      hasher.update(chunk);
      hashed += filled;
    }
    chunks.set(chunk, { buffer, pool, released: false });
    return chunk;
  };
  let next: Promise<Buffer | null> | null = null;
  try {
    if (hasher) {
      await hashSpan(0, range.start);
      if (hashed < range.start) await check();
    }
    next = readNext();
    if (!hasher) {
      for (;;) {
        const chunk = await next;
        if (!chunk) return;
        next = readNext();
        // A failed read-ahead surfaces when it is awaited, not as an unhandled rejection.
        next.catch(() => undefined);
        yield chunk;
      }
    }
    // Verified: a chunk goes out once the one after it is read (and hashed), the last once the
    // whole file checks out; one read is in flight while the consumer handles a chunk.
    let current = await next;
    next = current ? readNext() : null;
    while (current) {
      const following = await next;
      next = null;
      if (!following) {
        await check();
        yield current;
        return;
      }
      next = readNext();
      next.catch(() => undefined);
      yield current;
      current = following;
    }
    await check();
  } finally {
    // The read-ahead may still be running: let it settle before the handle closes.
    const unread = next ? await next.catch(() => null) : null;
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
