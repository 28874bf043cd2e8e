/**
 * Commit history walks over the lineage index (issue #20 item 3): ListCommit, ancestry refs and
 * commit pickers answer exactly what walking parent links answers — through forks, squashes,
 * drops and repo deletions — and migration 8 builds the index on an existing database.
 */
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, commitId, ok, repo } from './helpers/api-client.ts';
import {
  addCommit,
  branchHeads,
  buildBranchingHistory,
  expectedAncestor,
  expectedListing,
  lineageProblems,
  listedIds,
  storedCommits,
  type ListQuery,
} from './helpers/commit-history.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

/** Every ListCommit shape worth comparing for a repo: to each commit and branch, from, paging. */
function queriesFor(ids: string[], branches: string[]): ListQuery[] {
  const queries: ListQuery[] = [];
  for (const reverse of [false, true]) {
    for (const number of [0, 1, 4]) {
      queries.push({ reverse, number });
      queries.push({ reverse, number, origin: 'AUTO' });
      queries.push({ reverse, number, from: ids[3] });
      for (const to of [...branches, ...ids]) queries.push({ to, reverse, number });
      for (const to of branches) {
        queries.push({ to, reverse, number, origin: 'USER' });
        for (const from of ids.slice(0, 6)) queries.push({ to, from, reverse, number });
      }
    }
  }
  return queries;
}

async function expectListingsAsBefore(server: TestServer, repoName: string): Promise<void> {
  const { db } = server.server.platform;
  const commits = storedCommits(db);
  const heads = branchHeads(db, repoName);
  const ids = [...commits.values()].filter((c) => c.repo === repoName).map((c) => c.id);
  for (const query of queriesFor(ids, [...heads.keys()])) {
    const expected = expectedListing(commits, repoName, heads, query);
    expect(await listedIds(server.url, repoName, query), JSON.stringify(query)).toEqual(expected);
  }
}

async function expectAncestryAsBefore(server: TestServer, repoName: string): Promise<void> {
  const commits = storedCommits(server.server.platform.db);
  for (const commit of [...commits.values()].filter((c) => c.repo === repoName)) {
    let depth = 0;
    while (expectedAncestor(commits, commit.rowid, depth + 1)) depth++;
    for (const n of new Set([1, 2, Math.max(depth - 1, 0), depth, depth + 1])) {
      const expected = expectedAncestor(commits, commit.rowid, n);
      for (const ref of [`${commit.id}^${n}`, `${commit.id}~${n}`, commit.id + '^'.repeat(n)]) {
        const answer = await call(server.url, 'pfs_v2.API/InspectCommit', {
          commit: commitId(repoName, ref),
        });
        if (expected) expect(answer.body.commit?.id, ref).toBe(expected.id);
        else expect(answer.body.code, ref).toBe(5);
      }
    }
  }
}

describe('commit lineage', () => {
  let server: TestServer;
  let ids: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer();
    await ok(server.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
    await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo('hist') });
    await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo('other') });
    ids = await buildBranchingHistory(server, 'hist');
    await buildBranchingHistory(server, 'other');
  });
  afterAll(() => server.close());

  it('lists and resolves exactly as walking parent links does, through forks', async () => {
    expect(lineageProblems(server.server.platform.db)).toEqual([]);
    // Forks from a segment's middle (dev from m3) and from its top (side from m8) both happened.
    expect(await listedIds(server.url, 'hist', { to: 'dev' })).toEqual(
      [ids.d2, ids.d1, ids.d0, ids.m3, ids.m2, ids.m1, ids.m0].map(String),
    );
    expect(await listedIds(server.url, 'hist', { to: 'side', number: 3 })).toEqual(
      [ids.s0, ids.m8, ids.m7].map(String),
    );
    await expectListingsAsBefore(server, 'hist');
    await expectAncestryAsBefore(server, 'hist');
  });

  it('branch refs with ancestry and commit pickers use the same walk', async () => {
    const master = await ok(server.url, 'pfs_v2.API/InspectCommit', {
      commit: { repo: repo('hist'), branch: { repo: repo('hist'), name: 'master' }, id: '^3' },
    });
    expect(master.commit.id).toBe(ids.m6);
    const named = await ok(server.url, 'pfs_v2.API/InspectCommit', {
      commit: commitId('hist', 'dev~4'),
    });
    expect(named.commit.id).toBe(ids.m2);
    const tooFar = await call(server.url, 'pfs_v2.API/InspectCommit', {
      commit: commitId('hist', 'dev^8'),
    });
    expect(tooFar.body.code).toBe(5);
  });

  it('stays consistent when commits are squashed (middle, fork point) and dropped', async () => {
    const url = server.url;
    await ok(url, 'pfs_v2.API/SquashCommit', { commit: commitId('hist', ids.m1 as string) });
    // m3 is where dev forked: both its children move to m2.
    await ok(url, 'pfs_v2.API/SquashCommit', { commit: commitId('hist', ids.m3 as string) });
    await ok(url, 'pfs_v2.API/DropCommit', { commit: commitId('hist', ids.d2 as string) });
    await ok(url, 'pfs_v2.API/DropCommit', { commit: commitId('hist', ids.s0 as string) });
    expect(lineageProblems(server.server.platform.db)).toEqual([]);
    expect(await listedIds(url, 'hist', { to: 'dev' })).toEqual(
      [ids.d1, ids.d0, ids.m2, ids.m0].map(String),
    );
    // New commits after the squashes join or fork segments as before.
    await addCommit(url, 'hist', 'master');
    await addCommit(url, 'hist', 'side');
    await addCommit(url, 'hist', 'dev', ids.m4);
    expect(lineageProblems(server.server.platform.db)).toEqual([]);
    await expectListingsAsBefore(server, 'hist');
    await expectAncestryAsBefore(server, 'hist');
  });

  it('stays consistent when a repo is deleted', async () => {
    await ok(server.url, 'pfs_v2.API/DeleteRepo', { repo: repo('other') });
    expect(lineageProblems(server.server.platform.db)).toEqual([]);
    await expectListingsAsBefore(server, 'hist');
  });
});

describe('migration 8 (commit lineage) on an existing database', () => {
  it('fills the index for every existing commit; listings answer as before', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ivory-lineage-'));
    const before = await startTestServer({ dataDir });
    await ok(before.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
    await ok(before.url, 'pfs_v2.API/CreateRepo', { repo: repo('hist') });
    await buildBranchingHistory(before, 'hist');
    await ok(before.url, 'pfs_v2.API/SquashCommit', {
      commit: { repo: repo('hist'), branch: { repo: repo('hist'), name: 'master' }, id: '^4' },
    });
    await before.server.close();

    // Turn the file back into what migration 7 left: no lineage columns, indexes or triggers.
    const raw = new Database(path.join(dataDir, 'ivory.db'));
    raw.exec(`
      DROP TRIGGER commits_lineage_insert;
      DROP TRIGGER commits_lineage_reparent;
      DROP INDEX commits_by_lineage;
      DROP INDEX commits_by_repo;
      ALTER TABLE commits DROP COLUMN lineage_seg;
      ALTER TABLE commits DROP COLUMN lineage_pos;
      DELETE FROM migrations WHERE version = 8;
    `);
    const columns = raw.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('commits');
    expect(columns).not.toContain('lineage_seg');
    raw.close();

    const after = await startTestServer({ dataDir });
    try {
      const { db } = after.server.platform;
      expect(db.prepare('SELECT version FROM migrations WHERE version = 8').pluck().get()).toBe(8);
      expect(lineageProblems(db)).toEqual([]);
      await expectListingsAsBefore(after, 'hist');
      await expectAncestryAsBefore(after, 'hist');
      // New commits continue the filled segments.
      await addCommit(after.url, 'hist', 'master');
      expect(lineageProblems(db)).toEqual([]);
    } finally {
      await after.close();
    }
  });
});

describe('SubscribeCommit', () => {
  it('sends a commit opened before newer ones once it finishes (reads from the last settled)', async () => {
    const server = await startTestServer();
    const url = server.url;
    const controller = new AbortController();
    try {
      await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
      await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('subs') });
      const first = await addCommit(url, 'subs', 'master');
      const open = await ok(url, 'pfs_v2.API/StartCommit', {
        branch: { repo: repo('subs'), name: 'dev' },
      });
      const response = await fetch(`${url}/api/pfs_v2.API/SubscribeCommit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ repo: repo('subs'), state: 'FINISHED' }),
        signal: controller.signal,
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let buffered = '';
      const nextId = async (): Promise<string> => {
        while (!buffered.includes('\n')) {
          const { value } = await reader.read();
          buffered += new TextDecoder().decode(value);
        }
        const line = buffered.slice(0, buffered.indexOf('\n'));
        buffered = buffered.slice(buffered.indexOf('\n') + 1);
        return JSON.parse(line).result.commit.id as string;
      };
      expect(await nextId()).toBe(first);
      const later = await addCommit(url, 'subs', 'master');
      expect(await nextId()).toBe(later);
      await ok(url, 'pfs_v2.API/FinishCommit', { commit: open });
      expect(await nextId()).toBe(open.id);
    } finally {
      controller.abort();
      await server.close();
    }
  });
});
