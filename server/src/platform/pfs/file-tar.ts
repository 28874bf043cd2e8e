import { setImmediate as nextTurn } from 'node:timers/promises';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { eventLoopSliceMs } from '../event-loop.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { PfsStore } from './pfs-store.ts';
import type { CommitRow, FileRow } from './rows.ts';

/** An archive gives the event loop a turn at least after this many entries (and every slice). */
export const TAR_ENTRIES_PER_TURN = 256;

/**
 * Entry name of a row inside an archive: relative to `base` (a folder path ending in '/'). A
 * backslash, which Windows extractors read as a folder separator (`..\..\x` would climb out),
 * becomes `_`: an entry name never holds one.
 */
export function entryName(rowPath: string, base: string): string {
  return rowPath.slice(base.length).replace(/\\/g, '_');
}

function emptyStream(): Readable {
  const empty = new PassThrough();
  empty.end();
  return empty;
}

/**
 * Yields the event loop now and then while an archive is packed: after TAR_ENTRIES_PER_TURN
 * entries, or once a slice of the loop is used up, whichever comes first. Entries of folders and
 * empty files are made without any I/O, so without it a folder of many of them was packed in
 * one turn of the loop, holding every other request (and /healthz) until it was done.
 */
function entryPacer(): () => Promise<void> | undefined {
  let entries = 0;
  let started = performance.now();
  return () => {
    entries++;
    if (entries < TAR_ENTRIES_PER_TURN && performance.now() - started < eventLoopSliceMs)
      return undefined;
    return nextTurn().then(() => {
      entries = 0;
      started = performance.now();
    });
  };
}

/**
 * A tar archive of files and folders (each folder with its whole subtree) of one commit, read one
 * blob at a time (each verified as it is read: a damaged one ends the archive with an error).
 * Entries are named relative to `base` ('/' = paths from the repo root, without the leading
 * slash). Used by GET /files (folders, selections) and pfs_v2 GetFileTAR.
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
  // A failed entry fails the pack: the archive's reader gets the error, never a clean end.
  pack.on('error', (error) => body.destroy(error));
  pack.pipe(body);
  const pace = entryPacer();
  const addFile = async (row: Pick<FileRow, 'path' | 'hash' | 'size_bytes'>) => {
    const entry = pack.entry({ name: entryName(row.path, base), size: row.size_bytes });
    const source: Readable =
      row.size_bytes === 0
        ? emptyStream()
        : blobs.read(row.hash, undefined, undefined, row.size_bytes);
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
          await pace();
          continue;
        }
        if (selected.path !== base)
          pack.entry({ name: entryName(selected.path, base), type: 'directory' });
        // A chunk of rows at a time: a folder of a million files never sits in memory whole.
        const page = { after: null, limit: 0, reverse: false };
        for (const rows of pfs.scanSubtree(commit, selected.path, page)) {
          for (const row of rows) {
            if (body.destroyed) return;
            if (seen.has(row.path)) continue;
            seen.add(row.path);
            if (row.type === 'DIR')
              pack.entry({ name: entryName(row.path, base), type: 'directory' });
            else await addFile(row);
            await pace();
          }
        }
      }
      pack.finalize();
    } catch (error) {
      body.destroy(error as Error);
    }
  })();
  return body;
}
