import { describe, expect, it } from 'vitest';
import {
  call,
  callStream,
  commitFiles,
  commitId,
  commitOn,
  modifyFile,
  ok,
  repo,
  results,
  type Json,
} from './helpers/api-client.ts';
import { startTestServer } from './helpers/in-process-server.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { readAll } from './helpers/pps.ts';
import { TAR_DIR, tarEntries } from './helpers/tar-entries.ts';

const { url } = useTestServer({ projects: ['default', 'other'] });

describe('pfs surface: repos and projects', () => {
  it('counts repos and projects, inspects a project with its defaults', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('count-a') });
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('count-b', 'other') });
    const other = await ok(url(), 'pfs_v2.API/CountRepo', {
      projects: [{ name: 'other' }],
      type: 'user',
    });
    expect(other).toEqual({ count: '1' });
    const all = await ok(url(), 'pfs_v2.API/CountRepo', { type: '' });
    const listed = await results(url(), 'pfs_v2.API/ListRepo', { type: '' });
    expect(all.count).toBe(String(listed.length));
    expect((await ok(url(), 'pfs_v2.API/CountRepo', { type: 'spec' })).count).toBe('0');
    expect(await ok(url(), 'pfs_v2.API/CountProject', {})).toEqual({ count: '2' });
    const v2 = await ok(url(), 'pfs_v2.API/InspectProjectV2', { project: { name: 'other' } });
    expect(v2.info.project).toEqual({ name: 'other' });
    expect(typeof v2.defaultsJson).toBe('string');
    expect(
      (await call(url(), 'pfs_v2.API/CountRepo', { projects: [{ name: 'nope' }] })).status,
    ).toBe(404);
  });

  it('DeleteRepos deletes the user repos of the given projects and lists them', async () => {
    await ok(url(), 'pfs_v2.API/CreateProject', { project: { name: 'doomed' } });
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('r1', 'doomed') });
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('r2', 'doomed') });
    await commitFiles(url(), 'count-a', { '/keep.txt': 'kept' });
    expect((await call(url(), 'pfs_v2.API/DeleteRepos', {})).status).toBe(400);
    const deleted = await ok(url(), 'pfs_v2.API/DeleteRepos', { projects: [{ name: 'doomed' }] });
    expect(deleted.repos.map((r: Json) => r.name).sort()).toEqual(['r1', 'r2']);
    expect(await results(url(), 'pfs_v2.API/ListRepo', { projects: [{ name: 'doomed' }] })).toEqual(
      [],
    );
    // Other projects are untouched.
    await ok(url(), 'pfs_v2.API/InspectRepo', { repo: repo('count-a') });
  });

  it('CopyRepo gives the new repo each branch with a new commit holding the same files', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('orig'), description: 'original' });
    await commitFiles(url(), 'orig', { '/a.txt': 'A1', '/dir/b.txt': 'B' });
    const head = await commitFiles(url(), 'orig', { '/a.txt': 'A2' });
    await commitFiles(url(), 'orig', { '/dev.txt': 'dev' }, { branch: 'dev' });
    await ok(url(), 'pfs_v2.API/CopyRepo', { src: repo('orig'), dst: repo('copy') });
    const info = await ok(url(), 'pfs_v2.API/InspectRepo', { repo: repo('copy') });
    expect(info.description).toBe('original');
    expect(info.branches.map((b: Json) => b.name).sort()).toEqual(['dev', 'master']);
    expect(await readAll(url(), 'copy', 'master')).toEqual({ '/a.txt': 'A2', '/dir/b.txt': 'B' });
    expect(await readAll(url(), 'copy', 'dev')).toEqual({ '/dev.txt': 'dev' });
    const copied = await results(url(), 'pfs_v2.API/ListCommit', { repo: repo('copy') });
    expect(copied).toHaveLength(2);
    expect(copied.every((c: Json) => c.commit.id !== head)).toBe(true);
    expect(
      (await call(url(), 'pfs_v2.API/CopyRepo', { src: repo('orig'), dst: repo('copy') })).status,
    ).toBe(409);
    expect(
      (await call(url(), 'pfs_v2.API/CopyRepo', { src: repo('nope'), dst: repo('x') })).status,
    ).toBe(404);
  });
});

describe('pfs surface: commits and files', () => {
  it('ClearCommit empties an open commit back to its parent; a finished one answers 9', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('clear') });
    const first = await commitFiles(url(), 'clear', { '/base.txt': 'base' });
    const open = await ok(url(), 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('clear'), name: 'master' },
    });
    const written = await modifyFile(url(), [
      { setCommit: open },
      { addFile: { path: '/new.txt', raw: Buffer.from('new').toString('base64') } },
      { deleteFile: { path: '/base.txt' } },
    ]);
    expect(written.status).toBe(200);
    await ok(url(), 'pfs_v2.API/ClearCommit', { commit: open });
    await ok(url(), 'pfs_v2.API/FinishCommit', { commit: open });
    expect(await readAll(url(), 'clear', open.id)).toEqual({ '/base.txt': 'base' });
    const finished = await call(url(), 'pfs_v2.API/ClearCommit', {
      commit: commitId('clear', first),
    });
    expect(finished.status).toBe(400);
    expect(finished.body.code).toBe(9);
  });

  it('FindCommits lists the commits that changed a file, paged by limit', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('hist') });
    const c1 = await commitFiles(url(), 'hist', { '/f.txt': 'v1', '/other.txt': 'o' });
    await commitFiles(url(), 'hist', { '/other.txt': 'o2' });
    const c3 = await commitFiles(url(), 'hist', { '/f.txt': 'v2' });
    await commitFiles(url(), 'hist', { '/f.txt': 'v2' }); // same content: not a change
    const c5 = await commitFiles(url(), 'hist', {}, { deletions: ['/f.txt'] });
    const all = await results(url(), 'pfs_v2.API/FindCommits', {
      start: commitOn('hist'),
      filePath: '/f.txt',
    });
    const found = all.filter((line: Json) => line.foundCommit).map((l: Json) => l.foundCommit.id);
    expect(found).toEqual([c5, c3, c1]);
    const last = all[all.length - 1];
    expect(last.lastSearchedCommit.id).toBe(c1);
    expect(last.commitsSearched).toBe(5);

    const page = await results(url(), 'pfs_v2.API/FindCommits', {
      start: commitOn('hist'),
      filePath: 'f.txt',
      limit: 2,
    });
    expect(page.filter((l: Json) => l.foundCommit).map((l: Json) => l.foundCommit.id)).toEqual([
      c5,
      c3,
    ]);
    expect(page[page.length - 1].lastSearchedCommit.id).toBe(c3);
    expect(page[page.length - 1].commitsSearched).toBe(3);
  });

  it('GetFileTAR streams a tar of a folder or a file as base64 chunks', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('tarred') });
    await commitFiles(url(), 'tarred', {
      '/top.txt': 'top',
      '/dir/a.txt': 'aaa',
      '/dir/sub/b.txt': 'bbb',
      '/dir/empty.txt': '',
    });
    const lines = await results(url(), 'pfs_v2.API/GetFileTAR', {
      file: { commit: commitOn('tarred'), path: '/dir' },
    });
    const bytes = Buffer.concat(lines.map((chunk: string) => Buffer.from(chunk, 'base64')));
    expect(await tarEntries(bytes)).toEqual({
      'dir/': TAR_DIR,
      'dir/a.txt': 'aaa',
      'dir/empty.txt': '',
      'dir/sub/': TAR_DIR,
      'dir/sub/b.txt': 'bbb',
    });
    const one = await results(url(), 'pfs_v2.API/GetFileTAR', {
      file: { commit: commitOn('tarred'), path: '/top.txt' },
    });
    expect(
      await tarEntries(Buffer.concat(one.map((chunk: string) => Buffer.from(chunk, 'base64')))),
    ).toEqual({ 'top.txt': 'top' });
    const missing = await callStream(url(), 'pfs_v2.API/GetFileTAR', {
      file: { commit: commitOn('tarred'), path: '/nope' },
    });
    expect(missing.status).toBe(404);
  });
});

describe('pfs surface: cluster-wide calls', () => {
  it('PutCache / GetCache / ClearCache keep values by key, cleared by tag prefix', async () => {
    const value = { '@type': 'type.googleapis.com/google.protobuf.StringValue', value: 'hello' };
    await ok(url(), 'pfs_v2.API/PutCache', { key: 'k1', value, tag: 'job-1' });
    await ok(url(), 'pfs_v2.API/PutCache', {
      key: 'k2',
      value: { ...value, value: 'x' },
      tag: 'job-2',
    });
    expect(await ok(url(), 'pfs_v2.API/GetCache', { key: 'k1' })).toEqual({ value });
    await ok(url(), 'pfs_v2.API/PutCache', {
      key: 'k1',
      value: { ...value, value: 'again' },
      tag: 'job-1',
    });
    expect((await ok(url(), 'pfs_v2.API/GetCache', { key: 'k1' })).value.value).toBe('again');
    await ok(url(), 'pfs_v2.API/ClearCache', { tagPrefix: 'job-1' });
    expect((await call(url(), 'pfs_v2.API/GetCache', { key: 'k1' })).status).toBe(404);
    expect((await ok(url(), 'pfs_v2.API/GetCache', { key: 'k2' })).value.value).toBe('x');
    await ok(url(), 'pfs_v2.API/ClearCache', {});
    expect((await call(url(), 'pfs_v2.API/GetCache', { key: 'k2' })).status).toBe(404);
  });

  it('ListTask streams nothing; ActivateAuth succeeds as a no-op', async () => {
    const tasks = await callStream(url(), 'pfs_v2.API/ListTask', {});
    expect(tasks.status).toBe(200);
    expect(tasks.lines).toEqual([]);
    expect(await ok(url(), 'pfs_v2.API/ActivateAuth', {})).toEqual({});
    expect(await ok(url(), 'pps_v2.API/ActivateAuth', {})).toEqual({});
  });

  it('DeleteAll deletes every repo and every project but default', async () => {
    const fresh = await startTestServer();
    try {
      await ok(fresh.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
      await ok(fresh.url, 'pfs_v2.API/CreateProject', { project: { name: 'p2' } });
      await ok(fresh.url, 'pfs_v2.API/CreateRepo', { repo: repo('a') });
      await ok(fresh.url, 'pfs_v2.API/CreateRepo', { repo: repo('b', 'p2') });
      await commitFiles(fresh.url, 'a', { '/x': 'x' });
      await ok(fresh.url, 'pfs_v2.API/PutCache', { key: 'k', value: {} });
      await ok(fresh.url, 'pfs_v2.API/DeleteAll', {});
      expect(await results(fresh.url, 'pfs_v2.API/ListRepo', {})).toEqual([]);
      const projects = await results(fresh.url, 'pfs_v2.API/ListProject', {});
      expect(projects.map((p: Json) => p.project.name)).toEqual(['default']);
      expect((await call(fresh.url, 'pfs_v2.API/GetCache', { key: 'k' })).status).toBe(404);
      await ok(fresh.url, 'pfs_v2.API/CreateRepo', { repo: repo('a') });
      await commitFiles(fresh.url, 'a', { '/y': 'y' });
    } finally {
      await fresh.close();
    }
  });
});
