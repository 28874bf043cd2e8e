import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { commitFiles, commitId, getFile, ok, repo, results } from './helpers/api-client.ts';
import type { Json } from './helpers/api-client.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';

/** Every finished commit of the repo → its files → sha256 of their bytes (read via GetFile). */
async function snapshot(url: string): Promise<Record<string, Record<string, string>>> {
  const commits = await results(url, 'pfs_v2.API/ListCommit', { repo: repo('crash') });
  const result: Record<string, Record<string, string>> = {};
  for (const commit of commits.filter((c) => c.finished !== null)) {
    const files: Record<string, string> = {};
    const walked = await results(url, 'pfs_v2.API/WalkFile', {
      file: { commit: commit.commit, path: '/' },
    });
    for (const file of walked.filter((f) => f.fileType === 'FILE')) {
      const bytes = await getFile(url, 'crash', commit.commit.id, file.file.path);
      files[file.file.path] = createHash('sha256').update(bytes).digest('hex');
    }
    result[commit.commit.id] = files;
  }
  return result;
}

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

async function startUpload(url: string): Promise<string> {
  const response = await fetch(`${url}/upload/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/uploaded', repo: 'crash', projectId: 'default' }),
  });
  return ((await response.json()) as { uploadId: string }).uploadId;
}

function sendChunk(
  url: string,
  uploadId: string,
  fileName: string,
  total: number,
  index: number,
  bytes: Buffer,
) {
  const form = new FormData();
  form.set('uploadId', uploadId);
  form.set('fileName', fileName);
  form.set('chunkTotal', String(total));
  form.set('currentChunk', String(index));
  form.set('file', new Blob([bytes]), 'blob');
  return fetch(`${url}/upload`, { method: 'POST', body: form });
}

let current: ServerProcess | null = null;
afterEach(async () => {
  await current?.kill('SIGKILL');
  current = null;
});

describe('crash safety', () => {
  it('keeps finished commits intact and never shows a half-done upload as a commit', async () => {
    current = await startServerProcess({ IVORY_FAULT_KILL_AT: 'upload-chunk-mid' });
    let url = current.url;
    await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('crash') });
    const first = await commitFiles(url, 'crash', {
      '/a.txt': 'alpha',
      '/dir/b.bin': randomBytes(300_000),
    });
    const second = await commitFiles(
      url,
      'crash',
      { '/c.txt': 'gamma' },
      { deletions: ['/a.txt'] },
    );
    const expected = await snapshot(url);
    expect(Object.keys(expected).sort()).toEqual([first, second].sort());
    expect(expected[second]!['/c.txt']).toBe(sha('gamma'));

    // 1. SIGKILL half-way through writing a chunk.
    const uploadId = await startUpload(url);
    await expect(
      sendChunk(url, uploadId, 'big.bin', 2, 0, randomBytes(2 * 1024 * 1024)),
    ).rejects.toThrow();
    expect(await current.exited()).toBe('SIGKILL');
    current = await current.restart();
    url = current.url;
    expect(await snapshot(url)).toEqual(expected);

    // 2. SIGKILL after the blobs are stored, before the SQLite transaction.
    current = await current.restart({ IVORY_FAULT_KILL_AT: 'upload-finish-after-blobs' });
    url = current.url;
    const secondUpload = await startUpload(url);
    const payload = randomBytes(1024 * 1024);
    expect(
      (await sendChunk(url, secondUpload, 'one.bin', 2, 0, payload.subarray(0, 600_000))).status,
    ).toBe(200);
    expect(
      (await sendChunk(url, secondUpload, 'one.bin', 2, 1, payload.subarray(600_000))).status,
    ).toBe(200);
    await expect(
      fetch(`${url}/upload/finish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uploadId: secondUpload }),
      }),
    ).rejects.toThrow();
    expect(await current.exited()).toBe('SIGKILL');

    // 3. SIGKILL inside the SQLite transaction (after the same kind of upload).
    current = await current.restart({ IVORY_FAULT_KILL_AT: 'upload-finish-mid-transaction' });
    url = current.url;
    expect(await snapshot(url)).toEqual(expected);
    const status = await fetch(`${url}/upload/status?uploadId=${secondUpload}`).then(
      (r) => r.json() as Promise<Json>,
    );
    expect(status.files[0].received).toEqual([0, 1]);
    await expect(
      fetch(`${url}/upload/finish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uploadId: secondUpload }),
      }),
    ).rejects.toThrow();
    expect(await current.exited()).toBe('SIGKILL');

    current = await current.restart();
    url = current.url;
    expect(await snapshot(url)).toEqual(expected);

    // The interrupted upload is still resumable and lands exactly once when finished.
    const finished = await fetch(`${url}/upload/finish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uploadId: secondUpload }),
    });
    expect(finished.status).toBe(200);
    expect(sha(await getFile(url, 'crash', 'master', '/uploaded/one.bin'))).toBe(sha(payload));
  });

  it('survives an external SIGKILL while a large ModifyFile is streaming', async () => {
    current = await startServerProcess();
    let url = current.url;
    await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('crash') });
    await commitFiles(url, 'crash', { '/kept.txt': 'kept' });
    const expected = await snapshot(url);

    const open = await ok(url, 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('crash'), name: 'master' },
    });
    const line =
      JSON.stringify({
        addFile: { path: '/huge.bin', raw: randomBytes(4 * 1024 * 1024).toString('base64') },
      }) + '\n';
    let sent = 0;
    const running = current;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify({ setCommit: open }) + '\n'));
      },
      async pull(controller) {
        sent++;
        if (sent === 4) void running.kill('SIGKILL');
        if (sent > 40) return controller.close();
        controller.enqueue(new TextEncoder().encode(line));
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
    });
    await expect(
      fetch(`${url}/api/pfs_v2.API/ModifyFile`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
    ).rejects.toThrow();
    await current.exited();

    current = await current.restart();
    url = current.url;
    expect(await snapshot(url)).toEqual(expected);
    const head = await ok(url, 'pfs_v2.API/InspectCommit', { commit: commitId('crash', open.id) });
    expect(head.finished).toBeNull();
  });
});
