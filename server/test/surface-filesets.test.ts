import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, commitFiles, commitId, ok, repo, type Json } from './helpers/api-client.ts';
import { readAll } from './helpers/pps.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

let server: TestServer;
let url: string;
/** The one folder Egress may write into (IVORY_EGRESS_ROOTS). */
let egressRoot: string;

beforeAll(async () => {
  egressRoot = await mkdtemp(path.join(tmpdir(), 'ivory-egress-root-'));
  server = await startTestServer({ egressRoots: [egressRoot] });
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  for (const name of ['src', 'dst']) await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo(name) });
});
afterAll(async () => {
  await server.close();
  await rm(egressRoot, { recursive: true, force: true });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function fileSetOf(commit: string, type = 'TOTAL'): Promise<string> {
  const { fileSetId } = await ok(url, 'pfs_v2.API/GetFileSet', {
    commit: commitId('src', commit),
    type,
  });
  expect(fileSetId).toMatch(/^[0-9a-f]{32}$/);
  return fileSetId as string;
}

async function addToNewCommit(fileSetId: string): Promise<string> {
  const commit = await ok(url, 'pfs_v2.API/StartCommit', {
    branch: { repo: repo('dst'), name: 'master' },
  });
  await ok(url, 'pfs_v2.API/AddFileSet', { commit, fileSetId });
  await ok(url, 'pfs_v2.API/FinishCommit', { commit });
  return commit.id as string;
}

describe('file sets', () => {
  it('GetFileSet + AddFileSet copy a commit (TOTAL) or its changes (DIFF)', async () => {
    await commitFiles(url, 'src', { '/a.txt': 'a1', '/d/b.txt': 'b1' });
    const second = await commitFiles(url, 'src', { '/a.txt': 'a2', '/c.txt': 'c' });
    const total = await fileSetOf(second);
    const copied = await addToNewCommit(total);
    expect(await readAll(url, 'dst', copied)).toEqual({
      '/a.txt': 'a2',
      '/c.txt': 'c',
      '/d/b.txt': 'b1',
    });
    const diff = await fileSetOf(second, 'DIFF');
    const { shards } = await ok(url, 'pfs_v2.API/ShardFileSet', { fileSetId: diff, numFiles: 1 });
    expect(shards).toEqual([
      { lower: '', upper: '/c.txt' },
      { lower: '/c.txt', upper: '' },
    ]);
  });

  it('AddFileSet refuses a finished commit (9) and unknown sets (5)', async () => {
    const id = await commitFiles(url, 'src', { '/x': 'x' });
    const set = await fileSetOf(id);
    const finished = await call(url, 'pfs_v2.API/AddFileSet', {
      commit: commitId('src', id),
      fileSetId: set,
    });
    expect(finished.body.code).toBe(9);
    const open = await ok(url, 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('dst'), name: 'other' },
    });
    const unknown = await call(url, 'pfs_v2.API/AddFileSet', {
      commit: open,
      fileSetId: 'f'.repeat(32),
    });
    expect(unknown.body.code).toBe(5);
  });

  it('ComposeFileSet (later wins), ShardFileSet by size, RenewFileSet and expiry', async () => {
    const one = await fileSetOf(await commitFiles(url, 'src', { '/k/1': 'one', '/k/2': 'two' }));
    const two = await fileSetOf(await commitFiles(url, 'src', { '/k/1': 'uno' }));
    const { fileSetId: composed } = await ok(url, 'pfs_v2.API/ComposeFileSet', {
      fileSetIds: [one, two],
      ttlSeconds: '60',
    });
    const files = await readAll(url, 'dst', await addToNewCommit(composed));
    expect(files['/k/1']).toBe('uno');
    expect(files['/k/2']).toBe('two');

    const bySize = await ok(url, 'pfs_v2.API/ShardFileSet', {
      fileSetId: composed,
      sizeBytes: '1',
    });
    expect(bySize.shards.length).toBe(Object.keys(files).length);
    expect(bySize.shards[0].lower).toBe('');
    expect(bySize.shards.at(-1).upper).toBe('');

    expect(
      await ok(url, 'pfs_v2.API/RenewFileSet', { fileSetId: composed, ttlSeconds: '600' }),
    ).toEqual({});
    server.server.platform.db
      .prepare('UPDATE pfs_file_sets SET expires_at = 0 WHERE id = ?')
      .run(composed);
    const expired = await call(url, 'pfs_v2.API/RenewFileSet', { fileSetId: composed });
    expect(expired.status).toBe(404);
    const left = server.server.platform.db
      .prepare('SELECT COUNT(*) FROM pfs_file_set_files WHERE file_set_id = ?')
      .pluck()
      .get(composed);
    expect(left).toBe(0);
  });
});

describe('CheckStorage', () => {
  it('counts blobs, within a chunk range, and fails on a corrupt one when reading data', async () => {
    const all = await ok(url, 'pfs_v2.API/CheckStorage', {});
    const blobs = await server.server.platform.blobs.count();
    expect(all).toEqual({ chunkObjectCount: String(blobs) });
    const hash = sha256('to corrupt');
    await commitFiles(url, 'src', { '/corrupt': 'to corrupt' });
    const exact = await ok(url, 'pfs_v2.API/CheckStorage', {
      chunkBegin: Buffer.from(hash, 'hex').toString('base64'),
      chunkEnd: Buffer.from(hash + '00', 'hex').toString('base64'),
      readChunkData: true,
    });
    expect(exact).toEqual({ chunkObjectCount: '1' });
    await writeFile(path.join(server.dataDir, 'blobs', hash.slice(0, 2), hash), 'other');
    const broken = await call(url, 'pfs_v2.API/CheckStorage', { readChunkData: true });
    expect(broken.body.code).toBe(13);
    expect(broken.body.message).toContain(hash);
    await writeFile(path.join(server.dataDir, 'blobs', hash.slice(0, 2), hash), 'to corrupt');
  });
});

describe('Egress', () => {
  it('writes a commit to a file:// folder and refuses other targets with 3', async () => {
    const id = await commitFiles(url, 'src', { '/e/one.txt': 'hello', '/two.bin': 'xyz' });
    const dir = await mkdtemp(path.join(egressRoot, 'ivory-egress-'));
    try {
      const answer: Json = await ok(url, 'pfs_v2.API/Egress', {
        commit: commitId('src', id),
        objectStorage: { url: pathToFileURL(dir).href },
      });
      const files = await readAll(url, 'src', id);
      const total = Object.values(files).reduce((sum, text) => sum + text.length, 0);
      expect(answer).toEqual({ objectStorage: { bytesWritten: String(total) } });
      expect(await readFile(path.join(dir, 'e/one.txt'), 'utf8')).toBe('hello');
      expect(await readFile(path.join(dir, 'two.bin'), 'utf8')).toBe('xyz');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    for (const target of [
      { objectStorage: { url: 's3://bucket/prefix' } },
      { sqlDatabase: { url: 'postgres://x' } },
      {},
    ]) {
      const refused = await call(url, 'pfs_v2.API/Egress', {
        commit: commitId('src', id),
        ...target,
      });
      expect(refused.body.code).toBe(3);
    }
  });
});

describe('Egress stays inside IVORY_EGRESS_ROOTS', () => {
  const egress = (id: string, target: string) =>
    call(url, 'pfs_v2.API/Egress', {
      commit: commitId('src', id),
      objectStorage: { url: target },
    });

  it('refuses folders outside the roots, /proc and / with 7, writing nothing', async () => {
    const id = await commitFiles(url, 'src', { '/x.txt': 'x' });
    const outside = await mkdtemp(path.join(tmpdir(), 'ivory-outside-'));
    try {
      for (const target of [
        pathToFileURL(outside).href,
        'file:///proc/self/x',
        'file:///',
        pathToFileURL(path.join(egressRoot, '..')).href,
        `${pathToFileURL(egressRoot).href}/../escaped`,
      ]) {
        const refused = await egress(id, target);
        expect(refused.body.code, target).toBe(7);
        expect(refused.body.message).toMatch(/IVORY_EGRESS_ROOTS/);
      }
      // Refused before any work: nothing was written where the targets point.
      expect(await readdir(outside)).toEqual([]);
      const aboveRoot = path.join(egressRoot, '..');
      for (const name of ['x.txt', 'escaped'])
        expect(await stat(path.join(aboveRoot, name)).catch(() => null), name).toBeNull();
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('does not follow symlinks out of the root (folders or files)', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'ivory-outside-'));
    const target = path.join(egressRoot, 'links');
    try {
      await mkdir(target);
      await symlink(outside, path.join(target, 'e'));
      await writeFile(path.join(outside, 'victim.txt'), 'keep');
      await symlink(path.join(outside, 'victim.txt'), path.join(target, 'two.bin'));
      const viaFolder = await egress(
        await commitFiles(url, 'src', { '/e/one.txt': 'hello' }),
        pathToFileURL(target).href,
      );
      expect(viaFolder.body.code).toBe(7);
      const viaFile = await egress(
        await commitFiles(url, 'src', { '/two.bin': 'overwrite' }),
        pathToFileURL(target).href,
      );
      expect(viaFile.body.code).toBe(7);
      expect(await readFile(path.join(outside, 'victim.txt'), 'utf8')).toBe('keep');
      await expect(readFile(path.join(outside, 'one.txt'))).rejects.toThrow();
      // The root itself named through a symlink to elsewhere is outside too.
      await symlink(outside, path.join(egressRoot, 'away'));
      const viaRootLink = await egress(
        await commitFiles(url, 'src', { '/y.txt': 'y' }),
        pathToFileURL(path.join(egressRoot, 'away', 'sub')).href,
      );
      expect(viaRootLink.body.code).toBe(7);
      await expect(readFile(path.join(outside, 'sub', 'y.txt'))).rejects.toThrow();
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe('Egress with no roots configured', () => {
  it('answers 7 naming the setting', async () => {
    const bare = await startTestServer();
    try {
      await ok(bare.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
      await ok(bare.url, 'pfs_v2.API/CreateRepo', { repo: repo('src') });
      const id = await commitFiles(bare.url, 'src', { '/a.txt': 'a' });
      const refused = await call(bare.url, 'pfs_v2.API/Egress', {
        commit: commitId('src', id),
        objectStorage: { url: pathToFileURL(tmpdir()).href },
      });
      expect(refused.body.code).toBe(7);
      expect(refused.body.message).toMatch(/IVORY_EGRESS_ROOTS/);
    } finally {
      await bare.close();
    }
  });
});
