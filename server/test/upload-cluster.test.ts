/**
 * The chunked /upload flow in cluster mode: the console's server (IVORY_PACHD_ADDRESS, here
 * in-process) stages the chunks and, on /upload/finish, lands them on the cluster (an embedded
 * server process) in one commit through StartCommit / ModifyFile / FinishCommit.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFile, ok, repo, results } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';
import { uploadClient } from './helpers/upload-client.ts';

let upstream: ServerProcess;
let front: TestServer;

beforeAll(async () => {
  upstream = await startServerProcess();
  await ok(upstream.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(upstream.url, 'pfs_v2.API/CreateRepo', { repo: repo('remote') });
  front = await startTestServer({ pachdAddress: upstream.url });
});

afterAll(async () => {
  await front?.close();
  await upstream?.kill();
});

const { postJson, sendChunk } = uploadClient(() => front.url);

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('chunked upload in cluster mode', () => {
  it('lands the upload in one commit on the cluster with byte-identical files', async () => {
    // The repo exists only on the cluster: /upload/start does not look for it locally.
    const start = await postJson('/upload/start', {
      path: '/incoming',
      repo: 'remote',
      branch: 'master',
      description: 'cluster upload',
      projectId: 'default',
    });
    expect(start.status).toBe(200);
    const { uploadId } = start.body;

    // Over 20 MiB (several addFile messages), in order; a second file out of order; an empty one.
    const big = randomBytes(21 * 1024 * 1024 + 4321);
    const bigChunks = [0, 1, 2].map((i) =>
      big.subarray(i * 8 * 1024 * 1024, (i + 1) * 8 * 1024 * 1024),
    );
    const mixed = randomBytes(3 * 1000 + 7);
    const mixedChunks = [0, 1, 2, 3].map((i) => mixed.subarray(i * 1000, (i + 1) * 1000));
    for (const [index, bytes] of bigChunks.entries())
      expect((await sendChunk(uploadId, 'nested/big.bin', 3, index, bytes)).status).toBe(200);
    for (const index of [2, 0, 3, 1])
      expect((await sendChunk(uploadId, 'mixed.bin', 4, index, mixedChunks[index]!)).status).toBe(
        200,
      );
    // An identical repeat is fine, a different one is refused.
    expect((await sendChunk(uploadId, 'mixed.bin', 4, 1, mixedChunks[1]!)).status).toBe(200);
    expect((await sendChunk(uploadId, 'mixed.bin', 4, 1, randomBytes(1000))).body.code).toBe(3);
    expect((await sendChunk(uploadId, 'empty.txt', 1, 0, Buffer.alloc(0))).status).toBe(200);

    const before = await results(upstream.url, 'pfs_v2.API/ListCommit', { repo: repo('remote') });
    const finished = await postJson('/upload/finish', { uploadId, description: '' });
    expect(finished.status).toBe(200);
    const { commitId } = finished.body;

    const after = await results(upstream.url, 'pfs_v2.API/ListCommit', { repo: repo('remote') });
    expect(after).toHaveLength(before.length + 1);
    expect(after[0].commit.id).toBe(commitId);
    expect(after[0].finished).not.toBeNull();
    expect(after[0].description).toBe('cluster upload');
    expect(sha(await getFile(upstream.url, 'remote', commitId, '/incoming/nested/big.bin'))).toBe(
      sha(big),
    );
    expect(sha(await getFile(upstream.url, 'remote', commitId, '/incoming/mixed.bin'))).toBe(
      sha(mixed),
    );
    expect((await getFile(upstream.url, 'remote', commitId, '/incoming/empty.txt')).length).toBe(0);

    // The session and its staging are gone; nothing was stored in the local blob store.
    expect((await fetch(`${front.url}/upload/status?uploadId=${uploadId}`)).status).toBe(404);
    expect(await readdir(path.join(front.dataDir, 'uploads'))).toEqual([]);
    expect(await front.server.platform.blobs.count()).toBe(0);
  });

  it('lands nothing when a file is incomplete', async () => {
    const { body } = await postJson('/upload/start', { path: '/', repo: 'remote' });
    await sendChunk(body.uploadId, 'half.txt', 2, 0, Buffer.from('half'));
    const before = await results(upstream.url, 'pfs_v2.API/ListCommit', { repo: repo('remote') });
    const finish = await postJson('/upload/finish', { uploadId: body.uploadId });
    expect(finish.body.code).toBe(9);
    expect(finish.body.message).toContain('incomplete');
    expect(
      await results(upstream.url, 'pfs_v2.API/ListCommit', { repo: repo('remote') }),
    ).toHaveLength(before.length);
  });

  it('passes the cluster error through when the repo does not exist there', async () => {
    const { body } = await postJson('/upload/start', { path: '/', repo: 'nowhere' });
    expect((await sendChunk(body.uploadId, 'a.txt', 1, 0, Buffer.from('a'))).status).toBe(200);
    const finish = await postJson('/upload/finish', { uploadId: body.uploadId });
    expect(finish.status).toBe(404);
    expect(finish.body.code).toBe(5);
  });
});
