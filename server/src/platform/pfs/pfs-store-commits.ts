// PfsStore's branches and commits: branch heads, resolving commit references, the lineage
// (ancestors, chains), starting, finishing and clearing commits, provenance, commit and repo
// sizes, commit listings, and DeleteAll.
import { randomUUID } from 'node:crypto';
import { failedPrecondition, invalidArgument, notFound, type ApiError } from '../../errors.ts';
import type { Db } from '../storage/database.ts';
import type { CommitEvents } from './commit-events.ts';
import { CommitLineage, type ChainOptions } from './commit-lineage.ts';
import { validateBranchName } from './names.ts';
import { PfsRepoStore, repoLabel } from './pfs-store-repos.ts';
import { isOpen, type BranchRow, type CommitRow, type OriginKind, type RepoRow } from './rows.ts';

/** A new commit id: a UUID v4 in hex without dashes, as Pachyderm's (which tell ids from names). */
export const newCommitId = (): string => randomUUID().replace(/-/g, '');

/** A commit as Pachyderm names it in messages: "project/repo@id". */
export const commitLabel = (repo: RepoRow, id: string): string => `${repoLabel(repo)}@${id}`;

/**
 * Ancestry syntax after a commit id or branch name (Pachyderm's): `^`, `^^`, `^3`, `~`, `~~`,
 * `~3` (that many parents back), and `.N` (the Nth commit from the branch's root, 1-based),
 * which may come first: `master.3^` is `master.2`.
 */
function parseAncestry(id: string): { base: string; fromRoot: number | null; back: number } {
  const at = id.search(/[.^~]/);
  if (at === -1) return { base: id, fromRoot: null, back: 0 };
  const match = /^(?:\.(\d+))?(?:(\^+|~+)|([\^~])(\d+))?$/.exec(id.slice(at));
  if (!match) throw invalidArgument(`invalid ancestry syntax in ${JSON.stringify(id)}`);
  const back = match[2] ? match[2].length : match[4] ? Number(match[4]) : 0;
  if (match[1] === undefined) return { base: id.slice(0, at), fromRoot: null, back };
  const position = Number(match[1]) - 1;
  if (back > position && back > 0)
    throw invalidArgument('there should be less ancestors than descendants');
  return { base: id.slice(0, at), fromRoot: Math.max(position - back, 0), back: 0 };
}

/** Branches and commits (the layer of PfsStore above PfsRepoStore). */
export class PfsCommitStore extends PfsRepoStore {
  /**
   * Who a new commit is written by (its created_by), set when roles are on (platform/auth):
   * the caller, or a pipeline's robot principal for its output commits. Unset: ''.
   */
  commitAuthor: ((repo: RepoRow, origin: OriginKind) => string) | null = null;
  private readonly lineage: CommitLineage;

  constructor(db: Db, events: CommitEvents) {
    super(db, events);
    this.lineage = new CommitLineage(db);
  }

  /** Size of the repo: the size of the head commit of master. */
  repoSize(repo: RepoRow): number {
    const head = this.findBranch(repo, 'master')?.head_rowid;
    return head ? this.commitSize(this.commitByRowid(head)) : 0;
  }

  findBranch(repo: RepoRow, name: string): BranchRow | undefined {
    return this.prepare('SELECT * FROM branches WHERE repo_id = ? AND name = ?').get(
      repo.id,
      name,
    ) as BranchRow | undefined;
  }

  getBranch(repo: RepoRow, name: string): BranchRow {
    const branch = this.findBranch(repo, name);
    if (!branch)
      throw notFound(`branch ${JSON.stringify(name)} not found in repo ${repoLabel(repo)}`);
    return branch;
  }

  /** A repo's branches, newest first (by creation: moving a head keeps a branch's place). */
  listBranches(repo: RepoRow): BranchRow[] {
    return this.prepare(
      'SELECT * FROM branches WHERE repo_id = ? ORDER BY created_at DESC, rowid DESC',
    ).all(repo.id) as BranchRow[];
  }

  /** Points a branch at `head`; without a head a new branch gets an empty finished commit. */
  createBranch(repo: RepoRow, name: string, head: CommitRow | null, provenance: string[]): void {
    validateBranchName(name);
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
   * by ancestry (parseAncestry: "master^", "master~2", "<id>^^", "master.1"); an id that is only
   * ancestry ("^2") or empty applies to the head of `branchName`.
   */
  resolveCommit(repo: RepoRow, id: string, branchName: string): CommitRow {
    const { base, fromRoot, back } = parseAncestry(id);
    const label = () =>
      (id === '' || /^[.^~]/.test(id)) && branchName
        ? commitLabel(repo, branchName + id)
        : commitLabel(repo, id);
    let commit: CommitRow | undefined;
    if (base === '') {
      if (!branchName) throw invalidArgument('a commit needs an id or a branch');
      commit = this.branchHead(repo, branchName);
    } else {
      commit = this.findCommit(repo, base);
      if (!commit && this.findBranch(repo, base)) commit = this.branchHead(repo, base);
      if (!commit) throw notFound(`commit ${label()} not found`);
    }
    let found: CommitRow | undefined;
    if (fromRoot === null) {
      found = this.lineage.ancestor(commit, back);
    } else {
      let index = 0;
      for (const row of this.lineage.chain(commit, { stopAt: null, reverse: true })) {
        if (index++ === fromRoot) {
          found = row;
          break;
        }
      }
    }
    if (!found) throw notFound(`commit ${label()} not found`);
    return found;
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
    if (branch.head_rowid === null)
      throw notFound(`branch ${JSON.stringify(branchName)} has no head commit`);
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
    if (branchName) validateBranchName(branchName);
    const commit = this.transaction(() => {
      const branch = branchName ? this.findBranch(repo, branchName) : undefined;
      const head = branch?.head_rowid ? this.commitByRowid(branch.head_rowid) : null;
      const parent = explicitParent ?? head;
      if (parent && isOpen(parent)) {
        throw failedPrecondition(
          `parent commit ${commitLabel(this.repoById(parent.repo_id), parent.id)} has not been finished`,
        );
      }
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
    // Start times strictly increase within a repo (a commit started in the same millisecond as
    // the one before counts one later), so ListCommit's started_time tells them apart.
    const last = this.prepare(
      'SELECT started_at FROM commits WHERE repo_id = ? ORDER BY rowid DESC LIMIT 1',
    )
      .pluck()
      .get(repo.id);
    const startedAt = Math.max(Date.now(), typeof last === 'number' ? last + 1 : 0);
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
      startedAt,
      this.commitAuthor?.(repo, origin) ?? '',
    );
    const rowid = Number(result.lastInsertRowid);
    const base = this.baseOf(parent);
    if (base) this.copyFiles(base, rowid);
    return rowid;
  }

  /**
   * The commit whose files a child of `parent` starts from: `parent`, or its nearest ancestor
   * that did not finish with an error (Pachyderm leaves an errored commit's changes out of its
   * descendants).
   */
  baseOf(parent: CommitRow | null): CommitRow | null {
    let base = parent;
    while (base && base.error !== '' && base.finished_at !== null)
      base = base.parent_rowid === null ? null : this.commitByRowid(base.parent_rowid);
    return base;
  }

  private copyFiles(from: CommitRow, toRowid: number): void {
    this.prepare(
      `INSERT INTO files (commit_rowid, path, dir, name, type, hash, size_bytes, committed_at, datum, pfs_hash)
         SELECT ?, path, dir, name, type, hash, size_bytes, committed_at, datum, pfs_hash
         FROM files WHERE commit_rowid = ?`,
    ).run(toRowid, from.rowid);
  }

  finishCommit(commit: CommitRow, description: string, error: string): void {
    this.transaction(() => {
      const current = this.commitByRowid(commit.rowid);
      if (!isOpen(current)) throw this.finishedError(current);
      this.finishCommitRow(current, description, error);
    });
    this.events.notify();
    this.events.finished(this.commitByRowid(commit.rowid));
  }

  /** Finishes an open commit inside the caller's transaction; announceFinished after it lands. */
  finishWithoutEvents(commit: CommitRow): CommitRow {
    const current = this.commitByRowid(commit.rowid);
    if (!isOpen(current)) throw this.finishedError(current);
    this.finishCommitRow(current, '', '');
    return this.commitByRowid(commit.rowid);
  }

  /** Pachyderm's error for writing to, or finishing, a finished commit. */
  finishedError(commit: CommitRow): ApiError {
    return failedPrecondition(
      `commit ${commitLabel(this.repoById(commit.repo_id), commit.id)} has already finished`,
    );
  }

  /** Tells subscribers and pipelines about commits finished by finishWithoutEvents. */
  announceFinished(commits: CommitRow[]): void {
    this.events.notify();
    for (const commit of commits) this.events.finished(commit);
  }

  /** ClearCommit: an open commit goes back to its parent's files (none without a parent). */
  clearCommit(commit: CommitRow): void {
    this.transaction(() => {
      const current = this.commitByRowid(commit.rowid);
      if (!isOpen(current)) throw failedPrecondition('cannot clear finished commit');
      this.prepare('DELETE FROM files WHERE commit_rowid = ?').run(current.rowid);
      this.prepare("UPDATE commits SET validation_error = '' WHERE rowid = ?").run(current.rowid);
      const base = this.baseOf(
        current.parent_rowid === null ? null : this.commitByRowid(current.parent_rowid),
      );
      if (base) this.copyFiles(base, current.rowid);
    });
    this.events.notify();
  }

  /**
   * DeleteAll: every repo with its branches, commits and files, and every project; then the
   * project "default" anew, empty (as pachd leaves a cluster). Blobs stay on disk
   * (content-addressed, possibly shared).
   */
  deleteAll(): void {
    this.transaction(() => {
      for (const repo of this.prepare('SELECT * FROM repos').all() as RepoRow[])
        this.deleteRepoRows(repo.id);
      this.prepare('DELETE FROM projects').run();
      this.prepare('INSERT INTO projects (name, description, created_at) VALUES (?, ?, ?)').run(
        'default',
        '',
        Date.now(),
      );
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

  /** Finishes a commit; with no error of its own, a pending validation error is its error. */
  protected finishCommitRow(commit: CommitRow, description: string, error: string): void {
    const now = Date.now();
    this.prepare(
      `UPDATE commits SET finishing_at = ?, finished_at = ?, size_bytes = ?,
           error = CASE WHEN ? = '' THEN validation_error ELSE ? END, validation_error = '',
           description = CASE WHEN ? = '' THEN description ELSE ? END WHERE rowid = ?`,
    ).run(
      now,
      now,
      this.sumFileSizes(commit.rowid),
      error,
      error,
      description,
      description,
      commit.rowid,
    );
  }

  /** A commit's size as its CommitInfo reports it: none until it is finished (as pachd). */
  commitSize(commit: CommitRow): number {
    return isOpen(commit) ? 0 : commit.size_bytes;
  }

  /** The bytes of a commit's files, finished or not. */
  contentSize(commit: CommitRow): number {
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
  /** A page of a repo's commits by rowid (`repo` null: every repo's, as pachd's ListCommit). */
  repoCommitsPage(
    repo: RepoRow | null,
    options: {
      after: number | null;
      from: number | null;
      origin: string | null;
      reverse: boolean;
      limit: number;
    },
  ): CommitRow[] {
    const clauses = repo ? ['repo_id = ?'] : ['1'];
    const params: unknown[] = repo ? [repo.id] : [];
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
}
