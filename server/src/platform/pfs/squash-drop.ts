import { failedPrecondition, invalidArgument, notFound } from '../../errors.ts';
import { pfs_v2 } from '@ivory/api/proto';
import type { MethodRegistry } from '../platform.ts';
import { typedUnary } from '../typed-method.ts';
import type { Db } from '../storage/database.ts';
import type { CommitEvents } from './commit-events.ts';
import { commitRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { PfsStore } from './pfs-store.ts';
import { isOpen, type CommitRow, type RepoRow } from './rows.ts';

type Mode = 'squash' | 'drop';

/**
 * SquashCommit / DropCommit / SquashCommitSet / DropCommitSet, with Pachyderm's rules:
 *
 * - The set acted on is a commit set (every commit with one global ID), or one commit plus — with
 *   `recursive` — every commit downstream of it (its subvenance, transitively). Without
 *   `recursive` a commit that has downstream commits answers 9.
 * - Every commit of the set must be finished (9), must not be a pipeline version (spec repo, 9),
 *   and every commit downstream of a member must be a member too (9): provenance never dangles.
 * - Squash removes the commits but keeps their data: each child already holds its full file
 *   table, so children are re-parented to the squashed commit's parent. A commit without children
 *   cannot be squashed (its changes would have nowhere to go): 9.
 * - Drop removes the commits and their data: allowed only for commits without children (the
 *   newest on their branch, 9 otherwise); a branch whose head is dropped moves back to the parent
 *   (a root commit: to a new empty commit).
 * - Jobs whose output commit is removed are deleted with their datums.
 * Finished commits outside the set never lose files.
 */
export function registerSquashDropApi(
  methods: MethodRegistry,
  deps: { store: PfsStore; db: Db; events: CommitEvents },
): void {
  const { store, db, events } = deps;
  const add = (name: string, method: Parameters<MethodRegistry['set']>[1]) =>
    methods.set(`pfs_v2.API/${name}`, method);

  function downstream(start: CommitRow[]): CommitRow[] {
    const seen = new Map<number, CommitRow>(start.map((c) => [c.rowid, c]));
    const queue = [...start];
    while (queue.length > 0) {
      const commit = queue.shift() as CommitRow;
      for (const sub of store.directSubvenance(commit)) {
        if (seen.has(sub.rowid)) continue;
        seen.set(sub.rowid, sub);
        queue.push(sub);
      }
    }
    return [...seen.values()];
  }

  function describe(commit: CommitRow): string {
    const repo: RepoRow = store.repoById(commit.repo_id);
    return `${repo.project}/${repo.name}${repo.type === 'user' ? '' : `.${repo.type}`}@${commit.id}`;
  }

  function apply(set: CommitRow[], mode: Mode): void {
    store.transaction(() => {
      const members = new Map(set.map((c) => [c.rowid, store.commitByRowid(c.rowid)]));
      for (const commit of members.values()) {
        if (isOpen(commit)) throw failedPrecondition(`commit ${describe(commit)} is not finished`);
        if (store.repoById(commit.repo_id).type === 'spec')
          throw failedPrecondition(
            `commit ${describe(commit)} is a pipeline version: it cannot be squashed or dropped`,
          );
        for (const sub of store.directSubvenance(commit)) {
          if (!members.has(sub.rowid))
            throw failedPrecondition(
              `commit ${describe(sub)} is downstream of ${describe(commit)}: include it (recursive)`,
            );
        }
        const children = store.childCommits(commit).filter((c) => !members.has(c.rowid));
        if (mode === 'drop' && children.length > 0)
          throw failedPrecondition(
            `commit ${describe(commit)} has children: only the newest commits of a branch can be dropped`,
          );
        if (mode === 'squash' && children.length === 0)
          throw failedPrecondition(
            `commit ${describe(commit)} has no children: its changes have nowhere to go (drop it instead)`,
          );
      }
      // Newest first, so a member's parent is handled after the member.
      const ordered = [...members.values()].sort((a, b) => b.rowid - a.rowid);
      for (const commit of ordered) {
        const current = store.commitByRowid(commit.rowid);
        const parent = current.parent_rowid;
        db.prepare('UPDATE commits SET parent_rowid = ? WHERE parent_rowid = ?').run(
          parent,
          current.rowid,
        );
        const heads = db
          .prepare('SELECT name FROM branches WHERE head_rowid = ?')
          .pluck()
          .all(current.rowid) as string[];
        for (const name of heads) {
          let head = parent;
          if (head === null) {
            const result = db
              .prepare(
                `INSERT INTO commits (repo_id, id, branch_name, parent_rowid, origin, description,
                   started_at, finishing_at, finished_at)
                 VALUES (?, lower(hex(randomblob(16))), ?, NULL, 'AUTO', '', ?, ?, ?)`,
              )
              .run(current.repo_id, name, Date.now(), Date.now(), Date.now());
            head = Number(result.lastInsertRowid);
          }
          db.prepare(
            'UPDATE branches SET head_rowid = ?, updated_at = ? WHERE repo_id = ? AND name = ?',
          ).run(head, Date.now(), current.repo_id, name);
        }
        db.prepare('DELETE FROM pps_jobs WHERE output_commit_rowid = ?').run(current.rowid);
        db.prepare('DELETE FROM files WHERE commit_rowid = ?').run(current.rowid);
        db.prepare('DELETE FROM commits WHERE rowid = ?').run(current.rowid);
      }
    });
    events.notify();
  }

  function commitSet(req: pfs_v2.SquashCommitSetRequest | pfs_v2.DropCommitSetRequest) {
    const id = req.commitSet?.id ?? '';
    if (!id) throw invalidArgument('commitSet.id is required');
    const commits = store.commitsWithId(id);
    if (commits.length === 0) throw notFound(`commit set ${id} not found`);
    return commits;
  }

  function oneCommit(req: pfs_v2.SquashCommitRequest | pfs_v2.DropCommitRequest): CommitRow[] {
    const { commit } = resolveCommitRef(store, commitRefOf(req.commit));
    const all = downstream([commit]);
    if (all.length > 1 && !req.recursive)
      throw failedPrecondition(
        `commit ${describe(commit)} has downstream commits: set recursive to include them`,
      );
    return all;
  }

  const schemas = {
    squash: [pfs_v2.SquashCommitSetRequestSchema, pfs_v2.SquashCommitRequestSchema],
    drop: [pfs_v2.DropCommitSetRequestSchema, pfs_v2.DropCommitRequestSchema],
  } as const;
  for (const mode of ['squash', 'drop'] as const) {
    const verb = mode === 'squash' ? 'Squash' : 'Drop';
    const [setSchema, commitSchema] = schemas[mode];
    add(
      `${verb}CommitSet`,
      typedUnary(setSchema, async (req) => {
        apply(commitSet(req), mode);
        return {};
      }),
    );
    add(
      `${verb}Commit`,
      typedUnary(commitSchema, async (req) => {
        apply(oneCommit(req), mode);
        return {};
      }),
    );
  }
}
