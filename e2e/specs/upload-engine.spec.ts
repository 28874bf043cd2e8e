import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import {
  createApiClient,
  createProject,
  createRepo,
  createUploadItem,
  finishUploads,
  getFileBytes,
  sessionStatus,
  startUploads,
  type ApiClient,
} from '@ivory/api';
import {
  startServerProcess,
  type ServerProcess,
} from '../../server/test/helpers/server-process.ts';

// The shared upload engine (packages/api/src/upload) in Node, as the upload modal runs it, against
// this spec's own server: its hand-built multipart bodies (multipart.ts) must land byte-identical
// files under any name. No browser: the modal's run in Chromium is eda-upload.spec.ts.
const MiB = 1024 * 1024;
let server: ServerProcess;
let client: ApiClient;

test.beforeAll(async () => {
  server = await startServerProcess();
  client = createApiClient({ baseUrl: server.url, getToken: () => null });
  await createProject(client, { project: 'eda' });
  await createRepo(client, { project: 'eda', repo: 'engine' });
});

test.afterAll(async () => {
  await server?.kill();
  if (server) await rm(server.dataDir, { recursive: true, force: true });
});

test('the engine lands multi-chunk, empty and oddly named files byte-identical', async () => {
  test.setTimeout(120_000);
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
  const transport = { baseUrl: server.url, getToken: () => null };
  const progress: number[] = [];
  const run = await startUploads({
    ...transport,
    items,
    repo: 'engine',
    path: '/in',
    onProgress: (snapshot) => progress.push(snapshot[0]!.progress),
  });
  expect(run.error).toBeNull();
  expect(run.items.map((item) => item.status)).toEqual(Object.keys(files).map(() => 'success'));
  // core.bin goes in three chunks (20 + 20 + 5 MiB): a third, two thirds, all.
  expect(progress).toEqual(expect.arrayContaining([33, 66, 100]));
  const status = await sessionStatus(transport, run.items[0]!.uploadId);
  expect(status?.files).toEqual([
    { fileName: 'core.bin', chunkTotal: 3, received: [0, 1, 2] },
    { fileName: 'empty.bin', chunkTotal: 1, received: [0] },
  ]);
  expect(await finishUploads({ ...transport, uploadIds: run.items })).toBeNull();
  for (const [relative, bytes] of Object.entries(files)) {
    const landed = await getFileBytes(client, {
      project: 'eda',
      repo: 'engine',
      commitId: '',
      branch: 'master',
      path: `/in/${relative}`,
    });
    expect(Buffer.from(landed).equals(bytes), relative).toBe(true);
  }
});
