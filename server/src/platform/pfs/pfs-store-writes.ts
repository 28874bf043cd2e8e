// PfsStore's file writes: putting, deleting and copying files in an open commit, and the calls
// that fill and finish a commit in one transaction (landCommit, finishCommitWithFiles).
import { invalidArgument } from '../../errors.ts';
import { ancestorDirs, asDirPath, baseName, parentDir, subtreeUpperBound } from './file-paths.ts';
import { PfsFileListing } from './pfs-store-listing.ts';
import { isOpen, type CommitRow, type FileRow, type RepoRow } from './rows.ts';

export interface NewFile {
  /** Normalised absolute path ("/a/b.txt"). */
  path: string;
  hash: string;
  sizeBytes: number;
  /** The file's datum tag ('' for the default datum). */
  datum?: string;
}

export interface PutOptions {
  /**
   * `refuse` (the default, for the server's own writers): a file where a folder is, or under a
   * file, is INVALID_ARGUMENT. `record` (ModifyFile, as pachd): the write lands and the commit
   * finishes with the error "file / directory path collision", as does a path written from two
   * datums.
   */
  collisions?: 'refuse' | 'record';
}

const collisionError = (path: string) => `file / directory path collision (${path})`;

/** Writing a commit's files (the layer of PfsStore above PfsFileListing). */
export class PfsFileWrites extends PfsFileListing {
  private assertWritable(commit: CommitRow): void {
    const current = this.commitByRowid(commit.rowid);
    if (!isOpen(current)) throw this.finishedError(current);
  }

  /** Counts a write to the commit (its revision), and keeps the first validation error. */
  private touched(commit: CommitRow, validationError = ''): void {
    this.prepare(
      `UPDATE commits SET revision = revision + 1,
         validation_error = CASE WHEN validation_error = '' THEN ? ELSE validation_error END
       WHERE rowid = ?`,
    ).run(validationError, commit.rowid);
  }

  /** A commit's revision: how many file writes it has had. */
  commitRevision(commit: CommitRow): number {
    return Number(
      this.prepare('SELECT revision FROM commits WHERE rowid = ?').pluck().get(commit.rowid),
    );
  }

  /** The file (not folder) at a normalised path, or undefined. */
  findFileAt(commit: CommitRow, path: string): FileRow | undefined {
    return this.prepare(
      "SELECT * FROM files WHERE commit_rowid = ? AND path = ? AND type = 'FILE'",
    ).get(commit.rowid, path) as FileRow | undefined;
  }

  /** Writes (or replaces) a file in an open commit; the blob must already be stored durably. */
  putFile(commit: CommitRow, file: NewFile, options: PutOptions = {}): void {
    if (file.path === '/') throw invalidArgument('cannot write a file at the root path');
    const datum = file.datum ?? '';
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
      let validationError = '';
      if (typeof conflict === 'string') {
        if (options.collisions !== 'record')
          throw invalidArgument(`cannot write ${file.path}: ${conflict} is in the way`);
        validationError = collisionError(conflict === file.path + '/' ? conflict : file.path);
      }
      const now = Date.now();
      const previous = this.prepare(
        'SELECT size_bytes, datum FROM files WHERE commit_rowid = ? AND path = ?',
      ).get(commit.rowid, file.path) as { size_bytes: number; datum: string } | undefined;
      if (previous && previous.datum !== datum && options.collisions === 'record') {
        validationError ||= `duplicate path output by different datums (${file.path} from ${
          previous.datum || 'default'
        } and ${file.path} from ${datum || 'default'})`;
      }
      const delta = file.sizeBytes - (previous?.size_bytes ?? 0);
      const insertDir = this.prepare(
        `INSERT OR IGNORE INTO files (commit_rowid, path, dir, name, type, size_bytes, committed_at)
         VALUES (?, ?, ?, ?, 'DIR', 0, ?)`,
      );
      const updateDir = this.prepare(
        `UPDATE files SET size_bytes = size_bytes + ?, committed_at = ?, pfs_hash = NULL
           WHERE commit_rowid = ? AND path = ?`,
      );
      for (const dir of ancestors) {
        insertDir.run(commit.rowid, dir, parentDir(dir), baseName(dir), now);
        updateDir.run(delta, now, commit.rowid, dir);
      }
      this.prepare(
        `INSERT OR REPLACE INTO files
           (commit_rowid, path, dir, name, type, hash, size_bytes, committed_at, datum, pfs_hash)
           VALUES (?, ?, ?, ?, 'FILE', ?, ?, ?, ?, NULL)`,
      ).run(
        commit.rowid,
        file.path,
        parentDir(file.path),
        baseName(file.path),
        file.hash,
        file.sizeBytes,
        now,
        datum,
      );
      this.touched(commit, validationError);
    });
  }

  /**
   * Deletes a file, or a whole folder ("/" too), from an open commit; missing paths are not an
   * error. A path ending in "/" names a folder; one without names a file, or (unless `exact`,
   * Pachyderm's rule for ModifyFile) a folder when no file is there. With `datum`, only files of
   * that datum go (Pachyderm's datum-scoped delete); without, a file of the default datum, or a
   * folder's files of any datum.
   */
  deleteFile(commit: CommitRow, path: string, datum: string | null = null, exact = false): void {
    this.transaction(() => {
      this.assertWritable(commit);
      const isFolder = path === '/' || path.endsWith('/');
      const file = isFolder ? undefined : this.findFileAt(commit, path);
      if (file) {
        if ((datum ?? '') === file.datum) this.deleteRows(commit, path, null);
      } else if (isFolder || !exact) {
        this.deleteRows(commit, asDirPath(path), datum);
      }
      this.touched(commit);
      this.recheckValidation(commit);
    });
  }

  /** Deletes a file (`path`) or a folder's files (`path` ending in "/"), then empty folders. */
  private deleteRows(commit: CommitRow, path: string, datum: string | null): void {
    if (path === '/' && datum === null) {
      this.prepare('DELETE FROM files WHERE commit_rowid = ?').run(commit.rowid);
      return;
    }
    const isDir = path.endsWith('/');
    const upper = isDir ? subtreeUpperBound(path) : path + '\0';
    const now = Date.now();
    const updateDir = this.prepare(
      `UPDATE files SET size_bytes = size_bytes - ?, committed_at = ?, pfs_hash = NULL
         WHERE commit_rowid = ? AND path = ?`,
    );
    const hasChildren = this.prepare(
      'SELECT 1 FROM files WHERE commit_rowid = ? AND dir = ? LIMIT 1',
    );
    const remove = this.prepare('DELETE FROM files WHERE commit_rowid = ? AND path = ?');
    /** Takes bytes off each folder (deepest first), removing the ones left empty. */
    const shrink = (bytesByDir: Map<string, number>) => {
      const deepestFirst = [...bytesByDir.keys()].sort(
        (a, b) => b.length - a.length || (a < b ? 1 : -1),
      );
      for (const dir of deepestFirst) {
        updateDir.run(bytesByDir.get(dir), now, commit.rowid, dir);
        if (!hasChildren.get(commit.rowid, dir)) remove.run(commit.rowid, dir);
      }
    };
    if (isDir && datum === null) {
      // A whole folder: one range delete, then its ancestors.
      const removedBytes = Number(
        this.prepare(
          `SELECT COALESCE(SUM(size_bytes), 0) FROM files WHERE commit_rowid = ? AND type = 'FILE'
             AND path > ? AND path < ?`,
        )
          .pluck()
          .get(commit.rowid, path, upper),
      );
      this.prepare('DELETE FROM files WHERE commit_rowid = ? AND path >= ? AND path < ?').run(
        commit.rowid,
        path,
        upper,
      );
      shrink(new Map(ancestorDirs(path.slice(0, -1)).map((dir) => [dir, removedBytes])));
      return;
    }
    const datumClause = datum === null ? '' : 'AND datum = ?';
    const params: unknown[] = [commit.rowid, path, upper];
    if (datum !== null) params.push(datum);
    const removed = this.prepare(
      `SELECT path, size_bytes FROM files WHERE commit_rowid = ? AND type = 'FILE'
         AND path >= ? AND path < ? ${datumClause}`,
    ).all(...params) as Array<{ path: string; size_bytes: number }>;
    const bytesByDir = new Map<string, number>();
    for (const row of removed) {
      remove.run(commit.rowid, row.path);
      for (const dir of ancestorDirs(row.path))
        bytesByDir.set(dir, (bytesByDir.get(dir) ?? 0) + row.size_bytes);
    }
    shrink(bytesByDir);
  }

  /** After a delete: a pending file / folder collision that is gone no longer fails the commit. */
  private recheckValidation(commit: CommitRow): void {
    const pending = this.prepare('SELECT validation_error FROM commits WHERE rowid = ?')
      .pluck()
      .get(commit.rowid);
    if (typeof pending !== 'string' || !pending.startsWith('file / directory path collision'))
      return;
    const collision = this.prepare(
      `SELECT f.path FROM files f JOIN files d ON d.commit_rowid = f.commit_rowid
         AND d.path = f.path || '/' WHERE f.commit_rowid = ? AND f.type = 'FILE' LIMIT 1`,
    )
      .pluck()
      .get(commit.rowid);
    this.prepare('UPDATE commits SET validation_error = ? WHERE rowid = ?').run(
      typeof collision === 'string' ? collisionError(collision) : '',
      commit.rowid,
    );
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
      if (!isOpen(current)) throw this.finishedError(current);
      this.prepare('DELETE FROM files WHERE commit_rowid = ?').run(commit.rowid);
      for (const file of files) this.putFile(current, file);
      this.finishCommitRow(current, '', error);
      alsoInTransaction?.();
    });
    this.events.notify();
    this.events.finished(this.commitByRowid(commit.rowid));
  }
}
