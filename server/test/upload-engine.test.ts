import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadItem, finishUploads, sessionStatus, startUploads } from '@ivory/api';
import { getFile, ok, repo } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

// The shared upload engine (packages/api/src/upload), as the upload modal runs it, against the
// real server: its hand-built multipart bodies must land byte-identical files under any name.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await ok(server.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo('engine') });
});
afterAll(() => server.close());

const MiB = 1024 * 1024;

describe('upload engine against the server', () => {
  it('lands multi-chunk, empty and oddly named files byte-identical in one commit', async () => {
    const files = {
      'big/core.bin': randomBytes(45 * MiB + 3),
      'big/empty.bin': Buffer.alloc(0),
      'names/say "hi" 100%.txt': Buffer.from('quoted'),
      'names/漢字 かな.v': Buffer.from('module cjk; endmodule\n'),
      'names/semi;colon=equals.txt': Buffer.from('params'),
    };
    const items = Object.entries(files).map(([relative, bytes]) =>
      createUploadItem(new File([bytes], relative.split('/').pop()!), relative),
    );
    const progress: number[] = [];
    const run = await startUploads({
      items,
      repo: 'engine',
      path: '/in',
      projectId: 'default',
      baseUrl: server.url,
      getToken: () => null,
      onProgress: (snapshot) => progress.push(snapshot[0]!.progress),
    });
    expect(run.error).toBeNull();
    expect(run.items.map((item) => item.status)).toEqual(Object.keys(files).map(() => 'success'));
    // core.bin goes in three chunks (20 + 20 + 5 MiB): a third, two thirds, all.
    expect(progress).toEqual(expect.arrayContaining([33, 66, 100]));
    const bigSession = run.items[0]!.uploadId;
    const status = await sessionStatus({ baseUrl: server.url, getToken: () => null }, bigSession);
    expect(status?.files).toEqual([
      { fileName: 'core.bin', chunkTotal: 3, received: [0, 1, 2] },
      { fileName: 'empty.bin', chunkTotal: 1, received: [0] },
    ]);
    const failure = await finishUploads({
      uploadIds: run.items,
      baseUrl: server.url,
      getToken: () => null,
    });
    expect(failure).toBeNull();
    for (const [relative, bytes] of Object.entries(files)) {
      const landed = await getFile(server.url, 'engine', 'master', `/in/${relative}`);
      expect(landed.equals(bytes), relative).toBe(true);
    }
  });
});
