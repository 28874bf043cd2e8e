// PfsStore's file reads: one file or folder of a commit, and listings (a folder's children, a
// subtree, a range of paths), whole or a chunk at a time.
import { notFound } from '../../errors.ts';
import { subtreeUpperBound } from './file-paths.ts';
import { PfsCommitStore } from './pfs-store-commits.ts';
import type { CommitRow, FileRow, ListedFile } from './rows.ts';

export interface PageOptions {
  /** Exclusive stored path to continue after. */
  after: string | null;
  limit: number;
  reverse: boolean;
}

const byDir = 'AND dir = ?';

/** The columns a file listing sends (ListedFile). */
const listedColumns = 'path, type, hash, size_bytes, committed_at';
type ListedTuple = [string, ListedFile['type'], string, number, number];

/** A range of paths (a bound null: none); the upper bound is exclusive. */
interface PathBounds {
  lower: string | null;
  lowerInclusive: boolean;
  upper: string | null;
}

/** The rows under a stored folder path (not the folder itself). */
const subtreeBounds = (dirPath: string): PathBounds => ({
  lower: dirPath,
  lowerInclusive: false,
  upper: subtreeUpperBound(dirPath),
});

/**
 * The WHERE clause for paths within `bounds` and past a page's marker, with at most one bound
 * on each side: SQLite searches the primary key by one lower and one upper bound and tests any
 * other bound row by row, so a marker added as a second bound made every chunk of a scan start
 * over at the range's start (a 100,000-row WalkFile read 5 million rows).
 */
function boundsWhere(bounds: PathBounds, page: PageOptions): { where: string; params: string[] } {
  let { lower, upper } = bounds;
  let lowerOp = bounds.lowerInclusive ? '>=' : '>';
  const after = page.after;
  if (after !== null && !page.reverse && (lower === null || after >= lower)) {
    lower = after;
    lowerOp = '>';
  }
  if (after !== null && page.reverse && (upper === null || after <= upper)) upper = after;
  let where = '';
  const params: string[] = [];
  if (lower !== null) {
    where += ` AND path ${lowerOp} ?`;
    params.push(lower);
  }
  if (upper !== null) {
    where += ' AND path < ?';
    params.push(upper);
  }
  return { where, params };
}

/** Reading a commit's files (the layer of PfsStore above PfsCommitStore). */
export class PfsFileListing extends PfsCommitStore {
  /** The file or folder at a normalised path, or undefined; "/" is the commit's root folder. */
  findFile(commit: CommitRow, path: string): FileRow | undefined {
    if (path === '/') return this.rootRow(commit);
    return this.prepare(
      'SELECT * FROM files WHERE commit_rowid = ? AND path IN (?, ?) ORDER BY type DESC LIMIT 1',
    ).get(commit.rowid, path, path + '/') as FileRow | undefined;
  }

  getFile(commit: CommitRow, path: string): FileRow {
    const file = this.findFile(commit, path);
    if (!file) throw notFound(`file ${path} not found in commit ${commit.id}`);
    return file;
  }

  private rootRow(commit: CommitRow): FileRow {
    return {
      commit_rowid: commit.rowid,
      path: '/',
      dir: '',
      name: '',
      type: 'DIR',
      hash: '',
      size_bytes: this.commitSize(commit),
      committed_at: commit.finished_at ?? commit.started_at,
    };
  }

  /**
   * Rows of a commit matching `where` (with `params`), ordered by path (descending when
   * reversed), after an exclusive marker, at most `page.limit` (0: all).
   */
  private queryFiles(
    columns: string,
    commit: CommitRow,
    where: string,
    params: unknown[],
    page: PageOptions,
  ): unknown[] {
    const marker = page.after === null ? '' : page.reverse ? 'AND path < ?' : 'AND path > ?';
    // A folder's children are a range of files_by_dir; without statistics SQLite would rather
    // walk the primary key from the marker and skip every other folder's rows on the way.
    const index = where === byDir ? 'INDEXED BY files_by_dir' : '';
    const all = [commit.rowid, ...params];
    if (page.after !== null) all.push(page.after);
    all.push(page.limit > 0 ? page.limit : -1);
    const statement = this.prepare(
      `SELECT ${columns} FROM files ${index} WHERE commit_rowid = ? ${where} ${marker}
         ORDER BY path ${page.reverse ? 'DESC' : 'ASC'} LIMIT ?`,
    );
    if (columns !== listedColumns) return statement.raw(false).all(...all);
    // Arrays, made into objects here: about half what better-sqlite3's row objects cost.
    return (statement.raw(true).all(...all) as ListedTuple[]).map(
      ([path, type, hash, size_bytes, committed_at]): ListedFile => ({
        path,
        type,
        hash,
        size_bytes,
        committed_at,
      }),
    );
  }

  /** Direct children of a stored folder path, ordered by path, after an exclusive marker. */
  listChildren(commit: CommitRow, dirPath: string, page: PageOptions): FileRow[] {
    return this.queryFiles('*', commit, byDir, [dirPath], page) as FileRow[];
  }

  /** Every stored row under a stored folder path (not the folder itself), ordered by path. */
  listSubtree(
    commit: CommitRow,
    dirPath: string,
    page: PageOptions = { after: null, limit: 0, reverse: false },
  ): FileRow[] {
    return this.queryRange('*', commit, subtreeBounds(dirPath), page) as FileRow[];
  }

  /** Rows with paths within `bounds`, paged (queryFiles), the marker folded into the bounds. */
  private queryRange(
    columns: string,
    commit: CommitRow,
    bounds: PathBounds,
    page: PageOptions,
  ): unknown[] {
    const { where, params } = boundsWhere(bounds, page);
    return this.queryFiles(columns, commit, where, params, { ...page, after: null });
  }

  /** Listings read in chunks of this many rows (what a streaming listing holds at once). */
  static readonly scanChunkRows = 1000;
  private openScans = 0;

  /** How many chunked file scans are in progress (each holds at most one chunk of rows). */
  get openFileScans(): number {
    return this.openScans;
  }

  /** listChildren, read a chunk at a time (scanInChunks), with only what a listing sends. */
  scanChildren(commit: CommitRow, dirPath: string, page: PageOptions): Generator<ListedFile[]> {
    return this.scanInChunks(page, (p) =>
      this.queryFiles(listedColumns, commit, byDir, [dirPath], p),
    );
  }

  /** listSubtree, read a chunk at a time (scanInChunks), with only what a listing sends. */
  scanSubtree(commit: CommitRow, dirPath: string, page: PageOptions): Generator<ListedFile[]> {
    const bounds = subtreeBounds(dirPath);
    return this.scanInChunks(page, (p) => this.queryRange(listedColumns, commit, bounds, p));
  }

  /**
   * Rows with paths in [lower, upper) (either bound null: none), in path order, read a chunk at
   * a time (scanInChunks), with only what a listing sends.
   */
  scanRange(
    commit: CommitRow,
    lower: string | null,
    upper: string | null,
  ): Generator<ListedFile[]> {
    const bounds: PathBounds = { lower, lowerInclusive: true, upper };
    return this.scanInChunks({ after: null, limit: 0, reverse: false }, (p) =>
      this.queryRange(listedColumns, commit, bounds, p),
    );
  }

  /**
   * Runs a paged query (`list(page)`) a chunk at a time: each chunk is one short query, so no
   * listing holds the whole result, no statement stays open across turns of the event loop, and
   * a consumer that stops early ends the scan.
   */
  private *scanInChunks(
    page: PageOptions,
    list: (page: PageOptions) => unknown[],
  ): Generator<ListedFile[]> {
    this.openScans++;
    try {
      let after = page.after;
      let left = page.limit > 0 ? page.limit : Infinity;
      while (left > 0) {
        const limit = Math.min(PfsFileListing.scanChunkRows, left);
        const rows = list({ after, limit, reverse: page.reverse }) as ListedFile[];
        if (rows.length > 0) yield rows;
        if (rows.length < limit) return;
        left -= rows.length;
        after = (rows[rows.length - 1] as ListedFile).path;
      }
    } finally {
      this.openScans--;
    }
  }

  /** Every row of a commit, ordered by path. */
  allFiles(commit: CommitRow): FileRow[] {
    return this.prepare('SELECT * FROM files WHERE commit_rowid = ? ORDER BY path').all(
      commit.rowid,
    ) as FileRow[];
  }
}
