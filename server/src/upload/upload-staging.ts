// Where an upload's bytes wait on disk until finish: the staging folder of each file (its `data`
// file, chunks staged on their own, the moved.json marker) and how finish completes a file and
// moves it into the blob store.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, Code, failedPrecondition } from '../errors.ts';
import { normalisePath, normaliseRelativeName } from '../platform/pfs/file-paths.ts';
import type { NewFile } from '../platform/pfs/pfs-store.ts';
import { fsyncDir, type BlobStore } from '../platform/storage/blob-store.ts';
import type { Db } from '../platform/storage/database.ts';
import type { StagedPart } from './upload-lander.ts';
import { UploadRecords, type UploadFileRow, type UploadRow } from './upload-records.ts';

/**
 * In-process state of a file whose chunks arrive in order: chunks [0, appended) are in its
 * staging file (`bytes` long) and `hasher` has seen exactly those bytes. Lost on restart (the
 * chunks that follow are then staged one file per chunk and `finish` reads the prefix back).
 */
export interface FileState {
  appended: number;
  bytes: number;
  hasher: Hash;
  /** Set while a chunk streams into `data`; settles when that chunk is kept or dropped. */
  busy: Promise<void> | null;
}

/** Written next to a file's staging bytes right before they move into the blob store. */
interface MovedMarker {
  hash: string;
  sizeBytes: number;
}

export const DATA = 'data';

const MOVED = 'moved.json';

/** An upload's staged bytes on disk (the layout is described at UploadSessions). */
export class UploadStaging extends UploadRecords {
  readonly uploadsDir: string;
  protected readonly states = new Map<string, FileState>();

  constructor(
    db: Db,
    protected readonly blobs: BlobStore,
    dataDir: string,
  ) {
    super(db);
    this.uploadsDir = path.join(dataDir, 'uploads');
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
  protected fileDir(uploadId: string, fileName: string): string {
    const legacy = encodeURIComponent(fileName);
    if (legacy.length <= 200 && existsSync(path.join(this.uploadsDir, uploadId, legacy)))
      return path.join(this.uploadsDir, uploadId, legacy);
    return path.join(
      this.uploadsDir,
      uploadId,
      createHash('sha256').update(fileName).digest('hex'),
    );
  }

  protected stateKey(uploadId: string, fileName: string): string {
    return `${uploadId}\0${fileName}`;
  }

  protected async dropStaging(uploadId: string): Promise<void> {
    for (const key of this.states.keys()) {
      if (key.startsWith(`${uploadId}\0`)) this.states.delete(key);
    }
    await rm(path.join(this.uploadsDir, uploadId), { recursive: true, force: true });
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
  protected async stagedParts(uploadId: string, fileName: string): Promise<StagedPart[]> {
    const { dir, dataPath, sizes, prefix, prefixBytes } = await this.layout(uploadId, fileName);
    const parts: StagedPart[] = [];
    if (prefix > 0) parts.push({ path: dataPath, bytes: prefixBytes });
    for (let index = prefix; index < sizes.length; index++)
      parts.push({ path: path.join(dir, String(index)), bytes: sizes[index]! });
    return parts;
  }

  /** Moves one complete file's bytes into the blob store (durably) and returns its entry. */
  protected async storeFile(upload: UploadRow, file: UploadFileRow): Promise<NewFile> {
    const target = targetPath(upload, file);
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
}

/** Where a file of an upload lands: the upload's path joined with the file's name. */
export function targetPath(upload: UploadRow, file: UploadFileRow): string {
  return normalisePath(`${upload.path}/${normaliseRelativeName(file.file_name)}`);
}

export async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null)) !== null;
}

export async function readMarker(dir: string): Promise<MovedMarker | null> {
  try {
    const marker = JSON.parse(await readFile(path.join(dir, MOVED), 'utf8')) as MovedMarker;
    return typeof marker.hash === 'string' && typeof marker.sizeBytes === 'number' ? marker : null;
  } catch {
    return null;
  }
}
