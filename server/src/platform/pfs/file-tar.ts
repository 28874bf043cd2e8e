import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import type { BlobStore } from '../storage/blob-store.ts';
import type { PfsStore } from './pfs-store.ts';
import type { CommitRow, FileRow } from './rows.ts';

/** Entry name of a row inside an archive: relative to `base` (a folder path ending in '/'). */
function entryName(rowPath: string, base: string): string {
  return rowPath.slice(base.length);
}

function emptyStream(): Readable {
  const empty = new PassThrough();
  empty.end();
  return empty;
}

/**
 * A tar archive of files and folders (each folder with its whole subtree) of one commit, read one
 * blob at a time. Entries are named relative to `base` ('/' = paths from the repo root, without
 * the leading slash). Used by GET /files (folders, selections) and pfs_v2 GetFileTAR.
 */
export function packTar(
  pfs: PfsStore,
  blobs: BlobStore,
  commit: CommitRow,
  selection: FileRow[],
  base = '/',
): Readable {
  const pack = tar.pack();
  const body = new PassThrough();
  pack.pipe(body);
  const addFile = async (row: FileRow) => {
    const entry = pack.entry({ name: entryName(row.path, base), size: row.size_bytes });
    const source: Readable = row.size_bytes === 0 ? emptyStream() : blobs.read(row.hash);
    await pipeline(source, entry);
  };
  void (async () => {
    try {
      const seen = new Set<string>();
      for (const selected of selection) {
        if (seen.has(selected.path)) continue;
        seen.add(selected.path);
        if (selected.type !== 'DIR') {
          await addFile(selected);
          continue;
        }
        if (selected.path !== base)
          pack.entry({ name: entryName(selected.path, base), type: 'directory' });
        for (const row of pfs.listSubtree(commit, selected.path)) {
          if (seen.has(row.path)) continue;
          seen.add(row.path);
          if (row.type === 'DIR')
            pack.entry({ name: entryName(row.path, base), type: 'directory' });
          else await addFile(row);
        }
      }
      pack.finalize();
    } catch (error) {
      body.destroy(error as Error);
    }
  })();
  return body;
}
