import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, commitFiles, ok, repo, results } from './helpers/api-client.ts';
import type { Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

let server: TestServer;
let url: string;

beforeAll(async () => {
  server = await startTestServer();
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', {
    project: { name: 'default' },
    description: 'Default',
  });
});
afterAll(() => server.close());

describe('projects', () => {
  it('creates, inspects, lists and deletes projects', async () => {
    await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'alpha' }, description: 'First' });
    const info = await ok(url, 'pfs_v2.API/InspectProject', { project: { name: 'alpha' } });
    expect(info).toMatchObject({
      project: { name: 'alpha' },
      description: 'First',
      metadata: {},
      createdBy: '',
    });
    expect(info.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const names = (await results(url, 'pfs_v2.API/ListProject')).map((p) => p.project.name);
    expect(names).toEqual(expect.arrayContaining(['alpha', 'default']));
    await ok(url, 'pfs_v2.API/DeleteProject', { project: { name: 'alpha' } });
    expect(
      (await call(url, 'pfs_v2.API/InspectProject', { project: { name: 'alpha' } })).status,
    ).toBe(404);
  });

  it('answers 6 for a duplicate, 3 for a bad name, and updates with update=true', async () => {
    await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'beta' } });
    const duplicate = await call(url, 'pfs_v2.API/CreateProject', { project: { name: 'beta' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe(6);
    const badName = await call(url, 'pfs_v2.API/CreateProject', { project: { name: 'bad name!' } });
    expect(badName.body.code).toBe(3);
    await ok(url, 'pfs_v2.API/CreateProject', {
      project: { name: 'beta' },
      description: 'new',
      update: true,
    });
    expect(
      (await ok(url, 'pfs_v2.API/InspectProject', { project: { name: 'beta' } })).description,
    ).toBe('new');
  });

  it('refuses to delete a non-empty project unless forced', async () => {
    await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'gamma' } });
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('r1', 'gamma') });
    const refused = await call(url, 'pfs_v2.API/DeleteProject', { project: { name: 'gamma' } });
    expect(refused.body.code).toBe(9);
    await ok(url, 'pfs_v2.API/DeleteProject', { project: { name: 'gamma' }, force: true });
    expect(
      (await call(url, 'pfs_v2.API/InspectRepo', { repo: repo('r1', 'gamma') })).body.code,
    ).toBe(5);
  });
});

describe('repos', () => {
  it('creates and inspects a repo with RepoInfo fields', async () => {
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: { name: 'photos' }, description: 'Pictures' });
    const info = await ok(url, 'pfs_v2.API/InspectRepo', { repo: repo('photos') });
    expect(info).toMatchObject({
      repo: { name: 'photos', type: 'user', project: { name: 'default' } },
      description: 'Pictures',
      sizeBytesUpperBound: '0',
      details: { sizeBytes: '0' },
      branches: [],
      authInfo: null,
      metadata: {},
    });
  });

  it('reports the size of the master head', async () => {
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('sized') });
    await commitFiles(url, 'sized', { '/a.txt': 'hello', '/b/c.txt': '12345678' });
    const info = await ok(url, 'pfs_v2.API/InspectRepo', { repo: repo('sized') });
    expect(info.sizeBytesUpperBound).toBe('13');
    expect(info.branches.map((b: Json) => b.name)).toEqual(['master']);
    const summary = await ok(url, 'pfs_v2.API/ReposSummary', { projects: [{ name: 'default' }] });
    expect(summary.summaries[0].project).toEqual({ name: 'default' });
    expect(Number(summary.summaries[0].sizeBytes)).toBeGreaterThanOrEqual(13);
  });

  it('errors: 3 bad name, 5 unknown project or repo, 6 duplicate', async () => {
    expect((await call(url, 'pfs_v2.API/CreateRepo', { repo: repo('has space') })).body.code).toBe(
      3,
    );
    expect((await call(url, 'pfs_v2.API/CreateRepo', { repo: repo('x', 'nope') })).body.code).toBe(
      5,
    );
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('twice') });
    const again = await call(url, 'pfs_v2.API/CreateRepo', { repo: repo('twice') });
    expect(again.status).toBe(409);
    const missing = await call(url, 'pfs_v2.API/InspectRepo', { repo: repo('ghost') });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('not found');
  });

  it('lists by type and project, with paging', async () => {
    await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'listing' } });
    for (const name of ['a', 'b', 'c'])
      await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo(name, 'listing') });
    const all = await results(url, 'pfs_v2.API/ListRepo', {
      type: '',
      projects: [{ name: 'listing' }],
    });
    expect(all.map((r) => r.repo.name)).toEqual(['a', 'b', 'c']);
    const page = await results(url, 'pfs_v2.API/ListRepo', {
      type: 'user',
      projects: [{ name: 'listing' }],
      page: { pageSize: '2', pageIndex: '1' },
    });
    expect(page.map((r) => r.repo.name)).toEqual(['c']);
    expect(
      await results(url, 'pfs_v2.API/ListRepo', { type: 'spec', projects: [{ name: 'listing' }] }),
    ).toEqual([]);
  });

  it('deletes a repo', async () => {
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('doomed') });
    await commitFiles(url, 'doomed', { '/x': 'x' });
    expect(await ok(url, 'pfs_v2.API/DeleteRepo', { repo: repo('doomed') })).toEqual({
      deleted: true,
    });
    expect((await call(url, 'pfs_v2.API/InspectRepo', { repo: repo('doomed') })).body.code).toBe(5);
  });
});

describe('branches', () => {
  it('creates an empty branch with a head commit, inspects, lists and deletes', async () => {
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('branchy') });
    await ok(url, 'pfs_v2.API/CreateBranch', { branch: { repo: repo('branchy'), name: 'master' } });
    const info = await ok(url, 'pfs_v2.API/InspectBranch', {
      branch: { repo: repo('branchy'), name: 'master' },
    });
    expect(info.branch.name).toBe('master');
    expect(info.head.id).toMatch(/^[0-9a-f]{32}$/);
    const headCommit = await ok(url, 'pfs_v2.API/InspectCommit', { commit: info.head });
    expect(headCommit.finished).not.toBeNull();

    const second = await commitFiles(url, 'branchy', { '/f': '1' });
    await ok(url, 'pfs_v2.API/CreateBranch', {
      branch: { repo: repo('branchy'), name: 'feature' },
      head: { repo: repo('branchy'), id: second },
    });
    const listed = await results(url, 'pfs_v2.API/ListBranch', { repo: repo('branchy') });
    expect(listed.map((b) => b.branch.name)).toEqual(['feature', 'master']);
    expect(listed[0].head.id).toBe(second);

    await ok(url, 'pfs_v2.API/DeleteBranch', {
      branch: { repo: repo('branchy'), name: 'feature' },
    });
    const gone = await call(url, 'pfs_v2.API/InspectBranch', {
      branch: { repo: repo('branchy'), name: 'feature' },
    });
    expect(gone.body.code).toBe(5);
  });
});
