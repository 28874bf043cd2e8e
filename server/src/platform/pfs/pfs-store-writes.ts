// PfsStore's file writes: putting, deleting and copying files in an open commit, and the calls
// that fill and finish a commit in one transaction (landCommit, finishCommitWithFiles).
import { failedPrecondition, invalidArgument } from '../../errors.ts';
import { ancestorDirs, asDirPath, baseName, parentDir, subtreeUpperBound } from './file-paths.ts';
import { PfsFileListing } from './pfs-store-listing.ts';
import { isOpen, type CommitRow, type RepoRow } from './rows.ts';

export interface NewFile {
  /** Normalised absolute path ("/a/b.txt"). */
  path: string;
  hash: string;
  sizeBytes: number;
}

/** Writing a commit's files (the layer of PfsStore above PfsFileListing). */
export class PfsFileWrites extends PfsFileListing {
  private assertWritable(commit: CommitRow): void {
    if (!isOpen(this.commitByRowid(commit.rowid))) {
      throw failedPrecondition(
        `commit ${commit.id} is finished: files can only be written to an open commit`,
      );
    }
  }

  /** Writes (or replaces) a file in an open commit; the blob must already be stored durably. */
  putFile(commit: CommitRow, file: NewFile): void {
    if (file.path === '/') throw invalidArgument('cannot write a file at the root path');
    this.transaction(() => {
      this.assertWritable(commit);
      const ancestors = ancestorDirs(file.path);
      const conflict = this.prepare(
        // Two indexed lookups (an OR across them would scan the commit's every row).
        `SELECT path FROM files WHERE commit_rowid = ? AND path = ?
           UNION ALL
           SELECT path FROM files WHERE commit_rowid = ? AND type = 'FILE' AND
             path IN (SELECT value FROM json_each(?))
           LIMIT 1`,
      )
        .pluck()
        .get(
          commit.rowid,
          file.path + '/',
          commit.rowid,
          JSON.stringify(ancestors.map((dir) => dir.slice(0, -1))),
        );
      if (typeof conflict === 'string') {
        throw invalidArgument(`cannot write ${file.path}: ${conflict} is in the way`);
      }
      const now = Date.now();
      const previous = this.prepare(
        'SELECT size_bytes FROM files WHERE commit_rowid = ? AND path = ?',
      )
        .pluck()
        .get(commit.rowid, file.path);
      const delta = file.sizeBytes - (typeof previous === 'number' ? previous : 0);
      const insertDir = this.prepare(
        `INSERT OR IGNORE INTO files (commit_rowid, path, dir, name, type, size_bytes, committed_at)
         VALUES (?, ?, ?, ?, 'DIR', 0, ?)`,
      );
      const updateDir = this.prepare(
        'UPDATE files SET size_bytes = size_bytes + ?, committed_at = ? WHERE commit_rowid = ? AND path = ?',
      );
      for (const dir of ancestors) {
        insertDir.run(commit.rowid, dir, parentDir(dir), baseName(dir), now);
        updateDir.run(delta, now, commit.rowid, dir);
      }
      this.prepare(
        `INSERT OR REPLACE INTO files (commit_rowid, path, dir, name, type, hash, size_bytes, committed_at)
           VALUES (?, ?, ?, ?, 'FILE', ?, ?, ?)`,
      ).run(
        commit.rowid,
        file.path,
        parentDir(file.path),
        baseName(file.path),
        file.hash,
        file.sizeBytes,
        now,
      );
    });
  }

  /** Deletes a file or a whole folder from an open commit (missing paths are not an error). */
  deleteFile(commit: CommitRow, path: string): void {
    this.transaction(() => {
      this.assertWritable(commit);
      if (path === '/') {
        this.prepare('DELETE FROM files WHERE commit_rowid = ?').run(commit.rowid);
        return;
      }
      const dirPath = asDirPath(path);
      const removedBytes = Number(
        this.prepare(
          `SELECT COALESCE(SUM(size_bytes), 0) FROM files WHERE commit_rowid = ? AND type = 'FILE'
             AND (path = ? OR (path > ? AND path < ?))`,
        )
          .pluck()
          .get(commit.rowid, path, dirPath, subtreeUpperBound(dirPath)),
      );
      this.prepare(
        'DELETE FROM files WHERE commit_rowid = ? AND (path = ? OR path = ? OR (path > ? AND path < ?))',
      ).run(commit.rowid, path, dirPath, dirPath, subtreeUpperBound(dirPath));
      const now = Date.now();
      const ancestors = ancestorDirs(path).reverse();
      for (const dir of ancestors) {
        this.prepare(
          'UPDATE files SET size_bytes = size_bytes - ?, committed_at = ? WHERE commit_rowid = ? AND path = ?',
        ).run(removedBytes, now, commit.rowid, dir);
        const hasChildren = this.prepare(
          'SELECT 1 FROM files WHERE commit_rowid = ? AND dir = ? LIMIT 1',
        ).get(commit.rowid, dir);
        if (!hasChildren)
          this.prepare('DELETE FROM files WHERE commit_rowid = ? AND path = ?').run(
            commit.rowid,
            dir,
          );
      }
    });
  }

  /** Copies a file or folder from any commit to `dst` in an open commit. */
  copyFile(commit: CommitRow, dst: string, source: CommitRow, sourcePath: string): void {
    this.transaction(() => {
      const found = this.getFile(source, sourcePath);
      if (found.type === 'FILE') {
        this.putFile(commit, { path: dst, hash: found.hash, sizeBytes: found.size_bytes });
        return;
      }
      const base = found.path;
      const target = dst === '/' ? '/' : dst + '/';
      for (const row of this.listSubtree(source, base)) {
        if (row.type !== 'FILE') continue;
        this.putFile(commit, {
          path: target + row.path.slice(base.length),
          hash: row.hash,
          sizeBytes: row.size_bytes,
        });
      }
    });
  }

  /**
   * Creates, fills and finishes one commit on a branch in a single transaction (uploads, seed).
   * `beforeCommit` runs inside the transaction after every write (fault-injection tests).
   */
  landCommit(
    repo: RepoRow,
    branchName: string,
    description: string,
    files: NewFile[],
    deletions: string[] = [],
    beforeCommit?: (commitId: string) => void,
  ): CommitRow {
    const commit = this.transaction(() => {
      const open = this.startCommit(repo, branchName, null, description);
      for (const path of deletions) this.deleteFile(open, path);
      for (const file of files) this.putFile(open, file);
      this.finishCommitRow(open, '', '');
      beforeCommit?.(open.id);
      return this.commitByRowid(open.rowid);
    });
    this.events.notify();
    this.events.finished(commit);
    return commit;
  }

  /**
   * Replaces every file of an open commit and finishes it, in one transaction (pipeline output
   * commits); `alsoInTransaction` runs inside it (e.g. to record the job's end).
   */
  finishCommitWithFiles(
    commit: CommitRow,
    files: NewFile[],
    error: string,
    alsoInTransaction?: () => void,
  ): void {
    this.transaction(() => {
      const current = this.commitByRowid(commit.rowid);
      if (!isOpen(current)) throw failedPrecondition(`commit ${commit.id} is already finished`);
      this.prepare('DELETE FROM files WHERE commit_rowid = ?').run(commit.rowid);
      for (const file of files) this.putFile(current, file);
      this.finishCommitRow(current, '', error);
      alsoInTransaction?.();
    });
    this.events.notify();
    this.events.finished(this.commitByRowid(commit.rowid));
  }
}
