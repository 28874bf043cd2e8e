import { createHash, randomBytes, type Hash } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { BlobHasher } from './blob-hasher.ts';
import { readChunks } from './read-chunks.ts';

/** Node's stream chunk size: what `read` hands out when not told otherwise. */
const READ_CHUNK_BYTES = 64 * 1024;

export interface StoredBlob {
  hash: string;
  sizeBytes: number;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * How far a writer's disk writes may lag behind `write` calls. The caller hashes (and receives)
 * the next bytes while earlier ones are written by libuv's pool, instead of waiting for each
 * write; past this many bytes in flight `write` waits for the oldest.
 */
const WRITE_AHEAD_BYTES = 16 * 1024 * 1024;

export interface WriterOptions {
  /**
   * Hash and write on the blob hasher's worker thread (blob-hasher.ts), not the event loop. The
   * caller hands each chunk over: after `write` it must not read or change it (its ArrayBuffer
   * may be transferred, and then reads as empty). For large uploads (ModifyFile).
   */
  offThread?: boolean;
}

/** A writer's link to the hasher thread: its id, and the end of its writes once asked for. */
interface OffThread {
  hasher: BlobHasher;
  id: number;
  closed: Promise<{ hash: string | null; error: unknown }>;
}

/**
 * Collects bytes into a temp file while hashing; `finish` makes them a durable blob (one fsync).
 * Writes are positional and may still be in flight when `write` returns: the caller must not
 * change bytes it has passed (fresh buffers, as received). A failed write fails the next call.
 */
export class BlobWriter {
  private readonly hasher: Hash = createHash('sha256');
  private size = 0;
  private done = false;
  /** Disk writes not yet settled, oldest first, and how many bytes they hold. */
  private readonly inFlight = new Set<Promise<void>>();
  private lagBytes = 0;
  private failure: { error: unknown } | null = null;
  private readonly offThread: OffThread | null = null;
  /** `write` calls waiting for the hasher thread to catch up. */
  private waiting: (() => void)[] = [];

  constructor(
    private readonly store: BlobStore,
    private readonly handle: FileHandle,
    private readonly tempPath: string,
    hasher?: BlobHasher,
  ) {
    if (!hasher) return;
    let closed: (result: { hash: string | null; error: unknown }) => void = () => undefined;
    const ended = new Promise<{ hash: string | null; error: unknown }>((r) => (closed = r));
    const id = hasher.open(handle.fd, {
      written: (length, error) => {
        this.lagBytes -= length;
        if (error) this.failure ??= { error };
        this.wakeWriters();
      },
      closed: (hash, error) => {
        if (error) this.failure ??= { error };
        this.wakeWriters();
        closed({ hash, error });
      },
    });
    this.offThread = { hasher, id, closed: ended };
  }

  async write(bytes: Uint8Array): Promise<void> {
    this.throwIfFailed();
    if (bytes.length === 0) return;
    if (this.offThread) return this.writeOffThread(this.offThread, bytes);
    this.hasher.update(bytes);
    const position = this.size;
    this.size += bytes.length;
    this.lagBytes += bytes.length;
    const written: Promise<void> = this.writeAt(bytes, position)
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => {
        this.lagBytes -= bytes.length;
        this.inFlight.delete(written);
      });
    this.inFlight.add(written);
    while (this.lagBytes > WRITE_AHEAD_BYTES && this.inFlight.size > 0)
      await this.inFlight.values().next().value;
    this.throwIfFailed();
  }

  private async writeOffThread(offThread: OffThread, bytes: Uint8Array): Promise<void> {
    const position = this.size;
    this.size += bytes.length;
    this.lagBytes += bytes.length;
    offThread.hasher.write(offThread.id, bytes, position);
    while (this.lagBytes > WRITE_AHEAD_BYTES && !this.failure)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.throwIfFailed();
  }

  private wakeWriters(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  /** Waits until the hasher thread has written every byte; their sha256. */
  private async finishOffThread(offThread: OffThread): Promise<string> {
    offThread.hasher.close(offThread.id, 'finish');
    const { hash, error } = await offThread.closed;
    if (error || hash === null) throw error ?? new Error('the blob hasher stopped');
    return hash;
  }

  private async writeAt(bytes: Uint8Array, position: number): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await this.handle.write(
        bytes,
        offset,
        bytes.length - offset,
        position + offset,
      );
      offset += bytesWritten;
    }
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }

  get bytesWritten(): number {
    return this.size;
  }

  /**
   * fsyncs the bytes and moves them to their content address (once per distinct content). A
   * failure (a full disk) removes the temp file before it is thrown: nothing is left behind.
   */
  async finish(): Promise<StoredBlob> {
    let hash: string;
    try {
      await Promise.all(this.inFlight);
      this.throwIfFailed();
      hash = this.offThread
        ? await this.finishOffThread(this.offThread)
        : this.hasher.digest('hex');
      await this.handle.sync();
    } catch (error) {
      await this.abort();
      throw error;
    }
    this.done = true;
    try {
      await this.handle.close();
      await this.store.adopt(this.tempPath, hash);
    } catch (error) {
      await rm(this.tempPath, { force: true });
      throw error;
    }
    return { hash, sizeBytes: this.size };
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await Promise.all(this.inFlight);
    if (this.offThread) {
      this.offThread.hasher.close(this.offThread.id, 'abort');
      await this.offThread.closed;
    }
    await this.handle.close().catch(() => undefined);
    await rm(this.tempPath, { force: true });
  }
}

/**
 * Content-addressed file bytes: <dataDir>/blobs/ab/<sha256 hex>.
 *
 * For the reclaimer (blob-reclaim.ts) the store remembers when each blob was last written or
 * found by `has` (a writer that finds its bytes already stored is about to reference them),
 * which writes are in flight (`beginWrite`), and which blobs are being removed: `has` and
 * `adopt` wait for a removal of the same hash to finish, so a writer never counts on bytes
 * that are going away.
 */
export class BlobStore {
  readonly blobsDir: string;
  readonly tempDir: string;
  private readonly touched = new Map<string, number>();
  private readonly removing = new Map<string, Promise<void>>();
  private readonly writes = new Map<number, number>();
  private nextWrite = 0;
  private readonly hasher = new BlobHasher();
  /** Renames into the blob folders (by this process) whose folder is not synced yet. */
  private unsyncedLandings = 0;
  /**
   * Told of every damaged blob a read meets (bytes that no longer hash to their name, a file
   * shorter or longer than recorded, a missing file): the server logs it. Fsck reports it too.
   */
  onCorrupt: (hash: string, detail: string) => void = () => undefined;

  constructor(dataDir: string) {
    this.blobsDir = path.join(dataDir, 'blobs');
    this.tempDir = path.join(dataDir, 'tmp');
  }

  /** Creates the folders and removes leftovers of interrupted writes. */
  async init(): Promise<void> {
    await mkdir(this.blobsDir, { recursive: true });
    await rm(this.tempDir, { recursive: true, force: true });
    await mkdir(this.tempDir, { recursive: true });
  }

  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`bad blob hash ${hash}`);
    return path.join(this.blobsDir, hash.slice(0, 2), hash);
  }

  async createWriter(options: WriterOptions = {}): Promise<BlobWriter> {
    const tempPath = this.tempPath();
    const handle = await open(tempPath, 'wx');
    return new BlobWriter(this, handle, tempPath, options.offThread ? this.hasher : undefined);
  }

  /** A fresh path under the temp folder (same filesystem as the blobs, so rename is atomic). */
  tempPath(): string {
    return path.join(this.tempDir, randomBytes(12).toString('hex'));
  }

  async writeBytes(bytes: Uint8Array): Promise<StoredBlob> {
    const writer = await this.createWriter();
    try {
      await writer.write(bytes);
      return await writer.finish();
    } catch (error) {
      await writer.abort();
      throw error;
    }
  }

  async writeStream(source: Readable | AsyncIterable<Uint8Array>): Promise<StoredBlob> {
    const writer = await this.createWriter();
    try {
      for await (const chunk of source) await writer.write(chunk as Uint8Array);
      return await writer.finish();
    } catch (error) {
      await writer.abort();
      throw error;
    }
  }

  /**
   * Marks a write that will reference blobs once it ends (ModifyFile, an upload's finish):
   * blobs touched after it began are kept until the returned function is called.
   */
  beginWrite(): () => void {
    const id = this.nextWrite++;
    this.writes.set(id, Date.now());
    return () => this.writes.delete(id);
  }

  /** Blobs touched at or after this time may be about to be referenced. */
  protectedSince(now: number): number {
    let since = now;
    for (const started of this.writes.values()) since = Math.min(since, started);
    return since;
  }

  /** When the blob was last written or found by `has` (0 if not since the start). */
  lastTouched(hash: string): number {
    return this.touched.get(hash) ?? 0;
  }

  /** Forgets touches older than `before` (they no longer protect anything). */
  forgetTouchesBefore(before: number): void {
    for (const [hash, at] of this.touched) if (at < before) this.touched.delete(hash);
  }

  /**
   * Removes a blob unless it was touched at or after `protectedSince` (checked synchronously
   * with the start of the removal). Returns the bytes freed (0 when kept or already gone).
   */
  async remove(hash: string, protectedSince: number): Promise<number> {
    if (this.lastTouched(hash) >= protectedSince || this.removing.has(hash)) return 0;
    let done: () => void = () => undefined;
    this.removing.set(hash, new Promise<void>((resolve) => (done = resolve)));
    try {
      const target = this.pathOf(hash);
      const size = await stat(target).then(
        (s) => s.size,
        () => -1,
      );
      if (size < 0) return 0;
      await unlink(target);
      return size;
    } finally {
      this.removing.delete(hash);
      done();
    }
  }

  /** Every stored blob's hash (unsorted). */
  async list(): Promise<string[]> {
    const hashes: string[] = [];
    for (const prefix of await readdir(this.blobsDir)) {
      for (const name of await readdir(path.join(this.blobsDir, prefix)).catch(() => []))
        if (/^[0-9a-f]{64}$/.test(name)) hashes.push(name);
    }
    return hashes;
  }

  /** Moves a finished, fsynced temp file to its address, or drops it if the content exists. */
  async adopt(tempPath: string, hash: string): Promise<void> {
    const target = this.pathOf(hash);
    this.touched.set(hash, Date.now());
    if (await this.has(hash)) {
      await rm(tempPath, { force: true });
      return;
    }
    const dir = path.dirname(target);
    await mkdir(dir, { recursive: true });
    await this.landing(async () => {
      await rename(tempPath, target);
      await fsyncDir(dir);
    });
  }

  /**
   * Runs `work`, which renames files into the blob folders and then syncs those folders, counted
   * as in flight until it has (a failed one stays counted: nothing is assumed synced after it).
   */
  async landing<T>(work: () => Promise<T>): Promise<T> {
    this.unsyncedLandings++;
    const result = await work();
    this.unsyncedLandings--;
    return result;
  }

  /** Whether every rename into the blob folders this process made has had its folder synced. */
  landingsSynced(): boolean {
    return this.unsyncedLandings === 0;
  }

  async has(hash: string): Promise<boolean> {
    const target = this.pathOf(hash);
    this.touched.set(hash, Date.now());
    await this.removing.get(hash);
    try {
      return (await stat(target)).isFile();
    } catch {
      return false;
    }
  }

  /**
   * The bytes of a blob (or a range), in chunks of `chunkBytes` (default 64 KiB), verified: the
   * whole blob is hashed as it is read and the last chunk is held back until it checks out, so a
   * damaged blob ends the stream with an error (BlobCorruptError, code 15) — never a clean end
   * with wrong bytes. `size`: the size recorded for it (a shorter or longer file is damaged).
   */
  read(hash: string, range?: ByteRange, chunkBytes?: number, size?: number): Readable {
    const whole = range ?? { start: 0, end: Number.MAX_SAFE_INTEGER - 1 };
    return Readable.from(this.readChunks(hash, whole, chunkBytes ?? READ_CHUNK_BYTES, size), {
      objectMode: false,
    });
  }

  /**
   * The bytes of a blob (or a range) in chunks of `chunkBytes`, each read into its own buffer,
   * which the consumer may give back for reuse (read-chunks.ts: GetFile); verified as `read`.
   */
  readChunks(
    hash: string,
    range: ByteRange,
    chunkBytes: number,
    size?: number,
  ): AsyncGenerator<Buffer> {
    return readChunks(this.pathOf(hash), range, chunkBytes, {
      hash,
      size,
      onCorrupt: (damaged, detail) => this.onCorrupt(damaged, detail),
    });
  }

  /** True when the stored bytes still hash to their name. */
  async verify(hash: string): Promise<boolean> {
    if (!(await this.has(hash))) return false;
    const hasher = createHash('sha256');
    const range = { start: 0, end: Number.MAX_SAFE_INTEGER - 1 };
    for await (const chunk of readChunks(this.pathOf(hash), range, READ_CHUNK_BYTES))
      hasher.update(chunk);
    return hasher.digest('hex') === hash;
  }

  /** Number of stored blobs (used by tests and diagnostics). */
  async count(): Promise<number> {
    let total = 0;
    for (const prefix of await readdir(this.blobsDir)) {
      total += (await readdir(path.join(this.blobsDir, prefix))).length;
    }
    return total;
  }
}

export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
