import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, commitFiles, modifyFile, ok, repo, results } from './helpers/api-client.ts';
import type { Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

/**
 * Commit references as the unmodified Pachyderm console sends them: `{id}` only, `{branch}`
 * only, or `{id, branch: {name: "", repo}}` — resolved as pachd does (the reference's repo,
 * else its branch's repo, else the request's repo).
 */

let server: TestServer;
let url: string;
const commits: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('refs') });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('other') });
  for (const n of [1, 2, 3]) commits.push(await commitFiles(url, 'refs', { [`/f${n}`]: `${n}` }));
  await commitFiles(url, 'other', { '/o': 'o' });
});
afterAll(() => server.close());

const ids = (infos: Json[]) => infos.map((info) => info.commit.id);
const byBranchOnly = (name: string) => ({ branch: { name } });
const consoleRef = (id: string) => ({ id, branch: { name: '', repo: repo('refs') } });

describe('ListCommit', () => {
  it('takes `to` as {id, branch: {name: "", repo}} with a number (the file browser)', async () => {
    const listed = await results(url, 'pfs_v2.API/ListCommit', {
      repo: repo('refs'),
      to: consoleRef(commits[2]!),
      number: '2',
    });
    expect(ids(listed)).toEqual([commits[2], commits[1]]);
  });

  it('takes `to` as {id} only, the repo coming from the request', async () => {
    const listed = await results(url, 'pfs_v2.API/ListCommit', {
      repo: repo('refs'),
      to: { id: commits[1] },
    });
    expect(ids(listed)).toEqual([commits[1], commits[0]]);
  });

  it('takes `to` as {branch} only (the branch head)', async () => {
    const listed = await results(url, 'pfs_v2.API/ListCommit', {
      repo: repo('refs'),
      to: byBranchOnly('master'),
      number: 1,
    });
    expect(ids(listed)).toEqual([commits[2]]);
  });

  it('takes `from` in each shape', async () => {
    for (const from of [{ id: commits[0] }, consoleRef(commits[0]!)]) {
      const listed = await results(url, 'pfs_v2.API/ListCommit', {
        repo: repo('refs'),
        from,
        to: { id: commits[2] },
      });
      expect(ids(listed)).toEqual([commits[2], commits[1]]);
    }
    const fromHead = await results(url, 'pfs_v2.API/ListCommit', {
      repo: repo('refs'),
      from: byBranchOnly('master'),
    });
    expect(fromHead).toEqual([]);
  });

  it("prefers the reference's own repo to the request's", async () => {
    const listed = await results(url, 'pfs_v2.API/ListCommit', {
      repo: repo('refs'),
      to: { id: commits[0], repo: repo('refs'), branch: { name: '', repo: repo('other') } },
    });
    expect(ids(listed)).toEqual([commits[0]]);
  });

  it('still rejects a reference to a commit that is not there with 5', async () => {
    const response = await call(url, 'pfs_v2.API/ListCommit', {
      repo: repo('refs'),
      to: { id: 'f'.repeat(32) },
    });
    expect(response.body.code).toBe(5);
  });
});

describe('SubscribeCommit', () => {
  it('takes `from` as {id} and as {id, branch: {name: "", repo}}', async () => {
    for (const from of [{ id: commits[1] }, consoleRef(commits[1]!)]) {
      const controller = new AbortController();
      const response = await fetch(`${url}/api/pfs_v2.API/SubscribeCommit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ repo: repo('refs'), branch: 'master', from, state: 'FINISHED' }),
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      let text = '';
      while (!text.includes('\n')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString();
      }
      controller.abort();
      const first = JSON.parse(text.split('\n')[0]!);
      expect(first.result.commit.id).toBe(commits[2]);
    }
  });
});

describe('calls that take a single commit', () => {
  it('InspectCommit takes {id, branch: {name: "", repo}} and {branch: {name, repo}}', async () => {
    const byId = await ok(url, 'pfs_v2.API/InspectCommit', { commit: consoleRef(commits[0]!) });
    expect(byId.commit.id).toBe(commits[0]);
    expect(byId.commit.repo.name).toBe('refs');
    const byBranch = await ok(url, 'pfs_v2.API/InspectCommit', {
      commit: { branch: { name: 'master', repo: repo('refs') } },
    });
    expect(byBranch.commit.id).toBe(commits[2]);
  });

  it('ListFile and GetFile take a file whose commit names its repo through the branch', async () => {
    const listed = await results(url, 'pfs_v2.API/ListFile', {
      file: { commit: consoleRef(commits[1]!), path: '/' },
    });
    expect(listed.map((info: Json) => info.file.path).sort()).toEqual(['/f1', '/f2']);
    const chunks = await results(url, 'pfs_v2.API/GetFile', {
      file: { commit: consoleRef(commits[1]!), path: '/f2' },
    });
    expect(Buffer.from(chunks.join(''), 'base64').toString()).toBe('2');
  });

  it('CreateBranch and StartCommit take head/parent as {id}, the repo coming from the branch', async () => {
    await ok(url, 'pfs_v2.API/CreateBranch', {
      branch: { repo: repo('refs'), name: 'old' },
      head: { id: commits[0] },
    });
    const head = await ok(url, 'pfs_v2.API/InspectBranch', {
      branch: { repo: repo('refs'), name: 'old' },
    });
    expect(head.head.id).toBe(commits[0]);
    const started = await ok(url, 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('refs'), name: 'side' },
      parent: { id: commits[1] },
    });
    const info = await ok(url, 'pfs_v2.API/InspectCommit', {
      commit: { id: started.id, repo: repo('refs') },
    });
    expect(info.parentCommit.id).toBe(commits[1]);
    // ModifyFile and FinishCommit with the commit named through its branch's repo.
    const viaBranch = { id: started.id, branch: { name: 'side', repo: repo('refs') } };
    const written = await modifyFile(url, [
      { setCommit: viaBranch },
      { addFile: { path: '/side.txt', raw: Buffer.from('side').toString('base64') } },
    ]);
    expect(written.status).toBe(200);
    await ok(url, 'pfs_v2.API/FinishCommit', { commit: viaBranch });
    const chunks = await results(url, 'pfs_v2.API/GetFile', {
      file: {
        commit: { id: started.id, branch: { name: '', repo: repo('refs') } },
        path: '/side.txt',
      },
    });
    expect(Buffer.from(chunks.join(''), 'base64').toString()).toBe('side');
  });
});
