import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, results } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';

const { server, url } = useTestServer({ projects: ['default'], repos: ['data'] });

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const blobPath = (hash: string) => path.join(server().dataDir, 'blobs', hash.slice(0, 2), hash);

describe('Fsck', () => {
  it('reports nothing for a healthy store, then exactly the corrupt and the missing blob', async () => {
    const id = await commitFiles(url(), 'data', {
      '/ok.txt': 'healthy content',
      '/corrupt.txt': 'will be corrupted',
      '/gone.txt': 'will be deleted',
      '/empty.txt': '',
    });
    expect(await results(url(), 'pfs_v2.API/Fsck', {})).toEqual([]);

    await writeFile(blobPath(sha256('will be corrupted')), 'different bytes');
    await rm(blobPath(sha256('will be deleted')));
    const problems = await results(url(), 'pfs_v2.API/Fsck', {});
    expect(problems).toEqual([
      {
        fix: '',
        error: `commit default/data@${id}: file /corrupt.txt: blob ${sha256('will be corrupted')} corrupt`,
      },
      {
        fix: '',
        error: `commit default/data@${id}: file /gone.txt: blob ${sha256('will be deleted')} missing`,
      },
    ]);
    // fix never touches file contents: the same two problems remain.
    expect(await results(url(), 'pfs_v2.API/Fsck', { fix: true })).toEqual(problems);
  });

  it('reports an upload session whose repo is gone, and removes it with fix', async () => {
    const db = server().server.platform.db;
    db.prepare(
      `INSERT INTO uploads (id, project, repo, branch, path, description, created_at, updated_at)
       VALUES ('u1', 'default', 'deleted-repo', 'master', '/', '', 0, 0)`,
    ).run();
    const lines = await results(url(), 'pfs_v2.API/Fsck', {});
    const what = 'upload u1: repo default/deleted-repo no longer exists';
    expect(lines).toContainEqual({ fix: '', error: what });
    const fixed = await results(url(), 'pfs_v2.API/Fsck', { fix: true });
    expect(fixed).toContainEqual({ fix: `removed ${what}`, error: '' });
    const after = await results(url(), 'pfs_v2.API/Fsck', {});
    expect(after.filter((line: { error: string }) => line.error.startsWith('upload'))).toEqual([]);
  });
});
