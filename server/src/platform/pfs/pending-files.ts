import { createHash } from 'node:crypto';
import type { BlobStore, BlobWriter } from '../storage/blob-store.ts';

/** Files up to this size wait in memory until they land (one blob write per distinct content). */
const SMALL_FILE_BYTES = 256 * 1024;

/** A received file, its bytes durable in the blob store. */
export interface LandedFile {
  path: string;
  hash: string;
  sizeBytes: number;
}

interface PendingFile<Owner> {
  chunks: Buffer[];
  size: number;
  /** Set once the file outgrew memory. */
  writer: BlobWriter | null;
  owner: Owner;
}

/**
 * The files a ModifyFile-style stream (ModifyFile, CreateFileSet) is receiving, by path. Small
 * files stay in memory; a file past SMALL_FILE_BYTES moves to a blob writer, hashed and written
 * off the event loop (each chunk is handed over: the caller must not read it again). `land`
 * makes them all durable blobs; `abort` drops what a failed stream left.
 */
export class PendingFiles<Owner> {
  private readonly files = new Map<string, PendingFile<Owner>>();

  constructor(private readonly blobs: BlobStore) {}

  /** Appends bytes to a path's file; a new file belongs to `owner`. */
  async append(owner: Owner, path: string, bytes: Buffer): Promise<void> {
    let file = this.files.get(path);
    if (!file) {
      file = { chunks: [], size: 0, writer: null, owner };
      this.files.set(path, file);
    }
    if (!file.writer && file.size + bytes.length > SMALL_FILE_BYTES) {
      file.writer = await this.blobs.createWriter({ offThread: true });
      for (const chunk of file.chunks) await file.writer.write(chunk);
      file.chunks = [];
    }
    if (file.writer) await file.writer.write(bytes);
    else file.chunks.push(bytes);
    file.size += bytes.length;
  }

  /**
   * Makes every pending file a durable blob, in the order they were started, and forgets them.
   * Small files were kept in memory: each distinct content is written (and fsynced) once.
   */
  async land(): Promise<Array<{ owner: Owner; file: LandedFile }>> {
    const landed: Array<{ owner: Owner; file: LandedFile }> = [];
    const written = new Set<string>();
    for (const [path, file] of this.files) {
      this.files.delete(path);
      if (file.writer) {
        const blob = await file.writer.finish();
        landed.push({
          owner: file.owner,
          file: { path, hash: blob.hash, sizeBytes: blob.sizeBytes },
        });
        continue;
      }
      const bytes = Buffer.concat(file.chunks);
      const hash = createHash('sha256').update(bytes).digest('hex');
      if (!written.has(hash)) {
        if (!(await this.blobs.has(hash))) await this.blobs.writeBytes(bytes);
        written.add(hash);
      }
      landed.push({ owner: file.owner, file: { path, hash, sizeBytes: bytes.length } });
    }
    return landed;
  }

  /** Drops the files not landed (their temp files go). */
  async abort(): Promise<void> {
    await Promise.all([...this.files.values()].map((file) => file.writer?.abort()));
  }
}
