import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { failedPrecondition, invalidArgument, notFound } from '../errors.ts';
import { normalisePath, normaliseRelativeName } from '../platform/pfs/file-paths.ts';
import { validateName } from '../platform/pfs/names.ts';
import type { NewFile, PfsStore } from '../platform/pfs/pfs-store.ts';
import { isOpen, type CommitRow } from '../platform/pfs/rows.ts';
import type { BlobStore } from '../platform/storage/blob-store.ts';
import type { Db } from '../platform/storage/database.ts';
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

/** A chunk already written (and fsynced) to a temp file, waiting to be accepted. */
export interface ReceivedChunk {
  tempPath: string;
  hash: string;
  sizeBytes: number;
}

export interface UploadFileStatus {
  fileName: string;
  chunkTotal: number;
  received: number[];
}

/**
 * Chunked uploads: sessions and chunk bookkeeping in SQLite, chunk bytes staged on disk under
 * <dataDir>/uploads/<uploadId>/<encoded file name>/<index>. Finishing streams every file's
 * chunks into the blob store, then lands all files in one commit in one transaction.
 */
export class UploadSessions {
  readonly uploadsDir: string;
  private readonly finishing = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly pfs: PfsStore,
    private readonly blobs: BlobStore,
    dataDir: string,
    private readonly faults: FaultInjector,
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
    this.pfs.getRepo({ project: request.project, name: request.repo, type: 'user' });
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

  private chunkDir(uploadId: string, fileName: string): string {
    return path.join(this.uploadsDir, uploadId, encodeURIComponent(fileName));
  }

  /** Validates a chunk's fields before its bytes are kept (throws with a clear message). */
  checkChunk(uploadId: string, fileName: string, chunkTotal: number, currentChunk: number): void {
    this.getUpload(uploadId);
    if (!fileName) throw invalidArgument('fileName is required');
    normaliseRelativeName(fileName);
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
  }

  /** Keeps a received chunk; a repeated chunk must have identical bytes. Returns received indexes. */
  async acceptChunk(
    uploadId: string,
    fileName: string,
    chunkTotal: number,
    currentChunk: number,
    chunk: ReceivedChunk,
  ): Promise<number[]> {
    try {
      this.checkChunk(uploadId, fileName, chunkTotal, currentChunk);
      const existing = this.db
        .prepare('SELECT hash FROM upload_chunks WHERE upload_id = ? AND file_name = ? AND idx = ?')
        .pluck()
        .get(uploadId, fileName, currentChunk);
      if (typeof existing === 'string') {
        if (existing !== chunk.hash) {
          throw invalidArgument(
            `chunk ${currentChunk} of ${fileName} was already received with different bytes`,
          );
        }
        await rm(chunk.tempPath, { force: true });
      } else {
        const dir = this.chunkDir(uploadId, fileName);
        await mkdir(dir, { recursive: true });
        await rename(chunk.tempPath, path.join(dir, String(currentChunk)));
        const now = Date.now();
        this.db.transaction(() => {
          this.db
            .prepare(
              'INSERT OR IGNORE INTO upload_files (upload_id, file_name, chunk_total) VALUES (?, ?, ?)',
            )
            .run(uploadId, fileName, chunkTotal);
          this.db
            .prepare(
              'INSERT OR REPLACE INTO upload_chunks (upload_id, file_name, idx, size_bytes, hash) VALUES (?, ?, ?, ?, ?)',
            )
            .run(uploadId, fileName, currentChunk, chunk.sizeBytes, chunk.hash);
          this.db.prepare('UPDATE uploads SET updated_at = ? WHERE id = ?').run(now, uploadId);
        })();
      }
      return this.receivedChunks(uploadId, fileName);
    } catch (error) {
      await rm(chunk.tempPath, { force: true });
      throw error;
    }
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

  /** Lands every file of the upload in one new finished commit; nothing lands on failure. */
  async finish(uploadId: string, description: string): Promise<CommitRow> {
    const upload = this.getUpload(uploadId);
    if (this.finishing.has(uploadId))
      throw failedPrecondition(`upload ${uploadId} is already finishing`);
    this.finishing.add(uploadId);
    try {
      const { files, repo } = this.prepareFinish(upload);
      const landed: NewFile[] = [];
      for (const file of files) landed.push(await this.storeFile(uploadId, file));
      this.faults.crashAt('upload-finish-after-blobs');
      const commit = this.pfs.landCommit(
        repo,
        upload.branch,
        description || upload.description,
        landed,
        [],
        () => {
          this.db.prepare('DELETE FROM uploads WHERE id = ?').run(uploadId);
          this.faults.crashAt('upload-finish-mid-transaction');
        },
      );
      await rm(path.join(this.uploadsDir, uploadId), { recursive: true, force: true });
      return commit;
    } finally {
      this.finishing.delete(uploadId);
    }
  }

  private prepareFinish(upload: UploadRow) {
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
    const repo = this.pfs.getRepo({ project: upload.project, name: upload.repo, type: 'user' });
    const branch = this.pfs.findBranch(repo, upload.branch);
    const head = branch?.head_rowid ? this.pfs.commitByRowid(branch.head_rowid) : null;
    if (head && isOpen(head)) {
      throw failedPrecondition(
        `branch ${upload.branch} has an open commit ${head.id}; finish it first`,
      );
    }
    return { files, repo };
  }

  private async storeFile(uploadId: string, file: UploadFileRow): Promise<NewFile> {
    const upload = this.getUpload(uploadId);
    const target = normalisePath(`${upload.path}/${normaliseRelativeName(file.file_name)}`);
    const writer = await this.blobs.createWriter();
    try {
      for (let index = 0; index < file.chunk_total; index++) {
        const chunkPath = path.join(this.chunkDir(uploadId, file.file_name), String(index));
        for await (const bytes of createReadStream(chunkPath)) await writer.write(bytes as Buffer);
      }
      const blob = await writer.finish();
      return { path: target, hash: blob.hash, sizeBytes: blob.sizeBytes };
    } catch (error) {
      await writer.abort();
      throw error;
    }
  }

  /** Removes uploads idle for longer than `ttlMs`, and staging folders without a session. */
  async removeAbandoned(ttlMs: number): Promise<number> {
    const cutoff = Date.now() - ttlMs;
    const expired = this.db
      .prepare('SELECT id FROM uploads WHERE updated_at < ?')
      .pluck()
      .all(cutoff) as string[];
    for (const id of expired) {
      if (this.finishing.has(id)) continue;
      this.db.prepare('DELETE FROM uploads WHERE id = ?').run(id);
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
    return expired.length;
  }
}
