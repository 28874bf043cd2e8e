import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pfs_v2 } from '@ivory/api/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, getFile, modifyFile, ok, repo, results } from './helpers/api-client.ts';
import { grpcClient, grpcFailure } from './helpers/grpc-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { uploadClient } from './helpers/upload-client.ts';

// A full disk, for real: the data folder is on a small tmpfs (this machine runs the tests as
// root, so it may mount one), filled up to a few KiB. Every write that runs out of disk answers
// RESOURCE_EXHAUSTED (8, HTTP 507) naming it — ModifyFile over HTTP and gRPC, an upload's
// start, chunk and finish — and stores nothing of itself; reads go on; once space is freed,
// writes succeed again. Each call is guarded against a hang (the guard is asserted not to fire).

let mount: string;
let server: TestServer;
let url: string;
let fillers = 0;
/** Fills what is left of the disk (another file each time: failed writes freed what they took). */
function fillDisk(): void {
  const { bavail, bsize } = statfsSync(mount);
  try {
    writeFileSync(path.join(mount, `filler-${fillers++}`), Buffer.alloc(bavail * bsize));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
}
const { postJson, sendChunk } = uploadClient(() => url);
const branch = { setCommit: { branch: { repo: repo('r'), name: 'master' } } };
const addBytes = (name: string, size: number) => ({
  addFile: { path: name, raw: Buffer.alloc(size, 7).toString('base64') },
});
let uploadId = '';

/** `work` unless it hangs for 20 s (then an error saying so). */
async function unlessHung<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('hung')), 20_000);
  });
  try {
    return await Promise.race([work, hung]);
  } finally {
    clearTimeout(timer);
  }
}

const headId = async () =>
  (await ok(url, 'pfs_v2.API/InspectCommit', { commit: branch.setCommit })).commit.id as string;

beforeAll(async () => {
  mount = mkdtempSync(path.join(tmpdir(), 'ivory-full-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mount]);
  server = await startTestServer({
    dataDir: path.join(mount, 'data'),
    grpc: { port: 0, optional: false },
  });
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('r') });
  await commitFiles(url, 'r', { '/a.txt': 'alpha' });
  // An upload whose one file arrived whole before the disk filled up.
  uploadId = (await postJson('/upload/start', { path: '/up', repo: 'r', projectId: 'default' }))
    .body.uploadId;
  expect((await sendChunk(uploadId, 'early.bin', 1, 0, Buffer.alloc(1024 * 1024, 3))).status).toBe(
    200,
  );
}, 60_000);

afterAll(async () => {
  await server?.close().catch(() => undefined);
  if (mount) {
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  }
});

const exhausted = (body: { code: number; message: string }) => {
  expect(body.code).toBe(8);
  expect(body.message).toMatch(/disk is full \(no space left on device/);
};

describe('a full disk', () => {
  it('refuses ModifyFile with 8, HTTP and gRPC, and stores nothing of it', async () => {
    fillDisk();
    const before = await headId();
    const answer = await unlessHung(modifyFile(url, [branch, addBytes('/big.bin', 4 << 20)]));
    expect(answer.status).toBe(507);
    exhausted(answer.body);
    const client = grpcClient(`127.0.0.1:${server.server.grpc!.port}`);
    const failure = await unlessHung(
      grpcFailure(
        client.clientStream(pfs_v2.API.method.modifyFile, [
          {
            body: {
              case: 'setCommit',
              value: {
                branch: { repo: { name: 'r', project: { name: 'default' } }, name: 'master' },
              },
            },
          },
          {
            body: {
              case: 'addFile',
              value: {
                path: '/g.bin',
                source: { case: 'raw', value: { value: Buffer.alloc(4 << 20, 1) } },
              },
            },
          },
        ]),
      ),
    );
    client.close();
    expect(failure.code).toBe(8);
    expect(await headId()).toBe(before);
    const paths = (
      await results(url, 'pfs_v2.API/GlobFile', {
        commit: { repo: repo('r'), id: 'master' },
        pattern: '/**',
      })
    ).map((file) => file.file.path);
    expect(paths).toEqual(['/a.txt']);
    // No half-written blob left behind (each failed writer removes its temp file as it ends).
    await expect
      .poll(() => readdirSync(path.join(server.dataDir, 'tmp')), { timeout: 5000 })
      .toEqual([]);
  });

  it('refuses an upload’s start, chunk and finish with 8, promptly', async () => {
    fillDisk();
    const start = await unlessHung(
      postJson('/upload/start', { path: '/x', repo: 'r', projectId: 'default' }),
    );
    expect(start.status).toBe(507);
    exhausted(start.body);
    const chunk = await unlessHung(sendChunk(uploadId, 'late.bin', 1, 0, Buffer.alloc(4 << 20, 4)));
    expect(chunk.status).toBe(507);
    exhausted(chunk.body);
    const finish = await unlessHung(postJson('/upload/finish', { uploadId }));
    expect(finish.status).toBe(507);
    exhausted(finish.body);
  });

  it('serves reads meanwhile', async () => {
    expect((await getFile(url, 'r', 'master', '/a.txt')).toString()).toBe('alpha');
    const file = await fetch(`${url}/files/default/r/master/a.txt`);
    expect(await file.text()).toBe('alpha');
  });

  it('accepts writes again once space is freed', async () => {
    for (let i = 0; i < fillers; i++) rmSync(path.join(mount, `filler-${i}`), { force: true });
    const answer = await modifyFile(url, [branch, addBytes('/big.bin', 4 << 20)]);
    expect(answer.status).toBe(200);
    const finish = await postJson('/upload/finish', { uploadId });
    expect(finish.status).toBe(200);
    expect((await getFile(url, 'r', 'master', '/up/early.bin')).length).toBe(1024 * 1024);
    expect((await getFile(url, 'r', 'master', '/big.bin')).length).toBe(4 << 20);
  });
});
