import { createHash, randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, getFile, modifyFile, ok, repo, results } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

/** Bytes under a folder (files only), as `du` would count them. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await folderBytes(full);
    else if (entry.isFile()) total += (await stat(full)).size;
  }
  return total;
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not done within ${timeoutMs} ms`);
}

const MiB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** Whether a blob's file exists, by stat: BlobStore.has would count as a use and keep it. */
const stored = (hash: string) =>
  stat(server.server.platform.blobs.pathOf(hash)).then(
    () => true,
    () => false,
  );
/** Fsck's unreferenced-blob lines (the previous test leaves a missing blob on purpose). */
const unreferencedLines = (lines: { error: string }[]) =>
  lines.filter((line) => line.error.includes('unreferenced'));
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await ok(server.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
});
afterAll(() => server.close());

describe('blob reclaim', () => {
  it('frees at least 60 MiB of the data dir after deleting a 64 MiB repo', async () => {
    const url = server.url;
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('big') });
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('kept') });
    const keptBytes = randomBytes(MiB);
    await commitFiles(url, 'kept', { '/k.bin': keptBytes });
    for (let i = 0; i < 4; i++)
      await commitFiles(url, 'big', { [`/p${i}.bin`]: randomBytes(16 * MiB) });
    const before = await folderBytes(server.dataDir);
    await ok(url, 'pfs_v2.API/DeleteRepo', { repo: repo('big') });
    // A wait, not a speed bound: the sweep runs once the blobs' 5 s in-use window has passed.
    const tookMs = await until(
      async () => before - (await folderBytes(server.dataDir)) >= 60 * MiB,
      45_000,
    );
    console.log(
      `DeleteRepo of 64 MiB: ${(before - (await folderBytes(server.dataDir))) / MiB} MiB freed in ${tookMs} ms`,
    );
    // Whatever is still referenced stays readable.
    expect((await getFile(url, 'kept', 'master', '/k.bin')).equals(keptBytes)).toBe(true);
  }, 60_000);

  it('keeps blobs an open commit references and frees a dropped commit set', async () => {
    const url = server.url;
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('drops') });
    await commitFiles(url, 'drops', { '/base.txt': 'base' });
    const open = await ok(url, 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('drops'), name: 'master' },
    });
    const inOpen = randomBytes(2 * MiB);
    const written = await modifyFile(url, [
      { setCommit: open },
      { addFile: { path: '/open.bin', raw: inOpen.toString('base64') } },
    ]);
    expect(written.status).toBe(200);
    await server.server.platform.reclaimer.sweep();
    expect((await getFile(url, 'drops', open.id, '/open.bin')).equals(inOpen)).toBe(true);
    await ok(url, 'pfs_v2.API/FinishCommit', { commit: open });
    const hash = createHash('sha256').update(inOpen).digest('hex');
    const { blobs } = server.server.platform;
    // Polled with stat: BlobStore.has would count as a use and keep the blob.
    const stored = () =>
      stat(blobs.pathOf(hash)).then(
        () => true,
        () => false,
      );
    expect(await stored()).toBe(true);
    await ok(url, 'pfs_v2.API/DropCommitSet', { commitSet: { id: open.id } });
    await until(async () => !(await stored()), 20_000);
    expect((await getFile(url, 'drops', 'master', '/base.txt')).toString()).toBe('base');
  }, 60_000);

  it('Fsck reports unreferenced and missing blobs; fix removes the unreferenced', async () => {
    const url = server.url;
    const { blobs, reclaimer } = server.server.platform;
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('checked') });
    const lost = randomBytes(500);
    await commitFiles(url, 'checked', { '/lost.bin': lost });
    await rm(blobs.pathOf(sha256(lost)));
    // A stray blob (as bytes put in the folder by hand could leave) once no sweep is due: a due
    // sweep would delete it as the reclaimer's ordinary work (next test).
    await until(async () => !reclaimer.due, 20_000);
    const stray = await blobs.writeBytes(randomBytes(1000));
    // Written this instant, the stray may be a write in flight: not a problem yet.
    const early = await results(url, 'pfs_v2.API/Fsck', {});
    expect(early.map((line: { error: string }) => line.error).join('\n')).not.toContain(stray.hash);
    // A check without fix changes nothing and schedules nothing.
    expect(reclaimer.due).toBe(false);
    // Protected for a few seconds: wait that out.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const report = await results(url, 'pfs_v2.API/Fsck', {});
    const errors = report.map((line: { error: string }) => line.error);
    expect(errors).toContainEqual(
      expect.stringMatching(new RegExp(`blob ${stray.hash}: unreferenced`)),
    );
    expect(errors).toContainEqual(
      expect.stringMatching(/file \/lost\.bin: blob [0-9a-f]{64} missing/),
    );
    expect(await stored(stray.hash)).toBe(true);
    const fixed = await results(url, 'pfs_v2.API/Fsck', { fix: true });
    expect(fixed).toContainEqual({
      fix: `removed unreferenced blob ${stray.hash} (1000 bytes)`,
      error: '',
    });
    expect(await stored(stray.hash)).toBe(false);
  }, 60_000);

  it('Fsck does not report the blob of a just-dropped commit while its sweep is due', async () => {
    const url = server.url;
    const { reclaimer } = server.server.platform;
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('dropped') });
    await commitFiles(url, 'dropped', { '/a.txt': 'kept' });
    const bytes = randomBytes(700);
    const id = await commitFiles(url, 'dropped', { '/d.txt': bytes });
    // The blob is no longer "recent" (a write in flight) when the commit is dropped: only the
    // sweep the drop scheduled stands between it and the check.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    await ok(url, 'pfs_v2.API/DropCommit', { commit: { repo: repo('dropped'), id } });
    expect(unreferencedLines(await results(url, 'pfs_v2.API/Fsck', {}))).toEqual([]);
    // The due sweep deletes it; then the store is clean and nothing is due.
    await until(async () => !(await stored(sha256(bytes))), 20_000);
    await until(async () => !reclaimer.due, 20_000);
    expect(unreferencedLines(await results(url, 'pfs_v2.API/Fsck', {}))).toEqual([]);
  }, 60_000);
});
