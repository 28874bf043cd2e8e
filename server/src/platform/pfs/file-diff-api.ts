// DiffFile of pfs_v2.API: the files that differ between two commits (or a commit and its parent).
import { pfs_v2 } from '@ivory/api/proto';
import { typedStream } from '../typed-method.ts';
import { asDirPath } from './file-paths.ts';
import type { PfsApiContext } from './pfs-api-context.ts';
import type { FileInfoMessage } from './pfs-messages.ts';
import { fileRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { CommitRow, FileRow } from './rows.ts';

/**
 * Registers DiffFile of pfs_v2.API, as pachd answers it: the path (a file, or a folder with
 * everything under it; "/" the whole commit) in the new and the old commit (the new one's parent
 * unless named), walked side by side in path order; a path on one side only is sent with that
 * side, a path on both whose hash differs (folders too: a folder changes with anything under it)
 * with both. `shallow` limits a folder to its direct children.
 */
export function registerFileDiffApi(api: PfsApiContext): void {
  const { store, messages, hashes, add } = api;

  add(
    'DiffFile',
    typedStream(pfs_v2.DiffFileRequestSchema, async function* (req) {
      const newFile = fileRefOf(req.newFile);
      const { repo, commit: newCommit } = resolveCommitRef(store, newFile.commit);
      const oldFile = req.oldFile?.commit ? fileRefOf(req.oldFile) : null;
      const oldCommit = oldFile
        ? resolveCommitRef(store, oldFile.commit).commit
        : newCommit.parent_rowid === null
          ? null
          : store.commitByRowid(newCommit.parent_rowid);
      const shallow = req.shallow;
      const newRows = rowsUnder(newCommit, newFile.path, shallow);
      const oldRows = oldCommit
        ? rowsUnder(oldCommit, oldFile?.path ?? newFile.path, shallow)
        : new Map<string, FileRow>();
      await hashes.fill(newCommit, [...newRows.values()]);
      if (oldCommit) await hashes.fill(oldCommit, [...oldRows.values()]);
      const newCommitMessage = messages.response(newCommit, repo);
      const oldCommitMessage = oldCommit ? messages.response(oldCommit) : null;
      const paths = [...new Set([...newRows.keys(), ...oldRows.keys()])].sort(byPath);
      for (const path of paths) {
        const a = newRows.get(path);
        const b = oldRows.get(path);
        if (a && b && a.pfs_hash === b.pfs_hash) continue;
        yield {
          newFile: a ? messages.fileInfo(a, newCommitMessage) : null,
          oldFile: b && oldCommitMessage ? messages.fileInfo(b, oldCommitMessage) : null,
        } satisfies { newFile: FileInfoMessage | null; oldFile: FileInfoMessage | null };
      }
    }),
  );

  /** The file or folder at `path` and (a folder's) everything under it, by path. */
  function rowsUnder(commit: CommitRow, path: string, shallow: boolean): Map<string, FileRow> {
    const rows = new Map<string, FileRow>();
    const row = store.findFile(commit, path);
    if (!row) return rows;
    rows.set(row.path, row);
    if (row.type === 'FILE') return rows;
    const dir = asDirPath(row.path);
    const entries = shallow
      ? store.listChildren(commit, dir, { after: null, limit: 0, reverse: false })
      : store.listSubtree(commit, dir);
    for (const entry of entries) rows.set(entry.path, entry);
    return rows;
  }
}

/** Stored paths in code-unit order (as SQLite orders them: ASCII and the BMP alike). */
const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
