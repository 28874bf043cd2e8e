// PfsStore's branches and commits: branch heads, resolving commit references, the lineage
// (ancestors, chains), starting, finishing and clearing commits, provenance, commit and repo
// sizes, commit listings, and DeleteAll.
import { randomBytes } from 'node:crypto';
import { failedPrecondition, invalidArgument, notFound } from '../../errors.ts';
import type { Db } from '../storage/database.ts';
import type { CommitEvents } from './commit-events.ts';
import { CommitLineage, type ChainOptions } from './commit-lineage.ts';
import { validateName } from './names.ts';
import { PfsRepoStore } from './pfs-store-repos.ts';
import { isOpen, type BranchRow, type CommitRow, type OriginKind, type RepoRow } from './rows.ts';

export const newCommitId = (): string => randomBytes(16).toString('hex');

const describeRepo = (repo: RepoRow) => `${repo.project}/${repo.name}`;

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

  protected finishCommitRow(commit: CommitRow, description: string, error: string): void {
    const now = Date.now();
    this.prepare(
      `UPDATE commits SET finishing_at = ?, finished_at = ?, size_bytes = ?, error = ?,
           description = CASE WHEN ? = '' THEN description ELSE ? END WHERE rowid = ?`,
    ).run(now, now, this.sumFileSizes(commit.rowid), error, description, description, commit.rowid);
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
}
