import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFile, ok, repo, results, type Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { postChunk, postJson } from './helpers/upload-client.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await ok(server.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo('names') });
});
afterAll(() => server.close());

async function startUpload(path: string): Promise<string> {
  const started = await postJson(server.url, '/upload/start', { path, repo: 'names' });
  expect(started.status).toBe(200);
  return started.body.uploadId as string;
}

async function send(uploadId: string, name: string, text: string) {
  const response = await postChunk(server.url, uploadId, name, 1, 0, Buffer.from(text));
  return { status: response.status, body: (await response.json()) as Json };
}

const finish = (uploadId: string) => postJson(server.url, '/upload/finish', { uploadId });

describe('upload names', () => {
  it('round-trips a 40-character CJK name and a name over 255 bytes once encoded', async () => {
    const cjk = '漢字かなカナ한국어'.repeat(5).slice(0, 40);
    expect([...cjk]).toHaveLength(40);
    const long = 'ü'.repeat(60) + '.txt';
    const uploadId = await startUpload('/intl');
    expect((await send(uploadId, cjk, 'cjk bytes')).status).toBe(200);
    expect((await send(uploadId, long, 'long bytes')).status).toBe(200);
    const finished = await finish(uploadId);
    expect(finished.status).toBe(200);
    expect((await getFile(server.url, 'names', 'master', `/intl/${cjk}`)).toString()).toBe(
      'cjk bytes',
    );
    expect((await getFile(server.url, 'names', 'master', `/intl/${long}`)).toString()).toBe(
      'long bytes',
    );
  });

  it('rejects ., .., empty segments, trailing slashes and clashes at the chunk, landing only good files', async () => {
    const uploadId = await startUpload('/strict');
    expect((await send(uploadId, 'a.txt', 'a')).status).toBe(200);
    for (const bad of ['.', '..', './a.txt', 'a.txt/', '/a.txt', 'x//y.txt', 'd/../a.txt']) {
      const answer = await send(uploadId, bad, 'bad');
      expect(answer.status, bad).toBe(400);
      expect(answer.body.code).toBe(3);
      expect(answer.body.message).toContain(JSON.stringify(bad));
    }
    const clash = await send(uploadId, 'a.txt/inner', 'clash');
    expect(clash.status).toBe(400);
    expect(clash.body.message).toMatch(/clashes with "a.txt"/);
    // A file named like the staging's own files is just a name.
    expect((await send(uploadId, 'data', 'data')).status).toBe(200);
    const status = await fetch(`${server.url}/upload/status?uploadId=${uploadId}`).then(
      (r) => r.json() as Promise<Json>,
    );
    expect(status.files.map((f: Json) => f.fileName).sort()).toEqual(['a.txt', 'data']);
    expect((await finish(uploadId)).status).toBe(200);
    const walked = await results(server.url, 'pfs_v2.API/WalkFile', {
      file: { commit: { repo: repo('names'), id: 'master' }, path: '/strict' },
    });
    expect(walked.filter((f) => f.fileType === 'FILE').map((f) => f.file.path)).toEqual([
      '/strict/a.txt',
      '/strict/data',
    ]);
  });

  it('answers a retried /upload/finish with the same commit, landing once', async () => {
    const uploadId = await startUpload('/again');
    expect((await send(uploadId, 'once.txt', 'once')).status).toBe(200);
    const first = await finish(uploadId);
    const second = await finish(uploadId);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.commitId).toBe(first.body.commitId);
    const commits = await results(server.url, 'pfs_v2.API/ListCommit', { repo: repo('names') });
    expect(commits.filter((c) => c.commit.id === first.body.commitId)).toHaveLength(1);
    expect(commits[0].commit.id).toBe(first.body.commitId);
  });
});
