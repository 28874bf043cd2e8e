import { describe, expect, it } from 'vitest';
import {
  call,
  commitFiles,
  commitId,
  commitOn,
  getFile,
  modifyFile,
  ok,
  repo,
  results,
} from './helpers/api-client.ts';
import type { Json } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';

const { url } = useTestServer({ projects: ['default'], repos: ['data'] });

describe('commits', () => {
  it('goes from open to finished; the branch head is the open commit; parent = previous head', async () => {
    const first = await commitFiles(url(), 'data', { '/one.txt': 'one' }, { description: 'first' });
    const open = await ok(url(), 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('data'), name: 'master' },
      description: 'second',
    });
    expect(open.id).toMatch(/^[0-9a-f]{32}$/);
    expect(open.branch.name).toBe('master');

    const head = await ok(url(), 'pfs_v2.API/InspectBranch', {
      branch: { repo: repo('data'), name: 'master' },
    });
    expect(head.head.id).toBe(open.id);

    const openInfo = await ok(url(), 'pfs_v2.API/InspectCommit', {
      commit: commitId('data', open.id),
    });
    expect(openInfo.finished).toBeNull();
    expect(openInfo.finishing).toBeNull();
    expect(openInfo.parentCommit.id).toBe(first);
    expect(openInfo.origin).toEqual({ kind: 'USER' });
    expect(openInfo.description).toBe('second');

    const again = await call(url(), 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('data'), name: 'master' },
    });
    expect(again.body.code).toBe(9);

    await ok(url(), 'pfs_v2.API/FinishCommit', { commit: commitId('data', open.id) });
    const done = await ok(url(), 'pfs_v2.API/InspectCommit', {
      commit: commitOn('data'),
      wait: 'FINISHED',
    });
    expect(done.commit.id).toBe(open.id);
    expect(done.finished).not.toBeNull();
    expect(done.sizeBytesUpperBound).toBe('3');
    expect(done.details.sizeBytes).toBe('3');

    const parent = await ok(url(), 'pfs_v2.API/InspectCommit', { commit: commitId('data', first) });
    expect(parent.childCommits.map((c: Json) => c.id)).toEqual([open.id]);
    expect(
      (await ok(url(), 'pfs_v2.API/InspectCommit', { commit: commitId('data', 'master^') })).commit
        .id,
    ).toBe(first);

    const finishedTwice = await call(url(), 'pfs_v2.API/FinishCommit', {
      commit: commitId('data', open.id),
    });
    expect(finishedTwice.body.code).toBe(9);
  });

  it('rejects writes to a finished commit with 9', async () => {
    const id = await commitFiles(url(), 'data', { '/x.txt': 'x' });
    const write = await modifyFile(url(), [
      { setCommit: commitId('data', id) },
      { addFile: { path: '/y.txt', raw: Buffer.from('y').toString('base64') } },
    ]);
    expect(write.status).toBe(400);
    expect(write.body.code).toBe(9);
  });

  it('deleting a file in a new commit hides it there only', async () => {
    const before = await commitFiles(url(), 'data', { '/keep.txt': 'keep', '/drop.txt': 'drop' });
    const after = await commitFiles(url(), 'data', {}, { deletions: ['/drop.txt'] });
    const listAfter = await results(url(), 'pfs_v2.API/ListFile', {
      file: { commit: commitId('data', after), path: '/' },
    });
    expect(listAfter.map((f) => f.file.path)).not.toContain('/drop.txt');
    expect((await getFile(url(), 'data', before, '/drop.txt')).toString()).toBe('drop');
    const missing = await call(url(), 'pfs_v2.API/InspectFile', {
      file: { commit: commitId('data', after), path: '/drop.txt' },
    });
    expect(missing.body.code).toBe(5);
  });

  it('lists commits newest first, limited, reversed, and per commit set', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('history') });
    const ids = [];
    for (let i = 0; i < 4; i++)
      ids.push(await commitFiles(url(), 'history', { [`/f${i}`]: String(i) }));
    const listed = await results(url(), 'pfs_v2.API/ListCommit', {
      repo: repo('history'),
      to: commitOn('history'),
    });
    expect(listed.map((c) => c.commit.id)).toEqual([...ids].reverse());
    const limited = await results(url(), 'pfs_v2.API/ListCommit', {
      repo: repo('history'),
      number: 2,
    });
    expect(limited.map((c) => c.commit.id)).toEqual([ids[3], ids[2]]);
    const reversed = await results(url(), 'pfs_v2.API/ListCommit', {
      repo: repo('history'),
      reverse: true,
    });
    expect(reversed[0].commit.id).toBe(ids[0]);

    const set = await results(url(), 'pfs_v2.API/InspectCommitSet', { commitSet: { id: ids[1] } });
    expect(set.map((c) => c.commit.id)).toEqual([ids[1]]);
    const sets = await results(url(), 'pfs_v2.API/ListCommitSet', { project: { name: 'default' } });
    expect(sets[0].commitSet.id).toBe(ids[3]);
  });

  it('SubscribeCommit sends existing commits, then new ones as they finish', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('subscribed') });
    const existing = await commitFiles(url(), 'subscribed', { '/a': 'a' });
    const controller = new AbortController();
    const response = await fetch(`${url()}/api/pfs_v2.API/SubscribeCommit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ repo: repo('subscribed'), branch: 'master', state: 'FINISHED' }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const seen: string[] = [];
    let buffered = '';
    const readLine = async () => {
      while (!buffered.includes('\n')) {
        const { value } = await reader.read();
        buffered += new TextDecoder().decode(value);
      }
      const line = buffered.slice(0, buffered.indexOf('\n'));
      buffered = buffered.slice(buffered.indexOf('\n') + 1);
      return JSON.parse(line);
    };
    seen.push((await readLine()).result.commit.id);
    const next = await commitFiles(url(), 'subscribed', { '/b': 'b' });
    seen.push((await readLine()).result.commit.id);
    controller.abort();
    expect(seen).toEqual([existing, next]);
  });
});
