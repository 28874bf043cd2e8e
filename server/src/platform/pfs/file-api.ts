// The file methods of pfs_v2.API: modify, inspect and read files, list a folder, walk a subtree
// and glob a commit's paths.
import { pfs_v2 } from '@ivory/api/proto';
import { failedPrecondition, invalidArgument } from '../../errors.ts';
import { safeNumber, typedClientStream, typedStream, typedUnary } from '../typed-method.ts';
import { slicer } from '../event-loop.ts';
import { runStream } from '../message-runs.ts';
import { compileGlob, globPrefix } from './glob.ts';
import { modifyFile, modifyFileRequestFromJson } from './modify-file.ts';
import { FileInfoLines } from './file-info-lines.ts';
import type { PfsApiContext } from './pfs-api-context.ts';
import type { CommitMessage } from './pfs-messages.ts';
import { commitRefOf, fileRefOf, markerPathOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { CommitRow, ListedFile } from './rows.ts';

/** GetFile sends at most this many bytes per line. */
const getFileChunkBytes = 1024 * 1024;

/** The most files one ListFile or WalkFile page may ask for (pachd's limit). */
const maxPageFiles = 100_000;

/** A listing's `number` (0: all), checked as pachd checks it. */
function checkedPage(number: bigint, reverse: boolean): number {
  const limit = safeNumber(number, 'number');
  if (limit === 0 && reverse) throw invalidArgument('number must be > 0 when reverse is true');
  if (limit > maxPageFiles)
    throw invalidArgument(`cannot return more than ${maxPageFiles} files at a time`);
  return limit;
}

/**
 * A read of `path` in a commit holding a file / folder collision fails when it covers the
 * colliding paths, as pachd's reads of such a file set do.
 */
function assertReadable(commit: CommitRow, path: string): void {
  for (const error of [commit.validation_error, commit.error]) {
    const collision = /^file \/ directory path collision \((.*)\)$/.exec(error)?.[1];
    if (collision === undefined) continue;
    const folder = path === '/' ? '/' : path + '/';
    if (collision.startsWith(folder) || collision === path || collision === path + '/')
      throw failedPrecondition(error);
  }
}

/** Registers the file methods of pfs_v2.API (DiffFile: file-diff-api.ts). */
export function registerFileApi(api: PfsApiContext): void {
  const { store, blobs, messages, hashes, add } = api;

  /**
   * Message runs of one listing's FileInfos (the commit's part of each line made once), their
   * hashes filled in first.
   */
  const fileRuns = (commitRow: CommitRow, commit: CommitMessage) => {
    const lines = new FileInfoLines(commit);
    return async (rows: readonly ListedFile[]) => {
      await hashes.fill(commitRow, rows);
      return messages.fileInfoRun(rows, commit, lines);
    };
  };

  add(
    'ModifyFile',
    typedClientStream(
      pfs_v2.ModifyFileRequestSchema,
      (requests, signal) => modifyFile(store, blobs, hashes, requests, signal),
      { requestFromJson: modifyFileRequestFromJson },
    ),
  );

  add(
    'InspectFile',
    typedUnary(pfs_v2.InspectFileRequestSchema, async (req) => {
      const file = fileRefOf(req.file);
      const { repo, commit } = resolveCommitRef(store, file.commit);
      assertReadable(commit, file.path);
      const row = store.getFile(commit, file.path);
      await hashes.fill(commit, [row]);
      return messages.fileInfo(row, messages.response(commit, repo));
    }),
  );

  add(
    'GetFile',
    typedStream(pfs_v2.GetFileRequestSchema, async function* (req, signal) {
      const file = fileRefOf(req.file);
      const offset = Number(req.offset);
      if (offset < 0) throw invalidArgument('offset must not be negative');
      const { commit } = resolveCommitRef(store, file.commit);
      const row = store.getFile(commit, file.path);
      if (row.type !== 'FILE')
        throw failedPrecondition(
          'cannot get directory or non-regular file. Use GetFileTAR instead',
        );
      if (row.size_bytes === 0 || offset >= row.size_bytes) return;
      // Read in message-sized chunks, each yielded as read (no re-chunking copy); the gRPC
      // listener gives each buffer back for the next read once it has sent it.
      const range = { start: offset, end: row.size_bytes - 1 };
      for await (const chunk of blobs.readChunks(row.hash, range, getFileChunkBytes)) {
        if (signal.aborted) return;
        yield chunk;
      }
    }),
  );

  // Listings are message runs (message-runs.ts): a chunk of rows at a time, written by the
  // gateway as NDJSON straight from the rows, or read a message at a time by other consumers.
  add(
    'ListFile',
    typedStream(pfs_v2.ListFileRequestSchema, (req) =>
      runStream(async function* () {
        const file = fileRefOf(req.file);
        const limit = checkedPage(req.number, req.reverse);
        const { repo, commit } = resolveCommitRef(store, file.commit);
        assertReadable(commit, file.path);
        const files = fileRuns(commit, messages.response(commit, repo));
        const row = store.getFile(commit, file.path);
        if (row.type === 'FILE') {
          yield await files([row]);
          return;
        }
        const page = { after: markerPathOf(req.paginationMarker), limit, reverse: req.reverse };
        // A chunk at a time: a million-entry folder never sits in memory whole.
        const pause = slicer();
        for (const rows of store.scanChildren(commit, row.path, page)) {
          yield await files(rows);
          await pause();
        }
      }),
    ),
  );

  add(
    'WalkFile',
    typedStream(pfs_v2.WalkFileRequestSchema, (req) =>
      runStream(async function* () {
        const file = fileRefOf(req.file);
        const limit = checkedPage(req.number, req.reverse);
        const { repo, commit } = resolveCommitRef(store, file.commit);
        assertReadable(commit, file.path);
        const files = fileRuns(commit, messages.response(commit, repo));
        const row = store.getFile(commit, file.path);
        const after = markerPathOf(req.paginationMarker);
        const reverse = req.reverse;
        const selfIncluded = after === null || (reverse ? row.path < after : row.path > after);
        // Forward the folder comes first, reversed last; the subtree is read a chunk at a time.
        let sent = 0;
        if (selfIncluded && !reverse) {
          yield await files([row]);
          sent++;
        }
        if (row.type === 'DIR' && !(limit > 0 && sent >= limit)) {
          const page = { after, limit: limit > 0 ? limit - sent : 0, reverse };
          const pause = slicer();
          for (const rows of store.scanSubtree(commit, row.path, page)) {
            yield await files(rows);
            sent += rows.length;
            await pause();
          }
        }
        if (selfIncluded && reverse && !(limit > 0 && sent >= limit)) yield await files([row]);
      }),
    ),
  );

  add(
    'GlobFile',
    typedStream(pfs_v2.GlobFileRequestSchema, (req) =>
      runStream(async function* () {
        const { repo, commit } = resolveCommitRef(store, commitRefOf(req.commit));
        const patternText = req.pattern || '/';
        const pattern = compileGlob(patternText);
        const matchesRoot = patternText.replace(/\/+/g, '') === '';
        const lower = req.pathRange?.lower ?? '';
        const upper = req.pathRange?.upper ?? '';
        if (lower && upper && lower > upper)
          throw invalidArgument('pathRange.lower must not come after pathRange.upper');
        assertReadable(commit, '/');
        const files = fileRuns(commit, messages.response(commit, repo));
        if (matchesRoot) {
          const root = store.getFile(commit, '/');
          if (
            pattern.test(root.path) &&
            !(lower && root.path < lower) &&
            !(upper && root.path >= upper)
          )
            yield await files([root]);
          return;
        }
        // Only paths starting with the glob's literal prefix can match: scan that range of the
        // path index (narrowed by pathRange), a chunk at a time.
        const scan = globPrefix(patternText);
        const from =
          scan.prefix.length > 1 && !(lower && lower > scan.prefix) ? scan.prefix : lower;
        const to = scan.upper !== null && !(upper && upper < scan.upper) ? scan.upper : upper;
        if (from && to && from >= to) return;
        const pause = slicer();
        const chunks = store.scanRange(commit, from || null, to || null);
        for (const rows of chunks) {
          const matched = rows.filter((row) => {
            const bare =
              row.path.length > 1 && row.path.endsWith('/') ? row.path.slice(0, -1) : row.path;
            return scan.anyBelow ? bare.startsWith(scan.prefix) : pattern.test(bare);
          });
          if (matched.length > 0) yield await files(matched);
          await pause();
        }
      }),
    ),
  );
}
