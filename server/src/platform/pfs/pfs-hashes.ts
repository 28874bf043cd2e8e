// FileInfo.hash as Pachyderm computes it. pachd stores a file's bytes as content-defined chunks
// and hashes with BLAKE2b-256: a file's hash is the hash of its chunks' hashes, one after the
// other; a folder's is the hash of its direct children's hashes in path order (folders with their
// trailing slash), and its size their sum. A file of at most one minimum chunk (1,000,000 bytes)
// is one chunk, so its hash is BLAKE2b-256(BLAKE2b-256(bytes)) — exactly pachd's. A larger file's
// chunk boundaries come from pachd's rolling hash, whose table this server does not have: its
// hash here is BLAKE2b-256 of the blob's sha256 digest (stable, content-derived, not pachd's).
//
// A blob's hash is computed once and kept (blob_pfs_hashes); a folder's is kept in its row until
// the folder changes (pfs-store-writes.ts clears it on each ancestor of a write).
import { readFile } from 'node:fs/promises';
import { createBLAKE2b, type IHasher } from 'hash-wasm';
import type { BlobStore } from '../storage/blob-store.ts';
import { asDirPath } from './file-paths.ts';
import type { PfsStore } from './pfs-store.ts';
import type { CommitRow, ListedFile } from './rows.ts';

/** pachd's minimum chunk size: a file this size or smaller is one chunk. */
export const singleChunkBytes = 1_000_000;

let hasher: IHasher | null = null;
let loading: Promise<IHasher> | null = null;

/** BLAKE2b-256 (the WebAssembly hasher, loaded on first use). */
async function loadHasher(): Promise<IHasher> {
  if (hasher) return hasher;
  loading ??= createBLAKE2b(256).then((made) => (hasher = made));
  return loading;
}

function blake2b256(hasherNow: IHasher, ...parts: Uint8Array[]): Uint8Array {
  hasherNow.init();
  for (const part of parts) hasherNow.update(part);
  return hasherNow.digest('binary');
}

/** A file's hash (hex) from its bytes (at most singleChunkBytes of them), as pachd's. */
export function contentHash(hasherNow: IHasher, bytes: Uint8Array): string {
  return Buffer.from(blake2b256(hasherNow, blake2b256(hasherNow, bytes))).toString('hex');
}

/** The hash (hex) of a file larger than one chunk: from its sha256 (see the file comment). */
function largeFileHash(hasherNow: IHasher, sha256: string): string {
  return Buffer.from(blake2b256(hasherNow, Buffer.from(sha256, 'hex'))).toString('hex');
}

/** A folder's hash (hex) from its children's hashes (hex), in path order. */
function folderHash(hasherNow: IHasher, childHashes: readonly string[]): string {
  return Buffer.from(
    blake2b256(hasherNow, ...childHashes.map((hash) => Buffer.from(hash, 'hex'))),
  ).toString('hex');
}

/** Computes, keeps and hands out the Pachyderm hashes of files and folders. */
export class PfsHashes {
  constructor(
    private readonly store: PfsStore,
    private readonly blobs: BlobStore,
  ) {}

  /** Loads the hasher; `remember` needs it. */
  async ready(): Promise<void> {
    await loadHasher();
  }

  /** Keeps the hash of bytes at hand (a small file just received), sparing a read later. */
  remember(sha256: string, bytes: Uint8Array): void {
    if (!hasher || bytes.length > singleChunkBytes) return;
    if (this.store.blobPfsHash(sha256) !== undefined) return;
    this.store.setBlobPfsHash(sha256, contentHash(hasher, bytes));
  }

  /** Fills `pfs_hash` of these rows of `commit` (files, folders, the root "/"). */
  async fill<T extends ListedFile>(commit: CommitRow, rows: readonly T[]): Promise<void> {
    const hasherNow = await loadHasher();
    await this.computeBlobs(
      rows.filter((row) => row.type === 'FILE').map((row) => [row.hash, row.size_bytes]),
    );
    for (const row of rows) {
      if (row.type === 'FILE') row.pfs_hash = this.store.blobPfsHash(row.hash) ?? null;
    }
    const folders = rows.filter((row) => row.type === 'DIR' && !row.pfs_hash);
    for (const folder of folders) {
      const dirPath = asDirPath(folder.path);
      let hash = this.folder(hasherNow, commit, dirPath);
      // A file under it whose blob has no hash yet: hash every such blob, then again (a write
      // that lands meanwhile may add more).
      while (hash === null) {
        await this.computeBlobs(this.store.blobsWithoutPfsHash(commit, dirPath));
        hash = this.folder(hasherNow, commit, dirPath);
      }
      folder.pfs_hash = hash;
    }
  }

  /** Hashes (and keeps) blobs not hashed yet: [sha256, size] pairs. */
  private async computeBlobs(blobs: Iterable<readonly [string, number]>): Promise<void> {
    const hasherNow = await loadHasher();
    const seen = new Set<string>();
    for (const [sha256, size] of blobs) {
      if (seen.has(sha256) || this.store.blobPfsHash(sha256) !== undefined) continue;
      seen.add(sha256);
      let hash: string;
      if (size > singleChunkBytes) {
        hash = largeFileHash(hasherNow, sha256);
      } else {
        const bytes = size === 0 ? new Uint8Array(0) : await readFile(this.blobs.pathOf(sha256));
        hash = contentHash(hasherNow, bytes);
      }
      this.store.setBlobPfsHash(sha256, hash);
    }
  }

  /**
   * A folder's hash, computing (and keeping) those of the folders under it that have none; null
   * when a file under it has no blob hash yet.
   */
  private folder(hasherNow: IHasher, commit: CommitRow, dirPath: string): string | null {
    if (dirPath !== '/') {
      const cached = this.store.folderPfsHash(commit, dirPath);
      if (cached) return cached;
    }
    const childHashes: string[] = [];
    for (const child of this.store.childrenForHash(commit, dirPath)) {
      const hash =
        child.type === 'DIR'
          ? (child.pfs_hash ?? this.folder(hasherNow, commit, child.path))
          : this.store.blobPfsHash(child.hash);
      if (hash === null || hash === undefined) return null;
      childHashes.push(hash);
    }
    const hash = folderHash(hasherNow, childHashes);
    if (dirPath !== '/') this.store.setFolderPfsHash(commit, dirPath, hash);
    return hash;
  }
}
