// Receiving an upload's chunks: checking a chunk's fields, streaming its bytes into the file's
// staging (in place when chunks arrive in order), comparing repeated chunks, recording them.
import { createHash, type Hash } from 'node:crypto';
import { fsyncSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { failedPrecondition, invalidArgument, type ApiError } from '../errors.ts';
import { normaliseRelativeName } from '../platform/pfs/file-paths.ts';
import type { BlobStore } from '../platform/storage/blob-store.ts';
import type { Db } from '../platform/storage/database.ts';
import type { UploadLander } from './upload-lander.ts';
import { BatchedWriter } from './batched-writer.ts';
import type { FaultInjector } from './fault-injection.ts';
import { DATA, UploadStaging, exists, readMarker, type FileState } from './upload-staging.ts';

/** Which chunk of which file a request carries. */
export interface ChunkId {
  uploadId: string;
  fileName: string;
  chunkTotal: number;
  currentChunk: number;
}

/** The bytes of one chunk as they arrive (a multipart file part, or a temp file). */
export type ChunkSource = AsyncIterable<Buffer> & {
  /** Set by multipart parsing when the part was cut at the size limit. */
  truncated?: boolean;
  destroy?(error?: Error): void;
};

export interface ReceiveOptions {
  /** The request's size, for the `upload-chunk-mid` fault point. */
  requestBytes?: number;
  /** The chunk's size limit (the message of a truncated part). */
  maxBytes?: number;
  /** Runs after the bytes are staged, before they are recorded (may throw to drop them). */
  beforeRecord?: () => void;
}

/** A chunk request being received; `finish` cancels these and waits for them to settle. */
interface InFlight {
  cancel(): void;
  done: Promise<unknown>;
}

/** Takes an upload's chunks into its staging; finish and expiry live in UploadSessions. */
export class ChunkReceiver extends UploadStaging {
  protected readonly finishing = new Set<string>();
  protected readonly inFlight = new Map<string, Set<InFlight>>();
  private readonly locks = new Map<string, Promise<void>>();
  private readonly writingBack = new Set<string>();
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(
    db: Db,
    blobs: BlobStore,
    dataDir: string,
    protected readonly faults: FaultInjector,
    protected readonly lander: UploadLander | null,
  ) {
    super(db, blobs, dataDir);
  }

  /** Validates a chunk's fields before its bytes are kept (throws with a clear message). */
  checkChunk(uploadId: string, fileName: string, chunkTotal: number, currentChunk: number): void {
    this.getUpload(uploadId);
    checkUploadName(fileName);
    if (!Number.isInteger(chunkTotal) || chunkTotal < 1)
      throw invalidArgument('chunkTotal must be a positive integer');
    if (!Number.isInteger(currentChunk) || currentChunk < 0 || currentChunk >= chunkTotal) {
      throw invalidArgument(`currentChunk ${currentChunk} is outside [0, ${chunkTotal})`);
    }
    const known = this.db
      .prepare('SELECT chunk_total FROM upload_files WHERE upload_id = ? AND file_name = ?')
      .pluck()
      .get(uploadId, fileName);
    if (typeof known === 'number' && known !== chunkTotal) {
      throw invalidArgument(
        `chunkTotal ${chunkTotal} differs from ${known} given earlier for ${fileName}`,
      );
    }
    if (known === undefined) this.checkNoClash(uploadId, fileName);
    if (this.finishing.has(uploadId))
      throw failedPrecondition(`upload ${uploadId} is finishing; it takes no more chunks`);
  }

  /** A new name must not be a folder of another file of the upload, nor inside one. */
  private checkNoClash(uploadId: string, fileName: string): void {
    const clash = this.db
      .prepare(
        `SELECT file_name FROM upload_files WHERE upload_id = ?
           AND (substr(?, 1, length(file_name) + 1) = file_name || '/'
             OR substr(file_name, 1, length(?) + 1) = ? || '/')
           LIMIT 1`,
      )
      .pluck()
      .get(uploadId, fileName, fileName, fileName);
    if (typeof clash === 'string')
      throw invalidArgument(
        `fileName ${JSON.stringify(fileName)} clashes with ${JSON.stringify(clash)} in this upload: one would be a folder of the other`,
      );
  }

  /**
   * Receives one chunk's bytes and records it; a repeated chunk must have identical bytes (it is
   * compared with the kept ones, then dropped). Returns the file's received chunk indexes.
   * Throws before reading `source` when the fields are invalid (the caller drains it).
   */
  async receiveChunk(
    chunk: ChunkId,
    source: ChunkSource,
    options: ReceiveOptions = {},
  ): Promise<number[]> {
    const { uploadId, fileName, chunkTotal, currentChunk } = chunk;
    this.checkChunk(uploadId, fileName, chunkTotal, currentChunk);
    let cancelled = false;
    const work = this.receive(chunk, source, options, () => cancelled);
    const entry: InFlight = {
      cancel: () => {
        cancelled = true;
        source.destroy?.(failedPrecondition(`upload ${uploadId} is finishing`));
      },
      done: work.catch(() => undefined),
    };
    let set = this.inFlight.get(uploadId);
    if (!set) this.inFlight.set(uploadId, (set = new Set()));
    set.add(entry);
    try {
      return await work;
    } finally {
      set.delete(entry);
      if (set.size === 0 && this.inFlight.get(uploadId) === set) this.inFlight.delete(uploadId);
    }
  }

  private async receive(
    chunk: ChunkId,
    source: ChunkSource,
    options: ReceiveOptions,
    cancelled: () => boolean,
  ): Promise<number[]> {
    const { uploadId, fileName, currentChunk } = chunk;
    const dir = this.fileDir(uploadId, fileName);
    const key = this.stateKey(uploadId, fileName);
    let state = await this.afterPrevious(chunk, key, cancelled);
    const known = this.chunkSize(uploadId, fileName, currentChunk) !== undefined;
    if (
      !known &&
      !state &&
      currentChunk === 0 &&
      this.receivedChunks(uploadId, fileName).length === 0
    ) {
      state = { appended: 0, bytes: 0, hasher: createHash('sha256'), busy: null };
      this.states.set(key, state);
      this.changed(key);
    }
    const append = !known && state !== undefined && state.appended === currentChunk && !state.busy;

    if (append && state) {
      // In order: stream straight into the file's staging file, extending the running hash.
      let settle = () => {};
      state.busy = new Promise<void>((resolve) => (settle = resolve));
      this.changed(key);
      const dataPath = path.join(dir, DATA);
      const start = state.bytes;
      const hasher = state.hasher.copy();
      let kept = false;
      try {
        await mkdir(dir, { recursive: true });
        const sizeBytes = await this.writeChunk(
          dataPath,
          currentChunk === 0 ? 'w' : 'r+',
          start,
          source,
          hasher,
          chunk,
          options,
        );
        options.beforeRecord?.();
        if (cancelled()) throw failedPrecondition(`upload ${uploadId} is finishing`);
        const sizeKept = await this.locked(key, async () => {
          if (this.chunkSize(uploadId, fileName, currentChunk) !== undefined) {
            // A parallel request recorded the same chunk meanwhile: compare, then drop ours.
            if (!(await this.sameAsKept(chunk, { path: dataPath, offset: start }, sizeBytes)))
              throw conflict(chunk);
            return false;
          }
          // A stale file of this index (from before a crash, never recorded) must not shadow it.
          await rm(path.join(dir, String(currentChunk)), { force: true });
          this.record(chunk, sizeBytes);
          return true;
        });
        if (sizeKept) {
          state.appended = currentChunk + 1;
          state.bytes = start + sizeBytes;
          state.hasher = hasher;
          kept = true;
          if (currentChunk === chunk.chunkTotal - 1) this.writeBack(dataPath);
        }
      } finally {
        if (!kept) await this.truncate(dataPath, start).catch(() => undefined);
        state.busy = null;
        settle();
        this.changed(key);
      }
      return this.receivedChunks(uploadId, fileName);
    }

    // Out of order, repeated, or the running hash is gone: stage the chunk on its own.
    const tempPath = this.blobs.tempPath();
    try {
      const sizeBytes = await this.writeChunk(tempPath, 'wx', 0, source, null, chunk, options);
      options.beforeRecord?.();
      if (cancelled()) throw failedPrecondition(`upload ${uploadId} is finishing`);
      await this.locked(key, async () => {
        if (this.chunkSize(uploadId, fileName, currentChunk) !== undefined) {
          if (!(await this.sameAsKept(chunk, { path: tempPath, offset: 0 }, sizeBytes)))
            throw conflict(chunk);
          return;
        }
        await mkdir(dir, { recursive: true });
        await rename(tempPath, path.join(dir, String(currentChunk)));
        this.record(chunk, sizeBytes);
      });
      return this.receivedChunks(uploadId, fileName);
    } finally {
      await rm(tempPath, { force: true });
    }
  }

  /**
   * Waits while the chunk right before this one is expected in the file's `data` but not kept
   * yet (a client keeps two chunks in flight): while it streams in, until it is kept; before it
   * arrived (the two requests crossed), at most `nextChunkWaitMs` for it to start. Meanwhile
   * this chunk's bytes are held back by its socket; after, it appends in place instead of being
   * staged on its own and copied again at finish. Returns the file's state.
   */
  private async afterPrevious(
    chunk: ChunkId,
    key: string,
    cancelled: () => boolean,
  ): Promise<FileState | undefined> {
    const { uploadId, fileName, currentChunk } = chunk;
    const deadline = Date.now() + nextChunkWaitMs;
    for (;;) {
      const state = this.states.get(key);
      const previousPending = state
        ? state.appended === currentChunk - 1
        : currentChunk === 1 && this.chunkSize(uploadId, fileName, 0) === undefined;
      if (!previousPending || cancelled()) return state;
      if (state?.busy) {
        await state.busy;
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) return state;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        const listeners = this.listeners.get(key) ?? new Set<() => void>();
        this.listeners.set(key, listeners);
        listeners.add(done);
        function done() {
          clearTimeout(timer);
          listeners.delete(done);
          resolve();
        }
      });
    }
  }

  /** Wakes the chunks waiting in afterPrevious for this file. */
  private changed(key: string): void {
    const listeners = this.listeners.get(key);
    if (!listeners) return;
    this.listeners.delete(key);
    for (const listener of listeners) listener();
  }

  /**
   * Streams `source` into `target` at `start`, in large batched writes (BatchedWriter), extending
   * `hasher` (no fsync: finish fsyncs once per file).
   */
  private async writeChunk(
    target: string,
    flags: string,
    start: number,
    source: ChunkSource,
    hasher: Hash | null,
    chunk: ChunkId,
    options: ReceiveOptions,
  ): Promise<number> {
    const handle = await open(target, flags);
    const writer = new BatchedWriter(handle, start);
    let sizeBytes = 0;
    const crashMid = chunk.currentChunk > 0 && this.faults.armed('upload-chunk-mid');
    try {
      for await (const bytes of source) {
        hasher?.update(bytes);
        sizeBytes += bytes.length;
        await writer.write(bytes);
        if (crashMid && sizeBytes >= (options.requestBytes ?? 0) / 2) {
          await writer.flush();
          fsyncSync(handle.fd);
          this.faults.crashAt('upload-chunk-mid');
        }
      }
      if (source.truncated) {
        throw invalidArgument(`a chunk may be at most ${options.maxBytes ?? 0} bytes`);
      }
      await writer.flush();
      return sizeBytes;
    } catch (error) {
      await writer.settle();
      throw error;
    } finally {
      await handle.close();
    }
  }

  /**
   * Starts writing a staging file's bytes to disk (fdatasync) without waiting for it, once per
   * file, when its last chunk is appended: finish, which fsyncs every file before it lands, then
   * finds little left to write, and the disk works while the next file's chunks arrive. Failures
   * are left to finish's fsync. (Once per chunk cost a journal commit and a disk flush per 20 MiB
   * and about twice the kernel CPU of an upload's thread pool.) (In cluster mode the bytes go to
   * the cluster instead, unsynced.)
   */
  private writeBack(file: string): void {
    if (this.lander || this.writingBack.has(file)) return;
    this.writingBack.add(file);
    void (async () => {
      const handle = await open(file, 'r');
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
    })()
      .catch(() => undefined)
      .finally(() => this.writingBack.delete(file));
  }

  private async truncate(file: string, length: number): Promise<void> {
    const handle = await open(file, 'r+');
    try {
      if ((await handle.stat()).size !== length) await handle.truncate(length);
    } finally {
      await handle.close();
    }
  }

  /** True when `sizeBytes` bytes at `candidate` equal the kept copy of the chunk. */
  private async sameAsKept(
    chunk: ChunkId,
    candidate: { path: string; offset: number },
    sizeBytes: number,
  ): Promise<boolean> {
    const { uploadId, fileName, currentChunk } = chunk;
    if (this.chunkSize(uploadId, fileName, currentChunk) !== sizeBytes) return false;
    const dir = this.fileDir(uploadId, fileName);
    const own = path.join(dir, String(currentChunk));
    if (await exists(own)) return sameBytes(candidate, { path: own, offset: 0 }, sizeBytes);
    const offset = this.sizes(uploadId, fileName)
      .slice(0, currentChunk)
      .reduce((sum, size) => sum + size, 0);
    const moved = await readMarker(dir);
    const kept = moved ? this.blobs.pathOf(moved.hash) : path.join(dir, DATA);
    return sameBytes(candidate, { path: kept, offset }, sizeBytes);
  }

  /** Runs `fn` alone among the callers with the same key (placing and recording a chunk). */
  private async locked<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.locks.get(key) ?? Promise.resolve();
    const run = before.then(fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.locks.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    }
  }
}

/** How long a chunk waits for the one before it to start streaming in (afterPrevious). */
const nextChunkWaitMs = 250;

/**
 * An upload file name is a relative path of plain segments: no empty segment (so no leading,
 * trailing or doubled slash), no `.` or `..`, no control characters — so two different names
 * never land at the same path.
 */
function checkUploadName(fileName: string): void {
  if (!fileName) throw invalidArgument('fileName is required');
  const segments = fileName.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..')
      throw invalidArgument(
        `fileName ${JSON.stringify(fileName)} must be a relative path without empty, "." or ".." segments (no leading, trailing or doubled "/")`,
      );
  }
  normaliseRelativeName(fileName);
}

function conflict(chunk: ChunkId): ApiError {
  return invalidArgument(
    `chunk ${chunk.currentChunk} of ${chunk.fileName} was already received with different bytes`,
  );
}

/** Compares `length` bytes of two files, each from its offset. */
async function sameBytes(
  left: { path: string; offset: number },
  right: { path: string; offset: number },
  length: number,
): Promise<boolean> {
  const [a, b] = await Promise.all([open(left.path, 'r'), open(right.path, 'r')]);
  try {
    const size = Math.min(length, 1024 * 1024);
    const x = Buffer.alloc(size);
    const y = Buffer.alloc(size);
    for (let done = 0; done < length;) {
      const want = Math.min(size, length - done);
      const [readX, readY] = await Promise.all([
        a.read(x, 0, want, left.offset + done),
        b.read(y, 0, want, right.offset + done),
      ]);
      if (readX.bytesRead !== want || readY.bytesRead !== want) return false;
      if (!x.subarray(0, want).equals(y.subarray(0, want))) return false;
      done += want;
    }
    return true;
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}
