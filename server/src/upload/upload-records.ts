// The SQLite bookkeeping of chunked uploads: the rows of sessions, their files, received chunks
// and finished uploads (the bytes themselves are staged on disk: upload-staging.ts).
import { notFound } from '../errors.ts';
import { withoutFsync, type Db } from '../platform/storage/database.ts';
import type { ChunkId } from './chunk-receiver.ts';

export interface UploadRow {
  id: string;
  project: string;
  repo: string;
  branch: string;
  path: string;
  description: string;
  created_at: number;
  updated_at: number;
  /** The group whose uploads land in one commit ('' for none). */
  upload_group: string;
}

export interface UploadFileRow {
  file_name: string;
  chunk_total: number;
}

export interface UploadFileStatus {
  fileName: string;
  chunkTotal: number;
  received: number[];
}

/** How long a finished upload's commit is remembered for a retried finish. */
const finishedKeptMs = 24 * 60 * 60 * 1000;

/** The rows of uploads, their files and chunks; the base of UploadSessions (upload-sessions.ts). */
export class UploadRecords {
  constructor(protected readonly db: Db) {}

  protected getUpload(uploadId: string): UploadRow {
    const upload = this.db.prepare('SELECT * FROM uploads WHERE id = ?').get(uploadId) as
      UploadRow | undefined;
    if (!upload) throw notFound(`upload ${uploadId} not found`);
    return upload;
  }

  protected chunkSize(uploadId: string, fileName: string, index: number): number | undefined {
    return this.db
      .prepare(
        'SELECT size_bytes FROM upload_chunks WHERE upload_id = ? AND file_name = ? AND idx = ?',
      )
      .pluck()
      .get(uploadId, fileName, index) as number | undefined;
  }

  /**
   * Records a staged chunk. The row need not survive a power cut (its bytes are not fsynced
   * before finish either): finish checks the staged bytes against these rows (`layout`) and
   * forgets what is missing, and status then asks for it again. So the commit skips the WAL
   * fsync, which would otherwise hold up every chunk.
   */
  protected record(chunk: ChunkId, sizeBytes: number): void {
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

  protected sizes(uploadId: string, fileName: string): number[] {
    return this.db
      .prepare(
        'SELECT size_bytes FROM upload_chunks WHERE upload_id = ? AND file_name = ? ORDER BY idx',
      )
      .pluck()
      .all(uploadId, fileName) as number[];
  }

  protected receivedChunks(uploadId: string, fileName: string): number[] {
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

  /** Remembers the commit an upload landed in (kept a day, for retried finishes). */
  protected recordFinished(uploadId: string, commitId: string): void {
    const now = Date.now();
    this.db.prepare('DELETE FROM upload_finished WHERE finished_at < ?').run(now - finishedKeptMs);
    this.db
      .prepare(
        'INSERT OR REPLACE INTO upload_finished (upload_id, commit_id, finished_at) VALUES (?, ?, ?)',
      )
      .run(uploadId, commitId, now);
  }
}
