import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, readdir, readFile, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { BlobHasher } from '../src/platform/storage/blob-hasher.ts';
import { BlobStore, BlobWriter } from '../src/platform/storage/blob-store.ts';

// BlobWriter lets its disk writes run behind `write` (positional writes in flight): the stored
// bytes and their address must still be exactly what was written, in order.
describe('BlobWriter', () => {
  let dir: string;
  let blobs: BlobStore;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ivory-blob-writer-'));
    blobs = new BlobStore(dir);
    await blobs.init();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('stores many chunks written without waiting, in order, under their sha256', async () => {
    // 40 MiB in chunks of varied size: more than the writer lets lag behind.
    const chunks = Array.from({ length: 40 }, (_, i) => randomBytes(1024 * 1024 - i * 997));
    const writer = await blobs.createWriter();
    const calls = chunks.map((chunk) => writer.write(chunk));
    await Promise.all(calls);
    const blob = await writer.finish();
    const all = Buffer.concat(chunks);
    expect(blob.sizeBytes).toBe(all.length);
    expect(blob.hash).toBe(createHash('sha256').update(all).digest('hex'));
    expect((await readFile(blobs.pathOf(blob.hash))).equals(all)).toBe(true);
    expect(await blobs.verify(blob.hash)).toBe(true);
  });

  it('abort with writes in flight leaves no temp file and no blob', async () => {
    const writer = await blobs.createWriter();
    for (let i = 0; i < 8; i++) void writer.write(randomBytes(4 * 1024 * 1024));
    await writer.abort();
    expect(await readdir(blobs.tempDir)).toEqual([]);
    expect(await blobs.count()).toBe(0);
  });

  it('a failed write fails the writer: finish rejects and stores nothing', async () => {
    const writer = await blobs.createWriter();
    await writer.write(randomBytes(1024));
    // Closing the file under the writer makes its next disk write fail (EBADF).
    await (writer as unknown as { handle: { close(): Promise<void> } }).handle.close();
    await writer.write(randomBytes(1024)).catch(() => undefined);
    await expect(writer.finish()).rejects.toThrow();
    await writer.abort();
    expect(await blobs.count()).toBe(0);
  });

  // A job whose outputs are all stored already skips its folder sync only when every rename into
  // the blob folders is synced: a landing counts until its work ends, a failed one for good.
  it('counts a landing as unsynced while it runs, and for good when it fails', async () => {
    expect(blobs.landingsSynced()).toBe(true);
    let finish: () => void = () => undefined;
    const running = blobs.landing(() => new Promise<void>((resolve) => (finish = resolve)));
    expect(blobs.landingsSynced()).toBe(false);
    finish();
    await running;
    expect(blobs.landingsSynced()).toBe(true);
    const writer = await blobs.createWriter();
    await writer.write(Buffer.from('landed through adopt\n'));
    await writer.finish();
    expect(blobs.landingsSynced()).toBe(true);
    await expect(blobs.landing(() => Promise.reject(new Error('no sync')))).rejects.toThrow();
    expect(blobs.landingsSynced()).toBe(false);
  });

  // ModifyFile's writers hash and write on the hasher thread, the chunks handed over.
  describe('off the event loop (offThread)', () => {
    it('stores chunks written without waiting, in order, under their sha256', async () => {
      const chunks = Array.from({ length: 40 }, (_, i) => randomBytes(1024 * 1024 - i * 997));
      const all = Buffer.concat(chunks);
      const writer = await blobs.createWriter({ offThread: true });
      await Promise.all(chunks.map((chunk) => writer.write(chunk)));
      const blob = await writer.finish();
      expect(blob.sizeBytes).toBe(all.length);
      expect(blob.hash).toBe(createHash('sha256').update(all).digest('hex'));
      expect((await readFile(blobs.pathOf(blob.hash))).equals(all)).toBe(true);
    });

    it('takes over a whole buffer (detached here) and copies a view into a larger one', async () => {
      const owned = randomBytes(256 * 1024);
      const expected = Buffer.from(owned);
      const big = randomBytes(64 * 1024);
      const view = big.subarray(1000, 2000);
      const writer = await blobs.createWriter({ offThread: true });
      await writer.write(owned);
      await writer.write(view);
      const blob = await writer.finish();
      const all = Buffer.concat([expected, big.subarray(1000, 2000)]);
      expect(blob.hash).toBe(createHash('sha256').update(all).digest('hex'));
      expect(owned.buffer.byteLength).toBe(0);
      expect(big.length).toBe(64 * 1024);
      // Small Buffers share Node's pool: never transferred, whatever their size in it.
      const pooled = Buffer.from('pooled bytes');
      const second = await blobs.createWriter({ offThread: true });
      await second.write(pooled);
      await second.finish();
      expect(pooled.toString()).toBe('pooled bytes');
    });

    it('abort with writes in flight leaves no temp file and no blob', async () => {
      const writer = await blobs.createWriter({ offThread: true });
      for (let i = 0; i < 8; i++) void writer.write(randomBytes(4 * 1024 * 1024));
      await writer.abort();
      expect(await readdir(blobs.tempDir)).toEqual([]);
      expect(await blobs.count()).toBe(0);
    });

    it('a failed write fails the writer: finish rejects and stores nothing', async () => {
      // A descriptor no file has: the thread's writes fail (EBADF). (Closing a writer's real file
      // under it would let the number be reused by another file while the thread writes.)
      const tempPath = blobs.tempPath();
      const handle = { fd: 1 << 20, close: async () => undefined, sync: async () => undefined };
      const writer = new BlobWriter(
        blobs,
        handle as unknown as FileHandle,
        tempPath,
        new BlobHasher(),
      );
      await writer.write(randomBytes(1024)).catch(() => undefined);
      await expect(writer.finish()).rejects.toThrow(/EBADF/);
      await writer.abort();
      expect(await blobs.count()).toBe(0);
    });

    it('a hasher thread that dies fails its writers', async () => {
      const hasher = new BlobHasher();
      const tempPath = blobs.tempPath();
      const handle = await open(tempPath, 'wx');
      const writer = new BlobWriter(blobs, handle, tempPath, hasher);
      await writer.write(randomBytes(1024));
      await (hasher as unknown as { worker: Worker }).worker.terminate();
      await expect(writer.finish()).rejects.toThrow(/hasher/);
      await writer.abort();
      expect(await blobs.count()).toBe(0);
    });
  });
});
