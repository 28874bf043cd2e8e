// DiffFile of pfs_v2.API: the files that differ between two commits (or a commit and its parent).
import { pfs_v2 } from '@ivory/api/proto';
import { typedStream } from '../typed-method.ts';
import { asDirPath } from './file-paths.ts';
import type { PfsApiContext } from './pfs-api-context.ts';
import type { FileInfoMessage } from './pfs-messages.ts';
import { fileRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { CommitRow, FileRow } from './rows.ts';

/** Registers DiffFile of pfs_v2.API. */
export function registerFileDiffApi(api: PfsApiContext): void {
  const { store, messages, add } = api;

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
      const changedFiles = new Set(
        [...newRows.keys(), ...oldRows.keys()].filter((path) => {
          const a = newRows.get(path);
          const b = oldRows.get(path);
          return a?.type !== b?.type || (a?.type === 'FILE' && a.hash !== b?.hash);
        }),
      );
      const changedDeep = oldCommit ? diffPaths(newCommit, oldCommit) : null;
      const isChanged = (path: string) => {
        const a = newRows.get(path);
        const b = oldRows.get(path);
        if (a?.type === 'DIR' && b?.type === 'DIR') {
          return changedDeep === null || changedDeep.some((changed) => changed.startsWith(path));
        }
        return changedFiles.has(path);
      };
      const newCommitMessage = messages.commit(newCommit, repo);
      const oldCommitMessage = oldCommit ? messages.commit(oldCommit) : null;
      const paths = [...new Set([...newRows.keys(), ...oldRows.keys()])].sort();
      for (const path of paths) {
        if (!isChanged(path)) continue;
        const a = newRows.get(path);
        const b = oldRows.get(path);
        yield {
          newFile: a ? messages.fileInfo(a, newCommitMessage) : null,
          oldFile: b && oldCommitMessage ? messages.fileInfo(b, oldCommitMessage) : null,
        } satisfies { newFile: FileInfoMessage | null; oldFile: FileInfoMessage | null };
      }
    }),
  );

  function rowsUnder(commit: CommitRow, path: string, shallow: boolean): Map<string, FileRow> {
    const rows = new Map<string, FileRow>();
    const row = store.findFile(commit, path);
    if (!row) return rows;
    if (row.type === 'FILE') return rows.set(row.path, row);
    const dir = asDirPath(row.path);
    const entries = shallow
      ? store.listChildren(commit, dir, { after: null, limit: 0, reverse: false })
      : store.listSubtree(commit, dir);
    for (const entry of entries) rows.set(entry.path, entry);
    return rows;
  }

  /** Paths of files whose content differs between two commits. */
  function diffPaths(a: CommitRow, b: CommitRow): string[] {
    const left = new Map(
      store
        .allFiles(a)
        .filter((r) => r.type === 'FILE')
        .map((r) => [r.path, r.hash]),
    );
    const right = new Map(
      store
        .allFiles(b)
        .filter((r) => r.type === 'FILE')
        .map((r) => [r.path, r.hash]),
    );
    return [...new Set([...left.keys(), ...right.keys()])].filter(
      (path) => left.get(path) !== right.get(path),
    );
  }
}
