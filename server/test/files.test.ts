import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  call,
  commitFiles,
  commitId,
  getFile,
  modifyFile,
  ok,
  repo,
  results,
} from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';

const { server, url } = useTestServer({ projects: ['default'], repos: ['files'] });

const fileAt = (id: string, path: string) => ({ commit: commitId('files', id), path });

describe('files', () => {
  it('pages a folder of 2,000 files with a marker', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('many') });
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i++)
      files[`/big/file-${String(i).padStart(5, '0')}.txt`] = `content ${i}`;
    const id = await commitFiles(url(), 'many', files);
    const seen: string[] = [];
    let marker: unknown = null;
    for (;;) {
      const page = await results(url(), 'pfs_v2.API/ListFile', {
        file: { commit: commitId('many', id), path: '/big' },
        paginationMarker: marker,
        number: '500',
      });
      if (page.length === 0) break;
      seen.push(...page.map((f) => f.file.path));
      marker = page[page.length - 1].file;
    }
    expect(seen).toHaveLength(2000);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(2000);
    const root = await results(url(), 'pfs_v2.API/ListFile', {
      file: { commit: commitId('many', id), path: '/' },
    });
    expect(root).toHaveLength(1);
    expect(root[0]).toMatchObject({ file: { path: '/big/' }, fileType: 'DIR' });
    expect(Number(root[0].sizeBytes)).toBeGreaterThan(0);
  });

  it('inspects, globs, walks and gets files', async () => {
    const id = await commitFiles(url(), 'files', {
      '/README.md': '# hi',
      '/data/a.csv': 'a,b\n1,2\n',
      '/data/b.json': '{}',
      '/data/deep/c.csv': 'c\n',
    });
    const info = await ok(url(), 'pfs_v2.API/InspectFile', { file: fileAt(id, '/data/a.csv') });
    expect(info).toMatchObject({
      fileType: 'FILE',
      sizeBytes: '8',
      file: { path: '/data/a.csv', datum: '' },
    });
    expect(Buffer.from(info.hash, 'base64').toString('hex')).toBe(
      createHash('sha256').update('a,b\n1,2\n').digest('hex'),
    );
    const dir = await ok(url(), 'pfs_v2.API/InspectFile', { file: fileAt(id, '/data') });
    expect(dir).toMatchObject({
      fileType: 'DIR',
      sizeBytes: String(8 + 2 + 2),
      file: { path: '/data/' },
    });

    const csvs = await results(url(), 'pfs_v2.API/GlobFile', {
      commit: commitId('files', id),
      pattern: '/**/*.csv',
    });
    expect(csvs.map((f) => f.file.path)).toEqual(['/data/a.csv', '/data/deep/c.csv']);
    const top = await results(url(), 'pfs_v2.API/GlobFile', {
      commit: commitId('files', id),
      pattern: '/*',
    });
    expect(top.map((f) => f.file.path)).toEqual(['/README.md', '/data/']);

    const walked = await results(url(), 'pfs_v2.API/WalkFile', { file: fileAt(id, '/data') });
    expect(walked.map((f) => f.file.path)).toEqual([
      '/data/',
      '/data/a.csv',
      '/data/b.json',
      '/data/deep/',
      '/data/deep/c.csv',
    ]);

    expect((await getFile(url(), 'files', id, '/data/a.csv')).toString()).toBe('a,b\n1,2\n');
    const offset = await results(url(), 'pfs_v2.API/GetFile', {
      file: fileAt(id, '/data/a.csv'),
      offset: '4',
    });
    expect(Buffer.from(offset.join(''), 'base64').toString()).toBe('1,2\n');
  });

  it('diffs a commit against its parent', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('diffs') });
    await commitFiles(url(), 'diffs', {
      '/same.txt': 's',
      '/changed.txt': 'v1',
      '/removed.txt': 'r',
    });
    const second = await commitFiles(
      url(),
      'diffs',
      { '/changed.txt': 'v2', '/added.txt': 'a' },
      { deletions: ['/removed.txt'] },
    );
    const diff = await results(url(), 'pfs_v2.API/DiffFile', {
      newFile: { commit: commitId('diffs', second), path: '/' },
    });
    const summary = diff.map((d) => [d.newFile?.file.path ?? null, d.oldFile?.file.path ?? null]);
    expect(summary).toEqual([
      ['/added.txt', null],
      ['/changed.txt', '/changed.txt'],
      [null, '/removed.txt'],
    ]);
  });

  it('round-trips a multi-MiB file sent in several addFile messages, and dedups blobs', async () => {
    const big = randomBytes(5 * 1024 * 1024 + 123);
    const open = await ok(url(), 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('files'), name: 'big' },
    });
    const parts = [big.subarray(0, 2 * 1024 * 1024), big.subarray(2 * 1024 * 1024)];
    const response = await modifyFile(url(), [
      { setCommit: open },
      ...parts.map((part) => ({ addFile: { path: '/blob.bin', raw: part.toString('base64') } })),
      { addFile: { path: '/copy-one.bin', raw: Buffer.from('same bytes').toString('base64') } },
      { addFile: { path: '/copy-two.bin', raw: Buffer.from('same bytes').toString('base64') } },
    ]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({});
    expect(response.contentType).toBe('application/json');
    await ok(url(), 'pfs_v2.API/FinishCommit', { commit: open });
    const back = await getFile(url(), 'files', open.id, '/blob.bin');
    expect(back.equals(big)).toBe(true);
    const chunks = await results(url(), 'pfs_v2.API/GetFile', {
      file: fileAt(open.id, '/blob.bin'),
    });
    expect(chunks.length).toBe(6);
    const one = await ok(url(), 'pfs_v2.API/InspectFile', {
      file: fileAt(open.id, '/copy-one.bin'),
    });
    const two = await ok(url(), 'pfs_v2.API/InspectFile', {
      file: fileAt(open.id, '/copy-two.bin'),
    });
    expect(one.hash).toBe(two.hash);
    const hash = createHash('sha256').update('same bytes').digest('hex');
    expect(await server().server.platform.blobs.has(hash)).toBe(true);
    const before = await server().server.platform.blobs.count();
    await commitFiles(url(), 'files', { '/third-copy.bin': 'same bytes' }, { branch: 'big' });
    expect(await server().server.platform.blobs.count()).toBe(before);
  });

  it('copies and deletes folders inside an open commit', async () => {
    const base = await commitFiles(
      url(),
      'files',
      { '/src/a.txt': 'a', '/src/sub/b.txt': 'b' },
      { branch: 'copy' },
    );
    const open = await ok(url(), 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('files'), name: 'copy' },
    });
    const response = await modifyFile(url(), [
      { setCommit: open },
      { copyFile: { dst: '/dst', src: fileAt(base, '/src') } },
      { deleteFile: { path: '/src' } },
    ]);
    expect(response.status).toBe(200);
    await ok(url(), 'pfs_v2.API/FinishCommit', { commit: open });
    const walked = await results(url(), 'pfs_v2.API/WalkFile', { file: fileAt(open.id, '/') });
    expect(walked.map((f) => f.file.path)).toEqual([
      '/',
      '/dst/',
      '/dst/a.txt',
      '/dst/sub/',
      '/dst/sub/b.txt',
    ]);
  });

  it('a branch name in setCommit opens and finishes a commit automatically', async () => {
    const response = await modifyFile(url(), [
      { setCommit: { repo: repo('files'), branch: { repo: repo('files'), name: 'auto' } } },
      { addFile: { path: '/auto.txt', raw: Buffer.from('auto').toString('base64') } },
    ]);
    expect(response.status).toBe(200);
    const head = await ok(url(), 'pfs_v2.API/InspectCommit', { commit: commitId('files', 'auto') });
    expect(head.finished).not.toBeNull();
    expect((await getFile(url(), 'files', 'auto', '/auto.txt')).toString()).toBe('auto');
  });

  it('rejects escaping paths and NUL bytes with 3 and writes nothing', async () => {
    const open = await ok(url(), 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('files'), name: 'bad' },
    });
    for (const path of ['/../etc/passwd', '/a\u0000b']) {
      const response = await modifyFile(url(), [
        { setCommit: open },
        { addFile: { path, raw: Buffer.from('x').toString('base64') } },
      ]);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(3);
    }
    const listed = await results(url(), 'pfs_v2.API/ListFile', { file: fileAt(open.id, '/') });
    expect(listed).toEqual([]);
    const inspect = await call(url(), 'pfs_v2.API/InspectFile', { file: fileAt(open.id, '/../x') });
    expect(inspect.body.code).toBe(3);
  });
});
