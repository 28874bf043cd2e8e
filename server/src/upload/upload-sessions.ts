// Chunked upload sessions: start, finish (land every file in one commit) and expiry. The layers
// under UploadSessions: chunk-receiver.ts (receiving chunks), upload-staging.ts (the bytes on
// disk), upload-records.ts (the SQLite rows).
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { failedPrecondition } from '../errors.ts';
import { normalisePath } from '../platform/pfs/file-paths.ts';
import { validateName } from '../platform/pfs/names.ts';
import type { PfsStore } from '../platform/pfs/pfs-store.ts';
import { isOpen } from '../platform/pfs/rows.ts';
import type { BlobStore } from '../platform/storage/blob-store.ts';
import type { Db } from '../platform/storage/database.ts';
import { landStagedUpload, type LandedCommit, type UploadLander } from '../proxy/cluster-upload.ts';
import { ChunkReceiver } from './chunk-receiver.ts';
import type { FaultInjector } from './fault-injection.ts';
import type { UploadFileRow, UploadRow } from './upload-records.ts';

export interface UploadStart {
  path: string;
  repo: string;
  branch: string;
  description: string;
  project: string;
}

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
export class UploadSessions extends ChunkReceiver {
  constructor(
    db: Db,
    private readonly pfs: PfsStore,
    blobs: BlobStore,
    dataDir: string,
    faults: FaultInjector,
    lander: UploadLander | null = null,
  ) {
    super(db, blobs, dataDir, faults, lander);
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
