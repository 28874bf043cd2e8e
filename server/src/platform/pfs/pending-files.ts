import { createHash } from 'node:crypto';
import type { BlobStore, BlobWriter } from '../storage/blob-store.ts';

/** Files up to this size wait in memory until they land (one blob write per distinct content). */
const SMALL_FILE_BYTES = 256 * 1024;

/** A received file, its bytes durable in the blob store (or kept in `bytes`, see `land`). */
export interface LandedFile {
  path: string;
  hash: string;
  sizeBytes: number;
  /** The datum tag it was added with ('' for the default datum). */
  datum: string;
  /** A small file's bytes when `land` kept them in memory: not in the blob store yet. */
  bytes?: Buffer;
}

interface PendingFile<Owner> {
  path: string;
  datum: string;
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
  /** By datum and path. */
  private readonly files = new Map<string, PendingFile<Owner>>();

  /**
   * `landedInMemory`: told the hash and bytes of each small file as it lands (PfsHashes keeps
   * its Pachyderm hash then, sparing a read of the blob later).
   */
  constructor(
    private readonly blobs: BlobStore,
    private readonly landedInMemory?: (hash: string, bytes: Buffer) => void,
  ) {}

  /** Appends bytes to a path's file (of a datum); a new file belongs to `owner`. */
  async append(owner: Owner, path: string, bytes: Buffer, datum = ''): Promise<void> {
    const key = `${datum}\u0000${path}`;
    let file = this.files.get(key);
    if (!file) {
      file = { path, datum, chunks: [], size: 0, writer: null, owner };
      this.files.set(key, file);
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
   * Small files were kept in memory: each distinct content is written (and fsynced) once — or,
   * with `keepSmall`, not written at all but handed back in `bytes` (ModifyFile writes them
   * itself, joined to the file they are appended to).
   */
  async land(
    options: { keepSmall?: boolean } = {},
  ): Promise<Array<{ owner: Owner; file: LandedFile }>> {
    const landed: Array<{ owner: Owner; file: LandedFile }> = [];
    const written = new Set<string>();
    for (const [key, file] of this.files) {
      this.files.delete(key);
      const { path, datum } = file;
      if (file.writer) {
        const blob = await file.writer.finish();
        landed.push({
          owner: file.owner,
          file: { path, hash: blob.hash, sizeBytes: blob.sizeBytes, datum },
        });
        continue;
      }
      const bytes = Buffer.concat(file.chunks);
      const hash = createHash('sha256').update(bytes).digest('hex');
      if (options.keepSmall) {
        if (!written.has(hash)) this.landedInMemory?.(hash, bytes);
        written.add(hash);
        landed.push({
          owner: file.owner,
          file: { path, hash, sizeBytes: bytes.length, datum, bytes },
        });
        continue;
      }
      if (!written.has(hash)) {
        if (!(await this.blobs.has(hash))) await this.blobs.writeBytes(bytes);
        written.add(hash);
        this.landedInMemory?.(hash, bytes);
      }
      landed.push({ owner: file.owner, file: { path, hash, sizeBytes: bytes.length, datum } });
    }
    return landed;
  }

  /** Drops the files not landed (their temp files go). */
  async abort(): Promise<void> {
    await Promise.all([...this.files.values()].map((file) => file.writer?.abort()));
  }
}
