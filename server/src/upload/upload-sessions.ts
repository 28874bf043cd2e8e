import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createReadStream, existsSync, fsyncSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, Code, failedPrecondition, invalidArgument, notFound } from '../errors.ts';
import { normalisePath, normaliseRelativeName } from '../platform/pfs/file-paths.ts';
import { validateName } from '../platform/pfs/names.ts';
import type { NewFile, PfsStore } from '../platform/pfs/pfs-store.ts';
import { isOpen } from '../platform/pfs/rows.ts';
import { fsyncDir, type BlobStore } from '../platform/storage/blob-store.ts';
import { withoutFsync, type Db } from '../platform/storage/database.ts';
import {
  landStagedUpload,
  type LandedCommit,
  type StagedPart,
  type UploadLander,
} from '../proxy/cluster-upload.ts';
import { BatchedWriter } from './batched-writer.ts';
import type { FaultInjector } from './fault-injection.ts';

export interface UploadStart {
  path: string;
  repo: string;
  branch: string;
  description: string;
  project: string;
}

interface UploadRow {
  id: string;
  project: string;
  repo: string;
  branch: string;
  path: string;
  description: string;
  created_at: number;
  updated_at: number;
}

interface UploadFileRow {
  file_name: string;
  chunk_total: number;
}

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

export interface UploadFileStatus {
  fileName: string;
  chunkTotal: number;
  received: number[];
}

/**
 * In-process state of a file whose chunks arrive in order: chunks [0, appended) are in its
 * staging file (`bytes` long) and `hasher` has seen exactly those bytes. Lost on restart (the
 * chunks that follow are then staged one file per chunk and `finish` reads the prefix back).
 */
interface FileState {
  appended: number;
  bytes: number;
  hasher: Hash;
  /** Set while a chunk streams into `data`; settles when that chunk is kept or dropped. */
  busy: Promise<void> | null;
}

/** A chunk request being received; `finish` cancels these and waits for them to settle. */
interface InFlight {
  cancel(): void;
  done: Promise<unknown>;
}

/** Written next to a file's staging bytes right before they move into the blob store. */
interface MovedMarker {
  hash: string;
  sizeBytes: number;
}

const DATA = 'data';
/** How long a finished upload's commit is remembered for a retried finish. */
const finishedKeptMs = 24 * 60 * 60 * 1000;
const MOVED = 'moved.json';

/**
 * Chunked uploads: sessions and chunk bookkeeping in SQLite, bytes staged on disk under
 * <dataDir>/uploads/<uploadId>/<encoded file name>/:
 *
 * - `data`: the file's bytes. Chunks that arrive in order (0, 1, 2, …, the upload modal's
 *   order) are appended to it as they stream in, while a running sha256 of the file is kept in
 *   memory; no other copy is made and nothing is read back.
 * - `<index>`: a chunk that arrived out of order (or after a restart, when the running hash is
 *   gone) waits in a file of its own. The `data` file holds exactly the leading received chunks
 *   that have no such file.
 *
 * `finish` completes each `data` file (appends the waiting chunks; reads `data` back to hash it
 * only when the running hash is not available), fsyncs it once, and renames it into the blob
 * store under its sha256 (same filesystem; the blob folder is fsynced), then lands all files in
 * one commit in one SQLite transaction. A `moved.json` marker, fsynced before the rename, lets a
 * finish that was interrupted after some files moved find them in the blob store. In cluster
 * mode (`lander` set) the staged bytes are streamed to the cluster instead (landStagedUpload).
 */
export class UploadSessions {
  readonly uploadsDir: string;
  private readonly finishing = new Set<string>();
  private readonly states = new Map<string, FileState>();
  private readonly inFlight = new Map<string, Set<InFlight>>();
  private readonly locks = new Map<string, Promise<void>>();
  private readonly writingBack = new Set<string>();
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(
    private readonly db: Db,
    private readonly pfs: PfsStore,
    private readonly blobs: BlobStore,
    dataDir: string,
    private readonly faults: FaultInjector,
    private readonly lander: UploadLander | null = null,
  ) {
    this.uploadsDir = path.join(dataDir, 'uploads');
  }

  async init(): Promise<void> {
    await mkdir(this.uploadsDir, { recursive: true });
  }

  start(request: UploadStart): string {
    validateName('repo', request.repo);
    validateName('branch', request.branch);
    const base = normalisePath(request.path);
    // In cluster mode the repo lives on the cluster, which checks it when the upload lands.
    if (!this.lander) {
      this.pfs.getRepo({ project: request.project, name: request.repo, type: 'user' });
    }
    const id = randomBytes(16).toString('hex');
    const now = Date.now();
    this.db
      .prepare(
        `INSERT INTO uploads (id, project, repo, branch, path, description, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, request.project, request.repo, request.branch, base, request.description, now, now);
    return id;
  }

  private getUpload(uploadId: string): UploadRow {
    const upload = this.db.prepare('SELECT * FROM uploads WHERE id = ?').get(uploadId) as
      UploadRow | undefined;
    if (!upload) throw notFound(`upload ${uploadId} not found`);
    return upload;
  }

  /** Blobs an interrupted finish already moved (named by moved.json markers): still in use. */
  async movedHashes(): Promise<string[]> {
    const hashes: string[] = [];
    for (const upload of await readdir(this.uploadsDir).catch(() => [] as string[])) {
      const uploadDir = path.join(this.uploadsDir, upload);
      for (const file of await readdir(uploadDir).catch(() => [] as string[])) {
        const marker = await readMarker(path.join(uploadDir, file));
        if (marker) hashes.push(marker.hash);
      }
    }
    return hashes;
  }

  /**
   * A file's staging folder, named by the sha256 of its name (any name the platform accepts
   * fits in one path segment). Uploads staged before this naming keep their old folder.
   */
  private fileDir(uploadId: string, fileName: string): string {
    const legacy = encodeURIComponent(fileName);
    if (legacy.length <= 200 && existsSync(path.join(this.uploadsDir, uploadId, legacy)))
      return path.join(this.uploadsDir, uploadId, legacy);
    return path.join(
      this.uploadsDir,
      uploadId,
      createHash('sha256').update(fileName).digest('hex'),
    );
  }

  private stateKey(uploadId: string, fileName: string): string {
    return `${uploadId}\0${fileName}`;
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

  private chunkSize(uploadId: string, fileName: string, index: number): number | undefined {
    return this.db
      .prepare(
        'SELECT size_bytes FROM upload_chunks WHERE upload_id = ? AND file_name = ? AND idx = ?',
      )
      .pluck()
      .get(uploadId, fileName, index) as number | undefined;
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

  /**
   * Records a staged chunk. The row need not survive a power cut (its bytes are not fsynced
   * before finish either): finish checks the staged bytes against these rows (`layout`) and
   * forgets what is missing, and status then asks for it again. So the commit skips the WAL
   * fsync, which would otherwise hold up every chunk.
   */
  private record(chunk: ChunkId, sizeBytes: number): void {
    const { uploadId, fileName, chunkTotal, currentChunk } = chunk;
    const now = Date.now();
    withoutFsync(
      this.db,
      this.db.transaction(() => {
        this.getUpload(uploadId);
        this.db
          .prepare(
            'INSERT OR IGNORE INTO upload_files (upload_id, file_name, chunk_total) VALUES (?, ?, ?)',
          )
          .run(uploadId, fileName, chunkTotal);
        // Chunks are compared by their bytes, not a hash: the hash column stays empty.
        this.db
          .prepare(
            "INSERT INTO upload_chunks (upload_id, file_name, idx, size_bytes, hash) VALUES (?, ?, ?, ?, '')",
          )
          .run(uploadId, fileName, currentChunk, sizeBytes);
        this.db.prepare('UPDATE uploads SET updated_at = ? WHERE id = ?').run(now, uploadId);
      }),
    );
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

  private sizes(uploadId: string, fileName: string): number[] {
    return this.db
      .prepare(
        'SELECT size_bytes FROM upload_chunks WHERE upload_id = ? AND file_name = ? ORDER BY idx',
      )
      .pluck()
      .all(uploadId, fileName) as number[];
  }

  private receivedChunks(uploadId: string, fileName: string): number[] {
    return this.db
      .prepare('SELECT idx FROM upload_chunks WHERE upload_id = ? AND file_name = ? ORDER BY idx')
      .pluck()
      .all(uploadId, fileName) as number[];
  }

  status(uploadId: string): { uploadId: string; files: UploadFileStatus[] } {
    this.getUpload(uploadId);
    const files = this.db
      .prepare(
        'SELECT file_name, chunk_total FROM upload_files WHERE upload_id = ? ORDER BY file_name',
      )
      .all(uploadId) as UploadFileRow[];
    return {
      uploadId,
      files: files.map((file) => ({
        fileName: file.file_name,
        chunkTotal: file.chunk_total,
        received: this.receivedChunks(uploadId, file.file_name),
      })),
    };
  }

  /**
   * Lands every file of the upload in one new finished commit; nothing lands on failure. In
   * cluster mode the commit is made on the cluster with the caller's `pachToken`.
   */
  async finish(uploadId: string, description: string, pachToken = ''): Promise<LandedCommit> {
    // A retry whose first answer was lost gets the same commit.
    const landedBefore = this.db
      .prepare('SELECT commit_id FROM upload_finished WHERE upload_id = ?')
      .pluck()
      .get(uploadId);
    if (typeof landedBefore === 'string') return { id: landedBefore };
    const upload = this.getUpload(uploadId);
    if (this.finishing.has(uploadId))
      throw failedPrecondition(`upload ${uploadId} is already finishing`);
    this.finishing.add(uploadId);
    const endWrite = this.blobs.beginWrite();
    try {
      // Chunks still streaming in are stopped: from here on finish alone touches the staging.
      const running = [...(this.inFlight.get(uploadId) ?? [])];
      for (const entry of running) entry.cancel();
      await Promise.all(running.map((entry) => entry.done));
      const files = this.completeFiles(upload);
      const text = description || upload.description;
      if (this.lander) {
        const landed = await landStagedUpload(
          this.lander,
          {
            upload,
            files,
            receivedChunks: (fileName) => this.receivedChunks(uploadId, fileName).length,
            partsOf: (fileName) => this.stagedParts(uploadId, fileName),
          },
          text,
          pachToken,
        );
        this.db.transaction(() => {
          this.db.prepare('DELETE FROM uploads WHERE id = ?').run(uploadId);
          this.recordFinished(uploadId, landed.id);
        })();
        await this.dropStaging(uploadId);
        return landed;
      }
      const repo = this.localTarget(upload);
      // Several files at once: their fsyncs (data, marker, folders) overlap instead of queueing.
      const landed = await mapLimited(files, storeConcurrency, async (file) => {
        const entry = await this.storeFile(upload, file);
        this.faults.crashAt('upload-finish-mid-blobs');
        return entry;
      });
      this.faults.crashAt('upload-finish-after-blobs');
      const commit = this.pfs.landCommit(repo, upload.branch, text, landed, [], (id) => {
        this.db.prepare('DELETE FROM uploads WHERE id = ?').run(uploadId);
        this.recordFinished(uploadId, id);
        this.faults.crashAt('upload-finish-mid-transaction');
      });
      await this.dropStaging(uploadId);
      return commit;
    } finally {
      endWrite();
      this.finishing.delete(uploadId);
    }
  }

  /** Remembers the commit an upload landed in (kept a day, for retried finishes). */
  private recordFinished(uploadId: string, commitId: string): void {
    const now = Date.now();
    this.db.prepare('DELETE FROM upload_finished WHERE finished_at < ?').run(now - finishedKeptMs);
    this.db
      .prepare(
        'INSERT OR REPLACE INTO upload_finished (upload_id, commit_id, finished_at) VALUES (?, ?, ?)',
      )
      .run(uploadId, commitId, now);
  }

  private async dropStaging(uploadId: string): Promise<void> {
    for (const key of this.states.keys()) {
      if (key.startsWith(`${uploadId}\0`)) this.states.delete(key);
    }
    await rm(path.join(this.uploadsDir, uploadId), { recursive: true, force: true });
  }

  private completeFiles(upload: UploadRow): UploadFileRow[] {
    const files = this.db
      .prepare(
        'SELECT file_name, chunk_total FROM upload_files WHERE upload_id = ? ORDER BY file_name',
      )
      .all(upload.id) as UploadFileRow[];
    if (files.length === 0) throw failedPrecondition(`upload ${upload.id} has no files`);
    for (const file of files) {
      const received = this.receivedChunks(upload.id, file.file_name).length;
      if (received !== file.chunk_total) {
        throw failedPrecondition(
          `file ${file.file_name} is incomplete: received ${received} of ${file.chunk_total} chunks`,
        );
      }
    }
    return files;
  }

  private localTarget(upload: UploadRow) {
    const repo = this.pfs.getRepo({ project: upload.project, name: upload.repo, type: 'user' });
    const branch = this.pfs.findBranch(repo, upload.branch);
    const head = branch?.head_rowid ? this.pfs.commitByRowid(branch.head_rowid) : null;
    if (head && isOpen(head)) {
      throw failedPrecondition(
        `branch ${upload.branch} has an open commit ${head.id}; finish it first`,
      );
    }
    return repo;
  }

  /**
   * Where a complete file's bytes are staged: the leading chunks in `data`, the others in files
   * of their own. Checks the sizes on disk against the recorded ones; chunks whose bytes are
   * missing (a power cut before finish fsynced them) are forgotten, so status asks for them again.
   */
  private async layout(uploadId: string, fileName: string) {
    const dir = this.fileDir(uploadId, fileName);
    const sizes = this.sizes(uploadId, fileName);
    const own = new Set(
      (await readdir(dir).catch(() => [] as string[])).filter((name) => /^\d+$/.test(name)),
    );
    let prefix = 0;
    let prefixBytes = 0;
    while (prefix < sizes.length && !own.has(String(prefix))) prefixBytes += sizes[prefix++]!;
    const dataPath = path.join(dir, DATA);
    const dataBytes = prefix === 0 ? 0 : ((await stat(dataPath).catch(() => null))?.size ?? -1);
    const lost: number[] = [];
    if (dataBytes < prefixBytes) lost.push(...sizes.keys());
    else {
      for (let index = prefix; index < sizes.length; index++) {
        const size = (await stat(path.join(dir, String(index))).catch(() => null))?.size;
        if (size !== sizes[index]) lost.push(index);
      }
    }
    if (lost.length > 0) {
      const forget = this.db.prepare(
        'DELETE FROM upload_chunks WHERE upload_id = ? AND file_name = ? AND idx = ?',
      );
      this.db.transaction(() => {
        for (const index of lost) forget.run(uploadId, fileName, index);
      })();
      this.states.delete(this.stateKey(uploadId, fileName));
      throw failedPrecondition(
        `the staged bytes of ${fileName} (chunks ${lost.join(', ')}) are gone; send them again`,
      );
    }
    return { dir, dataPath, sizes, prefix, prefixBytes };
  }

  /** The file's bytes in order, for the cluster lander (no copy, no hashing). */
  private async stagedParts(uploadId: string, fileName: string): Promise<StagedPart[]> {
    const { dir, dataPath, sizes, prefix, prefixBytes } = await this.layout(uploadId, fileName);
    const parts: StagedPart[] = [];
    if (prefix > 0) parts.push({ path: dataPath, bytes: prefixBytes });
    for (let index = prefix; index < sizes.length; index++)
      parts.push({ path: path.join(dir, String(index)), bytes: sizes[index]! });
    return parts;
  }

  /** Moves one complete file's bytes into the blob store (durably) and returns its entry. */
  private async storeFile(upload: UploadRow, file: UploadFileRow): Promise<NewFile> {
    const target = normalisePath(`${upload.path}/${normaliseRelativeName(file.file_name)}`);
    const dir = this.fileDir(upload.id, file.file_name);
    const dataPath = path.join(dir, DATA);
    let moved = await readMarker(dir);
    if (!moved) {
      moved = await this.completeData(upload.id, file.file_name);
      // The marker is durable before the bytes leave the staging folder.
      await writeFile(path.join(dir, MOVED), JSON.stringify(moved), { flush: true });
      await fsyncDir(dir);
    }
    if (await exists(dataPath)) {
      // fsynced by completeData; adopt renames it to blobs/<ab>/<hash> and fsyncs that folder.
      await this.blobs.adopt(dataPath, moved.hash);
    } else if (!(await this.blobs.has(moved.hash))) {
      throw new ApiError(Code.INTERNAL, `the staged bytes of ${file.file_name} are missing`);
    }
    return { path: target, hash: moved.hash, sizeBytes: moved.sizeBytes };
  }

  /**
   * Makes `data` hold the whole file and fsyncs it: appends the chunks staged on their own, and
   * reads `data` back for the hash only when the running hash does not cover its chunks.
   */
  private async completeData(uploadId: string, fileName: string): Promise<MovedMarker> {
    const { dir, dataPath, sizes, prefix, prefixBytes } = await this.layout(uploadId, fileName);
    const key = this.stateKey(uploadId, fileName);
    const state = this.states.get(key);
    let hasher: Hash;
    if (state && state.appended === prefix && state.bytes === prefixBytes) {
      hasher = state.hasher;
    } else {
      hasher = createHash('sha256');
      if (prefix > 0) {
        for await (const bytes of createReadStream(dataPath, { end: prefixBytes - 1 }))
          hasher.update(bytes as Buffer);
      }
    }
    this.states.delete(key);
    await mkdir(dir, { recursive: true });
    const handle = await open(dataPath, prefix === 0 ? 'w' : 'r+');
    try {
      if ((await handle.stat()).size !== prefixBytes) await handle.truncate(prefixBytes);
      let position = prefixBytes;
      for (let index = prefix; index < sizes.length; index++) {
        for await (const bytes of createReadStream(path.join(dir, String(index)))) {
          const buffer = bytes as Buffer;
          hasher.update(buffer);
          let offset = 0;
          while (offset < buffer.length) {
            const { bytesWritten } = await handle.write(
              buffer,
              offset,
              buffer.length - offset,
              position,
            );
            offset += bytesWritten;
            position += bytesWritten;
          }
        }
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    for (let index = prefix; index < sizes.length; index++)
      await rm(path.join(dir, String(index)), { force: true });
    return { hash: hasher.digest('hex'), sizeBytes: sizes.reduce((sum, size) => sum + size, 0) };
  }

  /** Removes uploads idle for longer than `ttlMs`, and staging folders without a session. */
  async removeAbandoned(ttlMs: number): Promise<number> {
    const cutoff = Date.now() - ttlMs;
    const expired = this.db
      .prepare('SELECT id FROM uploads WHERE updated_at < ?')
      .pluck()
      .all(cutoff) as string[];
    let removed = 0;
    for (const id of expired) {
      if (this.finishing.has(id) || this.inFlight.has(id)) continue;
      this.db.prepare('DELETE FROM uploads WHERE id = ?').run(id);
      for (const key of this.states.keys()) if (key.startsWith(`${id}\0`)) this.states.delete(key);
      removed++;
    }
    const live = new Set(this.db.prepare('SELECT id FROM uploads').pluck().all() as string[]);
    for (const entry of await readdir(this.uploadsDir)) {
      if (live.has(entry)) continue;
      const entryPath = path.join(this.uploadsDir, entry);
      const info = await stat(entryPath);
      // A folder younger than a minute may belong to an upload that is starting right now.
      if (info.isDirectory() && info.mtimeMs < Date.now() - 60_000) {
        await rm(entryPath, { recursive: true, force: true });
      }
    }
    return removed;
  }
}

/** How long a chunk waits for the one before it to start streaming in (afterPrevious). */
const nextChunkWaitMs = 250;

/** Files moved into the blob store at once by finish (their fsyncs overlap). */
const storeConcurrency = 8;

/**
 * `fn` over `items`, at most `limit` at once; results in the items' order. After a failure no
 * new item starts, and it throws the first failure only once every started call has settled
 * (finish must not return while a file is still being moved).
 */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const settled = await Promise.allSettled(
    Array.from({ length: Math.min(limit, items.length) }, worker),
  );
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null)) !== null;
}

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

async function readMarker(dir: string): Promise<MovedMarker | null> {
  try {
    const marker = JSON.parse(await readFile(path.join(dir, MOVED), 'utf8')) as MovedMarker;
    return typeof marker.hash === 'string' && typeof marker.sizeBytes === 'number' ? marker : null;
  } catch {
    return null;
  }
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
