/**
 * Commit histories for the lineage tests: builds a branching history through the real server
 * and answers ListCommit / ancestry questions the way the server did before the lineage index
 * (walking parent links read straight from SQLite), to compare with what it answers now.
 */
import type { Db } from '../../src/platform/storage/database.ts';
import type { TestServer } from './in-process-server.ts';
import { commitId, ok, repo, results } from './api-client.ts';

export interface StoredCommit {
  rowid: number;
  id: string;
  repo: string;
  parent: number | null;
  origin: string;
}

/** Every commit of every repo, as stored. */
export function storedCommits(db: Db): Map<number, StoredCommit> {
  const rows = db
    .prepare(
      `SELECT c.rowid, c.id, r.name AS repo, c.parent_rowid AS parent, c.origin
         FROM commits c JOIN repos r ON r.id = c.repo_id`,
    )
    .all() as StoredCommit[];
  return new Map(rows.map((row) => [row.rowid, row]));
}

export interface ListQuery {
  to?: string;
  from?: string;
  reverse?: boolean;
  number?: number;
  origin?: 'USER' | 'AUTO';
}

/** ListCommit's answer (commit ids) as the server computed it before the lineage index. */
export function expectedListing(
  commits: Map<number, StoredCommit>,
  repoName: string,
  heads: Map<string, number>,
  query: ListQuery,
): string[] {
  const byRef = (ref: string) =>
    heads.has(ref)
      ? commits.get(heads.get(ref) as number)
      : [...commits.values()].find((c) => c.repo === repoName && c.id === ref);
  const from = query.from ? byRef(query.from) : undefined;
  let list: StoredCommit[] = [];
  if (query.to) {
    let current = byRef(query.to);
    while (current && current.rowid !== from?.rowid) {
      list.push(current);
      current = current.parent === null ? undefined : commits.get(current.parent);
    }
  } else {
    list = [...commits.values()]
      .filter((c) => c.repo === repoName && (!from || c.rowid > from.rowid))
      .sort((a, b) => b.rowid - a.rowid);
  }
  if (query.origin) list = list.filter((c) => c.origin === query.origin);
  if (query.reverse) list.reverse();
  if (query.number) list = list.slice(0, query.number);
  return list.map((c) => c.id);
}

/** The commit `n` parents above `rowid` (by parent links), or undefined. */
export function expectedAncestor(
  commits: Map<number, StoredCommit>,
  rowid: number,
  n: number,
): StoredCommit | undefined {
  let current = commits.get(rowid);
  for (let i = 0; i < n && current; i++)
    current = current.parent === null ? undefined : commits.get(current.parent);
  return current;
}

/** Branch name → head rowid of a repo. */
export function branchHeads(db: Db, repoName: string): Map<string, number> {
  const rows = db
    .prepare(
      `SELECT b.name, b.head_rowid FROM branches b JOIN repos r ON r.id = b.repo_id
         WHERE r.name = ?`,
    )
    .all(repoName) as { name: string; head_rowid: number }[];
  return new Map(rows.map((row) => [row.name, row.head_rowid]));
}

/** Breaks of the lineage invariants (storage/commit-lineage-schema.ts); [] when it holds. */
export function lineageProblems(db: Db): string[] {
  const problems: string[] = [];
  const count = (sql: string) => Number(db.prepare(sql).pluck().get());
  if (count('SELECT COUNT(*) FROM commits WHERE lineage_seg IS NULL OR lineage_pos IS NULL') > 0)
    problems.push('a commit has no lineage');
  if (
    count(`SELECT COUNT(*) FROM commits c
             LEFT JOIN commits p ON p.lineage_seg = c.lineage_seg AND p.lineage_pos = c.lineage_pos - 1
             WHERE c.lineage_pos > 0 AND (p.rowid IS NULL OR c.parent_rowid IS NOT p.rowid)`) > 0
  )
    problems.push("a commit's segment predecessor is not its parent");
  if (
    count(`SELECT COUNT(*) FROM (SELECT 1 FROM commits GROUP BY lineage_seg, lineage_pos
             HAVING COUNT(*) > 1)`) > 0
  )
    problems.push('two commits share a segment position');
  return problems;
}

/** Finished commits, each a child of the branch head or of `parent`; returns their ids. */
export async function addCommit(
  url: string,
  repoName: string,
  branch: string,
  parent?: string,
): Promise<string> {
  const commit = await ok(url, 'pfs_v2.API/StartCommit', {
    branch: { repo: repo(repoName), name: branch },
    ...(parent ? { parent: commitId(repoName, parent) } : {}),
  });
  await ok(url, 'pfs_v2.API/FinishCommit', { commit });
  return commit.id as string;
}

/** An AUTO-origin finished commit on a branch (as pipelines write), through the store. */
export function addAutoCommit(server: TestServer, repoName: string, branch: string): string {
  const { pfs } = server.server.platform;
  const row = pfs.getRepo({ project: 'default', name: repoName, type: 'user' });
  const commit = pfs.startCommit(row, branch, null, '', 'AUTO');
  pfs.finishCommit(commit, '', '');
  return commit.id;
}

/**
 * master m0…m8 (m2 and m5 AUTO); dev forked from m3 (d0…d2); side from master's head m8
 * (s0), then m9 on master after it — so forks both from a segment's middle and from its top.
 */
export async function buildBranchingHistory(
  server: TestServer,
  repoName: string,
): Promise<Record<string, string>> {
  const url = server.url;
  const ids: Record<string, string> = {};
  for (let i = 0; i <= 8; i++) {
    ids[`m${i}`] =
      i === 2 || i === 5
        ? addAutoCommit(server, repoName, 'master')
        : await addCommit(url, repoName, 'master');
  }
  for (let i = 0; i <= 2; i++)
    ids[`d${i}`] = await addCommit(url, repoName, 'dev', i === 0 ? ids.m3 : undefined);
  await ok(url, 'pfs_v2.API/CreateBranch', {
    branch: { repo: repo(repoName), name: 'side' },
    head: commitId(repoName, ids.m8 as string),
  });
  ids.s0 = await addCommit(url, repoName, 'side');
  ids.m9 = await addCommit(url, repoName, 'master');
  return ids;
}

/** ListCommit's commit ids for a query on `repoName`. */
export async function listedIds(
  url: string,
  repoName: string,
  query: ListQuery,
): Promise<string[]> {
  const lines = await results(url, 'pfs_v2.API/ListCommit', {
    repo: repo(repoName),
    ...(query.to ? { to: refOf(repoName, query.to) } : {}),
    ...(query.from ? { from: refOf(repoName, query.from) } : {}),
    reverse: query.reverse ?? false,
    number: query.number ?? 0,
    originKind: query.origin ?? 'ORIGIN_KIND_UNKNOWN',
  });
  return lines.map((info: { commit: { id: string } }) => info.commit.id);
}

const refOf = (repoName: string, ref: string) =>
  /^[0-9a-f]{32}$/.test(ref)
    ? commitId(repoName, ref)
    : { repo: repo(repoName), branch: { repo: repo(repoName), name: ref } };
