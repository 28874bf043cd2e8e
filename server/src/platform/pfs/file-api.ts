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
import type { ListedFile } from './rows.ts';

/** GetFile sends at most this many bytes per line. */
const getFileChunkBytes = 1024 * 1024;

/** Registers the file methods of pfs_v2.API (DiffFile: file-diff-api.ts). */
export function registerFileApi(api: PfsApiContext): void {
  const { store, blobs, messages, add } = api;

  /** Message runs of one listing's FileInfos (the commit's part of each line made once). */
  const fileRuns = (commit: CommitMessage) => {
    const lines = new FileInfoLines(commit);
    return (rows: readonly ListedFile[]) => messages.fileInfoRun(rows, commit, lines);
  };

  add(
    'ModifyFile',
    typedClientStream(
      pfs_v2.ModifyFileRequestSchema,
      (requests, signal) => modifyFile(store, blobs, requests, signal),
      { requestFromJson: modifyFileRequestFromJson },
    ),
  );

  add(
    'InspectFile',
    typedUnary(pfs_v2.InspectFileRequestSchema, async (req) => {
      const file = fileRefOf(req.file);
      const { repo, commit } = resolveCommitRef(store, file.commit);
      return messages.fileInfo(store.getFile(commit, file.path), messages.commit(commit, repo));
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
      if (row.type !== 'FILE') throw failedPrecondition(`${file.path} is a directory`);
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
        const { repo, commit } = resolveCommitRef(store, file.commit);
        const files = fileRuns(messages.commit(commit, repo));
        const row = store.getFile(commit, file.path);
        if (row.type === 'FILE') {
          yield files([row]);
          return;
        }
        const page = {
          after: markerPathOf(req.paginationMarker),
          limit: safeNumber(req.number, 'number'),
          reverse: req.reverse,
        };
        // A chunk at a time: a million-entry folder never sits in memory whole.
        const pause = slicer();
        for (const rows of store.scanChildren(commit, row.path, page)) {
          yield files(rows);
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
        const { repo, commit } = resolveCommitRef(store, file.commit);
        const files = fileRuns(messages.commit(commit, repo));
        const row = store.getFile(commit, file.path);
        const after = markerPathOf(req.paginationMarker);
        const limit = safeNumber(req.number, 'number');
        const reverse = req.reverse;
        const selfIncluded = after === null || (reverse ? row.path < after : row.path > after);
        // Forward the folder comes first, reversed last; the subtree is read a chunk at a time.
        let sent = 0;
        if (selfIncluded && !reverse) {
          yield files([row]);
          sent++;
        }
        if (row.type === 'DIR' && !(limit > 0 && sent >= limit)) {
          const page = { after, limit: limit > 0 ? limit - sent : 0, reverse };
          const pause = slicer();
          for (const rows of store.scanSubtree(commit, row.path, page)) {
            yield files(rows);
            sent += rows.length;
            await pause();
          }
        }
        if (selfIncluded && reverse && !(limit > 0 && sent >= limit)) yield files([row]);
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
        const files = fileRuns(messages.commit(commit, repo));
        if (matchesRoot) {
          const root = store.getFile(commit, '/');
          if (
            pattern.test(root.path) &&
            !(lower && root.path < lower) &&
            !(upper && root.path >= upper)
          )
            yield files([root]);
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
          if (matched.length > 0) yield files(matched);
          await pause();
        }
      }),
    ),
  );
}
