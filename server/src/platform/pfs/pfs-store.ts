import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { alreadyExists, failedPrecondition, invalidArgument, notFound } from '../../errors.ts';
import type { Db } from '../storage/database.ts';
import type { CommitEvents } from './commit-events.ts';
import { CommitLineage, type ChainOptions } from './commit-lineage.ts';
import { ancestorDirs, asDirPath, baseName, parentDir, subtreeUpperBound } from './file-paths.ts';
import { validateName } from './names.ts';
import {
  isOpen,
  type BranchRow,
  type CommitRow,
  type FileRow,
  type ListedFile,
  type OriginKind,
  type ProjectRow,
  type RepoRow,
  type RepoType,
} from './rows.ts';

export interface RepoRef {
  project: string;
  name: string;
  type: RepoType;
}

export interface NewFile {
  /** Normalised absolute path ("/a/b.txt"). */
  path: string;
  hash: string;
  sizeBytes: number;
}

export interface PageOptions {
  /** Exclusive stored path to continue after. */
  after: string | null;
  limit: number;
  reverse: boolean;
}

const repoTypes: readonly RepoType[] = ['user', 'spec', 'meta'];

export const newCommitId = (): string => randomBytes(16).toString('hex');

const describeRepo = (repo: RepoRow) => `${repo.project}/${repo.name}`;

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

/**
 * Projects, repos, branches, commits and files with Pachyderm semantics, in SQLite.
 * Each commit materialises its full file table; every method that changes state runs in one
 * transaction, so a failed call changes nothing.
 */
export class PfsStore {
  private readonly statements = new Map<string, Statement>();
  /**
   * Who a new commit is written by (its created_by), set when roles are on (platform/auth):
   * the caller, or a pipeline's robot principal for its output commits. Unset: ''.
   */
  commitAuthor: ((repo: RepoRow, origin: OriginKind) => string) | null = null;
  private readonly lineage: CommitLineage;

  constructor(
    private readonly db: Db,
    private readonly events: CommitEvents,
  ) {
    this.lineage = new CommitLineage(db);
  }

  /**
   * A prepared statement, cached by its SQL: compiling one costs more than running it (a file
   * write runs five). Handed out with plucking off; callers that pluck turn it on each time.
   */
  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    } else if (statement.reader) statement.pluck(false);
    return statement;
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  // ---- projects -------------------------------------------------------------------------

  createProject(name: string, description: string, update: boolean): void {
    validateName('project', name);
    this.transaction(() => {
      const existing = this.findProject(name);
      if (existing && !update) throw alreadyExists(`project ${name} already exists`);
      if (existing) {
        this.prepare('UPDATE projects SET description = ? WHERE name = ?').run(description, name);
      } else {
        this.prepare('INSERT INTO projects (name, description, created_at) VALUES (?, ?, ?)').run(
          name,
          description,
          Date.now(),
        );
      }
    });
  }

  findProject(name: string): ProjectRow | undefined {
    return this.prepare('SELECT * FROM projects WHERE name = ?').get(name) as
      ProjectRow | undefined;
  }

  getProject(name: string): ProjectRow {
    const project = this.findProject(name);
    if (!project) throw notFound(`project ${name} not found`);
    return project;
  }

  listProjects(): ProjectRow[] {
    return this.prepare('SELECT * FROM projects ORDER BY name').all() as ProjectRow[];
  }

  deleteProject(name: string, force: boolean): void {
    this.transaction(() => {
      this.getProject(name);
      const repos = this.prepare('SELECT * FROM repos WHERE project = ?').all(name) as RepoRow[];
      if (repos.length > 0 && !force) {
        throw failedPrecondition(`project ${name} is not empty: it has ${repos.length} repos`);
      }
      for (const repo of repos) this.deleteRepoRows(repo.id);
      this.prepare('DELETE FROM projects WHERE name = ?').run(name);
    });
  }

  setProjectMetadata(name: string, metadata: Record<string, string>): void {
    this.getProject(name);
    this.prepare('UPDATE projects SET metadata = ? WHERE name = ?').run(
      JSON.stringify(metadata),
      name,
    );
  }

  // ---- repos ----------------------------------------------------------------------------

  createRepo(ref: RepoRef, description: string, update: boolean): RepoRow {
    validateName('repo', ref.name);
    if (!repoTypes.includes(ref.type))
      throw invalidArgument(`repo type ${JSON.stringify(ref.type)} is invalid`);
    return this.transaction(() => {
      this.getProject(ref.project);
      const existing = this.findRepo(ref);
      if (existing && !update)
        throw alreadyExists(`repo ${ref.name} already exists in project ${ref.project}`);
      if (existing) {
        this.prepare('UPDATE repos SET description = ? WHERE id = ?').run(description, existing.id);
      } else {
        this.prepare(
          'INSERT INTO repos (project, name, type, description, created_at) VALUES (?, ?, ?, ?, ?)',
        ).run(ref.project, ref.name, ref.type, description, Date.now());
      }
      return this.getRepo(ref);
    });
  }

  findRepo(ref: RepoRef): RepoRow | undefined {
    return this.prepare('SELECT * FROM repos WHERE project = ? AND name = ? AND type = ?').get(
      ref.project,
      ref.name,
      ref.type,
    ) as RepoRow | undefined;
  }

  getRepo(ref: RepoRef): RepoRow {
    this.getProject(ref.project);
    const repo = this.findRepo(ref);
    if (!repo) {
      const kind = ref.type === 'user' ? 'repo' : `${ref.type} repo`;
      throw notFound(`${kind} ${ref.name} not found in project ${ref.project}`);
    }
    return repo;
  }

  repoById(id: number): RepoRow {
    return this.prepare('SELECT * FROM repos WHERE id = ?').get(id) as RepoRow;
  }

  listRepos(filter: { type: RepoType | null; projects: string[] }): RepoRow[] {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (filter.type) {
      clauses.push('type = ?');
      params.push(filter.type);
    }
    if (filter.projects.length > 0) {
      clauses.push(`project IN (${filter.projects.map(() => '?').join(', ')})`);
      params.push(...filter.projects);
    }
    const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
    return this.prepare(`SELECT * FROM repos ${where} ORDER BY project, name, type`).all(
      ...params,
    ) as RepoRow[];
  }

  deleteRepo(ref: RepoRef): void {
    this.transaction(() => this.deleteRepoRows(this.getRepo(ref).id));
    this.events.notify();
  }

  private deleteRepoRows(repoId: number): void {
    // Out of the lineage first: deleting them one by one would move the rest of each segment.
    this.prepare('UPDATE commits SET lineage_seg = NULL, lineage_pos = NULL WHERE repo_id = ?').run(
      repoId,
    );
    this.prepare(
      'DELETE FROM files WHERE commit_rowid IN (SELECT rowid FROM commits WHERE repo_id = ?)',
    ).run(repoId);
    this.prepare('DELETE FROM branches WHERE repo_id = ?').run(repoId);
    this.prepare('DELETE FROM commits WHERE repo_id = ?').run(repoId);
    this.prepare('DELETE FROM repos WHERE id = ?').run(repoId);
  }

  setRepoMetadata(repo: RepoRow, metadata: Record<string, string>): void {
    this.prepare('UPDATE repos SET metadata = ? WHERE id = ?').run(
      JSON.stringify(metadata),
      repo.id,
    );
  }

  /** Size of the repo: the size of the head commit of master. */
  repoSize(repo: RepoRow): number {
    const head = this.findBranch(repo, 'master')?.head_rowid;
    return head ? this.commitSize(this.commitByRowid(head)) : 0;
  }

  // ---- branches -------------------------------------------------------------------------

  findBranch(repo: RepoRow, name: string): BranchRow | undefined {
    return this.prepare('SELECT * FROM branches WHERE repo_id = ? AND name = ?').get(
      repo.id,
      name,
    ) as BranchRow | undefined;
  }

  getBranch(repo: RepoRow, name: string): BranchRow {
    const branch = this.findBranch(repo, name);
    if (!branch) throw notFound(`branch ${name} not found in repo ${describeRepo(repo)}`);
    return branch;
  }

  listBranches(repo: RepoRow): BranchRow[] {
    return this.prepare('SELECT * FROM branches WHERE repo_id = ? ORDER BY name').all(
      repo.id,
    ) as BranchRow[];
  }

  /** Points a branch at `head`; without a head a new branch gets an empty finished commit. */
  createBranch(repo: RepoRow, name: string, head: CommitRow | null, provenance: string[]): void {
    validateName('branch', name);
    this.transaction(() => {
      const existing = this.findBranch(repo, name);
      let headRowid = head?.rowid ?? existing?.head_rowid ?? null;
      if (headRowid === null) {
        headRowid = this.insertCommit(repo, name, null, '', 'AUTO');
        this.finishCommitRow(this.commitByRowid(headRowid), '', '');
      }
      const now = Date.now();
      this.prepare(
        `INSERT INTO branches (repo_id, name, head_rowid, provenance, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (repo_id, name) DO UPDATE SET head_rowid = excluded.head_rowid,
             provenance = excluded.provenance, updated_at = excluded.updated_at`,
      ).run(repo.id, name, headRowid, JSON.stringify(provenance), now, now);
    });
    this.events.notify();
  }

  deleteBranch(repo: RepoRow, name: string): void {
    this.getBranch(repo, name);
    this.prepare('DELETE FROM branches WHERE repo_id = ? AND name = ?').run(repo.id, name);
  }

  setBranchMetadata(branch: BranchRow, metadata: Record<string, string>): void {
    this.prepare('UPDATE branches SET metadata = ? WHERE repo_id = ? AND name = ?').run(
      JSON.stringify(metadata),
      branch.repo_id,
      branch.name,
    );
  }

  // ---- commits --------------------------------------------------------------------------

  commitByRowid(rowid: number): CommitRow {
    return this.prepare('SELECT rowid, * FROM commits WHERE rowid = ?').get(rowid) as CommitRow;
  }

  findCommit(repo: RepoRow, id: string): CommitRow | undefined {
    return this.prepare('SELECT rowid, * FROM commits WHERE repo_id = ? AND id = ?').get(
      repo.id,
      id,
    ) as CommitRow | undefined;
  }

  /**
   * Resolves a commit reference: a commit id, or a branch name (its head), optionally followed
   * by ancestry ("master^", "master~2", "<id>^^"); an empty id means the head of `branchName`.
   */
  resolveCommit(repo: RepoRow, id: string, branchName: string): CommitRow {
    const match = /^(.*?)((?:[\^~]\d*)*)$/.exec(id);
    const base = match?.[1] ?? id;
    let generations = 0;
    for (const step of (match?.[2] ?? '').match(/[\^~]\d*/g) ?? []) {
      generations += step.length > 1 ? Number(step.slice(1)) : 1;
    }
    let commit: CommitRow | undefined;
    if (base === '') {
      if (!branchName) throw invalidArgument('a commit needs an id or a branch');
      commit = this.branchHead(repo, branchName);
    } else {
      commit = this.findCommit(repo, base);
      if (!commit && this.findBranch(repo, base)) commit = this.branchHead(repo, base);
      if (!commit) throw notFound(`commit ${id} not found in repo ${describeRepo(repo)}`);
    }
    const ancestor = this.lineage.ancestor(commit, generations);
    if (!ancestor) throw notFound(`commit ${id} not found in repo ${describeRepo(repo)}`);
    return ancestor;
  }

  /** The commit `generations` parents above `commit` (lineage index), or undefined. */
  ancestorOf(commit: CommitRow, generations: number): CommitRow | undefined {
    return this.lineage.ancestor(commit, generations);
  }

  /**
   * `start` and its ancestors down to (not including) `options.stopAt`, or to the root when
   * that is not among them; newest first unless `reverse`. Read lazily, a page at a time.
   */
  commitChain(start: CommitRow, options: ChainOptions): Generator<CommitRow> {
    return this.lineage.chain(start, options);
  }

  private branchHead(repo: RepoRow, branchName: string): CommitRow {
    const branch = this.getBranch(repo, branchName);
    if (branch.head_rowid === null) throw notFound(`branch ${branchName} has no head commit`);
    return this.commitByRowid(branch.head_rowid);
  }

  /** Opens a commit on a branch (creating the branch if needed) and makes it the head. */
  startCommit(
    repo: RepoRow,
    branchName: string,
    explicitParent: CommitRow | null,
    description: string,
    origin: OriginKind = 'USER',
    id: string = newCommitId(),
  ): CommitRow {
    if (branchName) validateName('branch', branchName);
    const commit = this.transaction(() => {
      const branch = branchName ? this.findBranch(repo, branchName) : undefined;
      const head = branch?.head_rowid ? this.commitByRowid(branch.head_rowid) : null;
      if (head && isOpen(head)) {
        throw failedPrecondition(`branch ${branchName} already has an open commit ${head.id}`);
      }
      const parent = explicitParent ?? head;
      const rowid = this.insertCommit(repo, branchName || null, parent, description, origin, id);
      if (branchName) {
        const now = Date.now();
        this.prepare(
          `INSERT INTO branches (repo_id, name, head_rowid, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (repo_id, name) DO UPDATE SET head_rowid = excluded.head_rowid, updated_at = excluded.updated_at`,
        ).run(repo.id, branchName, rowid, now, now);
      }
      return this.commitByRowid(rowid);
    });
    this.events.notify();
    return commit;
  }

  private insertCommit(
    repo: RepoRow,
    branchName: string | null,
    parent: CommitRow | null,
    description: string,
    origin: OriginKind,
    id: string = newCommitId(),
  ): number {
    const result = this.prepare(
      `INSERT INTO commits (repo_id, id, branch_name, parent_rowid, origin, description, started_at, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      repo.id,
      id,
      branchName,
      parent?.rowid ?? null,
      origin,
      description,
      Date.now(),
      this.commitAuthor?.(repo, origin) ?? '',
    );
    const rowid = Number(result.lastInsertRowid);
    if (parent) {
      this.prepare(
        `INSERT INTO files (commit_rowid, path, dir, name, type, hash, size_bytes, committed_at)
           SELECT ?, path, dir, name, type, hash, size_bytes, committed_at FROM files WHERE commit_rowid = ?`,
      ).run(rowid, parent.rowid);
    }
    return rowid;
  }

  finishCommit(commit: CommitRow, description: string, error: string): void {
    this.transaction(() => {
      const current = this.commitByRowid(commit.rowid);
      if (!isOpen(current)) throw failedPrecondition(`commit ${commit.id} is already finished`);
      this.finishCommitRow(current, description, error);
    });
    this.events.notify();
    this.events.finished(this.commitByRowid(commit.rowid));
  }

  /** Finishes an open commit inside the caller's transaction; announceFinished after it lands. */
  finishWithoutEvents(commit: CommitRow): CommitRow {
    const current = this.commitByRowid(commit.rowid);
    if (!isOpen(current)) throw failedPrecondition(`commit ${commit.id} is already finished`);
    this.finishCommitRow(current, '', '');
    return this.commitByRowid(commit.rowid);
  }

  /** Tells subscribers and pipelines about commits finished by finishWithoutEvents. */
  announceFinished(commits: CommitRow[]): void {
    this.events.notify();
    for (const commit of commits) this.events.finished(commit);
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

  /** ClearCommit: an open commit goes back to its parent's files (none without a parent). */
  clearCommit(commit: CommitRow): void {
    this.transaction(() => {
      const current = this.commitByRowid(commit.rowid);
      if (!isOpen(current))
        throw failedPrecondition(
          `commit ${commit.id} is finished: only an open commit can be cleared`,
        );
      this.prepare('DELETE FROM files WHERE commit_rowid = ?').run(current.rowid);
      if (current.parent_rowid !== null) {
        this.prepare(
          `INSERT INTO files (commit_rowid, path, dir, name, type, hash, size_bytes, committed_at)
             SELECT ?, path, dir, name, type, hash, size_bytes, committed_at FROM files WHERE commit_rowid = ?`,
        ).run(current.rowid, current.parent_rowid);
      }
    });
    this.events.notify();
  }

  /**
   * DeleteAll: every repo with its branches, commits and files, and every project but the
   * default one (which is kept, empty). Blobs stay on disk (content-addressed, possibly shared).
   */
  deleteAll(): void {
    this.transaction(() => {
      for (const repo of this.prepare('SELECT * FROM repos').all() as RepoRow[])
        this.deleteRepoRows(repo.id);
      this.prepare("DELETE FROM projects WHERE name != 'default'").run();
    });
    this.events.notify();
  }

  /** Records that `commit` was computed from `from` (pipeline output ← input commits). */
  addProvenance(commit: CommitRow, from: CommitRow[]): void {
    const insert = this.prepare(
      'INSERT OR IGNORE INTO commit_provenance (commit_rowid, from_rowid) VALUES (?, ?)',
    );
    this.transaction(() => {
      for (const source of from) insert.run(commit.rowid, source.rowid);
    });
  }

  /** Commits `commit` was computed from. */
  directProvenance(commit: CommitRow): CommitRow[] {
    return this.prepare(
      `SELECT c.rowid, c.* FROM commit_provenance p JOIN commits c ON c.rowid = p.from_rowid
         WHERE p.commit_rowid = ? ORDER BY c.rowid`,
    ).all(commit.rowid) as CommitRow[];
  }

  /** Commits computed from `commit`. */
  directSubvenance(commit: CommitRow): CommitRow[] {
    return this.prepare(
      `SELECT c.rowid, c.* FROM commit_provenance p JOIN commits c ON c.rowid = p.commit_rowid
         WHERE p.from_rowid = ? ORDER BY c.rowid`,
    ).all(commit.rowid) as CommitRow[];
  }

  private finishCommitRow(commit: CommitRow, description: string, error: string): void {
    const now = Date.now();
    this.prepare(
      `UPDATE commits SET finishing_at = ?, finished_at = ?, size_bytes = ?, error = ?,
           description = CASE WHEN ? = '' THEN description ELSE ? END WHERE rowid = ?`,
    ).run(now, now, this.sumFileSizes(commit.rowid), error, description, description, commit.rowid);
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

  commitSize(commit: CommitRow): number {
    return isOpen(commit) ? this.sumFileSizes(commit.rowid) : commit.size_bytes;
  }

  private sumFileSizes(commitRowid: number): number {
    return Number(
      this.prepare(
        "SELECT COALESCE(SUM(size_bytes), 0) FROM files WHERE commit_rowid = ? AND type = 'FILE'",
      )
        .pluck()
        .get(commitRowid),
    );
  }

  childCommits(commit: CommitRow): CommitRow[] {
    return this.prepare('SELECT rowid, * FROM commits WHERE parent_rowid = ? ORDER BY rowid').all(
      commit.rowid,
    ) as CommitRow[];
  }

  /**
   * A page of a repo's commits in creation order (newest first unless `reverse`), after the
   * rowid `after` (exclusive, in the listing's direction), created after `from` (exclusive) and
   * of one origin when given.
   */
  repoCommitsPage(
    repo: RepoRow,
    options: {
      after: number | null;
      from: number | null;
      origin: string | null;
      reverse: boolean;
      limit: number;
    },
  ): CommitRow[] {
    const clauses = ['repo_id = ?'];
    const params: unknown[] = [repo.id];
    if (options.from !== null) {
      clauses.push('rowid > ?');
      params.push(options.from);
    }
    if (options.after !== null) {
      clauses.push(options.reverse ? 'rowid > ?' : 'rowid < ?');
      params.push(options.after);
    }
    if (options.origin !== null) {
      clauses.push('origin = ?');
      params.push(options.origin);
    }
    params.push(options.limit);
    return this.prepare(
      `SELECT rowid, * FROM commits WHERE ${clauses.join(' AND ')}
         ORDER BY rowid ${options.reverse ? 'ASC' : 'DESC'} LIMIT ?`,
    ).all(...params) as CommitRow[];
  }

  /** Every commit of a repo, newest first. */
  listRepoCommits(repo: RepoRow): CommitRow[] {
    return this.prepare('SELECT rowid, * FROM commits WHERE repo_id = ? ORDER BY rowid DESC').all(
      repo.id,
    ) as CommitRow[];
  }

  /** Every commit with a global id, across repos. */
  commitsWithId(id: string): CommitRow[] {
    return this.prepare('SELECT rowid, * FROM commits WHERE id = ? ORDER BY rowid').all(
      id,
    ) as CommitRow[];
  }

  /** Global ids of the commits in a project's repos (or every project), newest first. */
  commitSetIds(project: string | null): string[] {
    const sql = project
      ? `SELECT c.id FROM commits c JOIN repos r ON r.id = c.repo_id WHERE r.project = ?
         GROUP BY c.id ORDER BY MAX(c.rowid) DESC`
      : 'SELECT id FROM commits GROUP BY id ORDER BY MAX(rowid) DESC';
    const statement = this.prepare(sql).pluck();
    return (project ? statement.all(project) : statement.all()) as string[];
  }

  setCommitMetadata(commit: CommitRow, metadata: Record<string, string>): void {
    this.prepare('UPDATE commits SET metadata = ? WHERE rowid = ?').run(
      JSON.stringify(metadata),
      commit.rowid,
    );
  }

  // ---- files ----------------------------------------------------------------------------

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
        const limit = Math.min(PfsStore.scanChunkRows, left);
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
}
