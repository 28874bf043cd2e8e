import { createHash, randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitId, getFile, ok, repo, results } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { uploadClient } from './helpers/upload-client.ts';

const { server, url } = useTestServer({ projects: ['default'], repos: ['up'] });

const { postJson, sendChunk } = uploadClient(url);

const split = (bytes: Buffer, parts: number) => {
  const size = Math.ceil(bytes.length / parts);
  return Array.from({ length: parts }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
};

describe('chunked upload', () => {
  it('lands every file of an upload in one finished commit, chunks in Json order', async () => {
    const start = await postJson('/upload/start', {
      path: '/incoming',
      repo: 'up',
      branch: 'master',
      description: 'from start',
      projectId: 'default',
    });
    expect(start.status).toBe(200);
    const { uploadId } = start.body;
    const big = randomBytes(3 * 1024 * 1024 + 17);
    const small = Buffer.from('name,value\nx,1\n');
    const bigChunks = split(big, 3);
    for (const index of [2, 0, 1]) {
      const sent = await sendChunk(uploadId, 'nested/big.bin', 3, index, bigChunks[index]!);
      expect(sent.status).toBe(200);
    }
    const last = await sendChunk(uploadId, 'table.csv', 1, 0, small);
    expect(last.body).toEqual({ uploadId, fileName: 'table.csv', received: [0] });

    const status = await fetch(`${url()}/upload/status?uploadId=${uploadId}`).then(
      (r) => r.json() as Promise<unknown>,
    );
    expect(status).toEqual({
      uploadId,
      files: [
        { fileName: 'nested/big.bin', chunkTotal: 3, received: [0, 1, 2] },
        { fileName: 'table.csv', chunkTotal: 1, received: [0] },
      ],
    });

    const before = await results(url(), 'pfs_v2.API/ListCommit', { repo: repo('up') });
    const finished = await postJson('/upload/finish', { uploadId, description: '' });
    expect(finished.status).toBe(200);
    const after = await results(url(), 'pfs_v2.API/ListCommit', { repo: repo('up') });
    expect(after).toHaveLength(before.length + 1);
    expect(after[0].finished).not.toBeNull();
    expect(after[0].description).toBe('from start');
    expect(after[0].commit.id).toBe(finished.body.commitId);
    const landed = await getFile(url(), 'up', finished.body.commitId, '/incoming/nested/big.bin');
    expect(createHash('sha256').update(landed).digest('hex')).toBe(
      createHash('sha256').update(big).digest('hex'),
    );
    expect((await getFile(url(), 'up', 'master', '/incoming/table.csv')).equals(small)).toBe(true);

    const gone = await fetch(`${url()}/upload/status?uploadId=${uploadId}`);
    expect(gone.status).toBe(404);
  });

  it('appends a chunk sent while the one before it streams in place, after it', async () => {
    const { body } = await postJson('/upload/start', {
      path: '/piped',
      repo: 'up',
      projectId: 'default',
    });
    const uploadId = body.uploadId as string;
    const bytes = randomBytes(2 * 6 * 1024 * 1024);
    const [first, second] = split(bytes, 2);
    // Chunk 0 as a multipart body streamed by hand: half of it, then the rest once chunk 1 is sent.
    const boundary = 'ivory-test-boundary';
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const head = Buffer.from(
      field('uploadId', uploadId) +
        field('fileName', 'piped.bin') +
        field('chunkTotal', '2') +
        field('currentChunk', '0') +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const half = first!.length / 2;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(head);
        controller.enqueue(first!.subarray(0, half));
        await released;
        controller.enqueue(first!.subarray(half));
        controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const zero = fetch(`${url()}/upload`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    // Chunk 0 is streaming into the file's staging bytes.
    const staging = path.join(
      server().dataDir,
      'uploads',
      uploadId,
      createHash('sha256').update('piped.bin').digest('hex'),
    );
    const size = async () => (await stat(path.join(staging, 'data')).catch(() => null))?.size ?? 0;
    while ((await size()) < 2 * 1024 * 1024) await new Promise((r) => setTimeout(r, 20));
    const one = sendChunk(uploadId, 'piped.bin', 2, 1, second!);
    await new Promise((r) => setTimeout(r, 100));
    release();
    expect((await zero).status).toBe(200);
    expect((await one).body).toEqual({ uploadId, fileName: 'piped.bin', received: [0, 1] });
    // Chunk 1 waited for chunk 0 and was appended after it: no chunk staged on its own.
    expect(await readdir(staging)).toEqual(['data']);
    expect(await size()).toBe(bytes.length);

    const finished = await postJson('/upload/finish', { uploadId, description: '' });
    expect(finished.status).toBe(200);
    const landed = await getFile(url(), 'up', finished.body.commitId, '/piped/piped.bin');
    expect(landed.equals(bytes)).toBe(true);
  });

  it('validates chunks: range, chunkTotal changes, conflicting duplicates, unknown upload', async () => {
    const { body } = await postJson('/upload/start', {
      path: '/',
      repo: 'up',
      projectId: 'default',
    });
    const id = body.uploadId;
    expect((await sendChunk(id, 'f.txt', 2, 2, Buffer.from('x'))).body.code).toBe(3);
    expect((await sendChunk(id, 'f.txt', 2, -1 as number, Buffer.from('x'))).body.code).toBe(3);
    expect((await sendChunk(id, 'f.txt', 2, 0, Buffer.from('aa'))).status).toBe(200);
    expect((await sendChunk(id, 'f.txt', 2, 0, Buffer.from('aa'))).status).toBe(200);
    const conflict = await sendChunk(id, 'f.txt', 2, 0, Buffer.from('bb'));
    expect(conflict.body.code).toBe(3);
    expect(conflict.body.message).toContain('different bytes');
    expect((await sendChunk(id, 'f.txt', 3, 1, Buffer.from('x'))).body.code).toBe(3);
    expect((await sendChunk(id, '../escape.txt', 1, 0, Buffer.from('x'))).body.code).toBe(3);
    const unknown = await sendChunk('nope', 'f.txt', 1, 0, Buffer.from('x'));
    expect(unknown.status).toBe(404);

    const incomplete = await postJson('/upload/finish', { uploadId: id, description: 'd' });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.code).toBe(9);
    expect(incomplete.body.message).toContain('incomplete');
  });

  it('needs an existing repo', async () => {
    const start = await postJson('/upload/start', {
      path: '/',
      repo: 'missing',
      projectId: 'default',
    });
    expect(start.status).toBe(404);
    expect(start.body.message).toContain('not found');
  });

  it('lands nothing when a file is incomplete', async () => {
    const { body } = await postJson('/upload/start', {
      path: '/partial',
      repo: 'up',
      projectId: 'default',
    });
    await sendChunk(body.uploadId, 'done.txt', 1, 0, Buffer.from('done'));
    await sendChunk(body.uploadId, 'half.txt', 2, 0, Buffer.from('half'));
    const before = await results(url(), 'pfs_v2.API/ListCommit', { repo: repo('up') });
    expect((await postJson('/upload/finish', { uploadId: body.uploadId })).body.code).toBe(9);
    expect(await results(url(), 'pfs_v2.API/ListCommit', { repo: repo('up') })).toHaveLength(
      before.length,
    );
    const head = await ok(url(), 'pfs_v2.API/InspectCommit', { commit: commitId('up', 'master') });
    expect(head.commit.id).toBe(before[0].commit.id);
  });
});
