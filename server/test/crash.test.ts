import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { commitFiles, commitId, getFile, ok, repo, results } from './helpers/api-client.ts';
import type { Json } from './helpers/api-client.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';
import { postChunk } from './helpers/upload-client.ts';

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

    // 1. SIGKILL half-way through writing a chunk into a staging file that holds chunk 0.
    const uploadId = await startUpload(url);
    const halfDone = randomBytes(3 * 1024 * 1024);
    expect(
      (await postChunk(url, uploadId, 'big.bin', 2, 0, halfDone.subarray(0, 1024 * 1024))).status,
    ).toBe(200);
    await expect(
      postChunk(url, uploadId, 'big.bin', 2, 1, halfDone.subarray(1024 * 1024)),
    ).rejects.toThrow();
    expect(await current.exited()).toBe('SIGKILL');
    current = await current.restart();
    url = current.url;
    expect(await snapshot(url)).toEqual(expected);
    const afterChunkKill = await fetch(`${url}/upload/status?uploadId=${uploadId}`).then(
      (r) => r.json() as Promise<Json>,
    );
    expect(afterChunkKill.files).toEqual([{ fileName: 'big.bin', chunkTotal: 2, received: [0] }]);

    // 2. SIGKILL after the first file's bytes moved into the blob store, before the second's:
    //    one.bin arrives in order (appended to its staging file, hashed as it comes), two.bin
    //    out of order (its chunk 1 waits in a file of its own until finish).
    current = await current.restart({ IVORY_FAULT_KILL_AT: 'upload-finish-mid-blobs' });
    url = current.url;
    const secondUpload = await startUpload(url);
    const payload = randomBytes(1024 * 1024);
    const other = randomBytes(700_000);
    const sent = [
      await postChunk(url, secondUpload, 'one.bin', 2, 0, payload.subarray(0, 600_000)),
      await postChunk(url, secondUpload, 'one.bin', 2, 1, payload.subarray(600_000)),
      await postChunk(url, secondUpload, 'two.bin', 2, 1, other.subarray(400_000)),
      await postChunk(url, secondUpload, 'two.bin', 2, 0, other.subarray(0, 400_000)),
    ];
    expect(sent.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const finishUpload = () =>
      fetch(`${url}/upload/finish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uploadId: secondUpload }),
      });
    await expect(finishUpload()).rejects.toThrow();
    expect(await current.exited()).toBe('SIGKILL');

    // 3. SIGKILL after all the blobs are stored, before the SQLite transaction.
    current = await current.restart({ IVORY_FAULT_KILL_AT: 'upload-finish-after-blobs' });
    url = current.url;
    expect(await snapshot(url)).toEqual(expected);
    await expect(finishUpload()).rejects.toThrow();
    expect(await current.exited()).toBe('SIGKILL');

    // 4. SIGKILL inside the SQLite transaction (after the same kind of upload).
    current = await current.restart({ IVORY_FAULT_KILL_AT: 'upload-finish-mid-transaction' });
    url = current.url;
    expect(await snapshot(url)).toEqual(expected);
    const status = await fetch(`${url}/upload/status?uploadId=${secondUpload}`).then(
      (r) => r.json() as Promise<Json>,
    );
    expect(status.files.map((file: Json) => file.received)).toEqual([
      [0, 1],
      [0, 1],
    ]);
    // Repeated chunks are still compared with the kept bytes (now in the blob store).
    const again = await postChunk(url, secondUpload, 'one.bin', 2, 1, payload.subarray(600_000));
    expect(again.status).toBe(200);
    const changed = await postChunk(url, secondUpload, 'two.bin', 2, 0, randomBytes(400_000));
    expect(((await changed.json()) as Json).code).toBe(3);
    await expect(finishUpload()).rejects.toThrow();
    expect(await current.exited()).toBe('SIGKILL');

    current = await current.restart();
    url = current.url;
    expect(await snapshot(url)).toEqual(expected);

    // The interrupted uploads are still resumable and land exactly once when finished.
    const finished = await finishUpload();
    expect(finished.status).toBe(200);
    expect(sha(await getFile(url, 'crash', 'master', '/uploaded/one.bin'))).toBe(sha(payload));
    expect(sha(await getFile(url, 'crash', 'master', '/uploaded/two.bin'))).toBe(sha(other));
    expect(
      (await postChunk(url, uploadId, 'big.bin', 2, 1, halfDone.subarray(1024 * 1024))).status,
    ).toBe(200);
    const firstFinished = await fetch(`${url}/upload/finish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uploadId }),
    });
    expect(firstFinished.status).toBe(200);
    expect(sha(await getFile(url, 'crash', 'master', '/uploaded/big.bin'))).toBe(sha(halfDone));
    const commits = await results(url, 'pfs_v2.API/ListCommit', { repo: repo('crash') });
    expect(commits).toHaveLength(Object.keys(expected).length + 2);
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
