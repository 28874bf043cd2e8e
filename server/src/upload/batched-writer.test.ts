import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchedWriter, batchBytes } from './batched-writer.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ivory-batched-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Splits `bytes` into pieces of uneven sizes, as a request body arrives. */
function pieces(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  const sizes = [1, 65_536, 7, 300_000, 0, 4096, 65_535];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

describe('BatchedWriter', () => {
  it('writes every piece in order from its start position, keeping the bytes before it', async () => {
    const target = path.join(dir, 'data');
    const head = Buffer.from('kept head bytes');
    await writeFile(target, head);
    const body = randomBytes(3 * batchBytes + 12_345);
    const handle = await open(target, 'r+');
    try {
      const writer = new BatchedWriter(handle, head.length);
      for (const piece of pieces(body)) await writer.write(piece);
      await writer.flush();
    } finally {
      await handle.close();
    }
    expect((await readFile(target)).equals(Buffer.concat([head, body]))).toBe(true);
  });

  it('reports a failed write at flush, and settle leaves no unhandled rejection', async () => {
    const target = path.join(dir, 'read-only');
    await writeFile(target, '');
    const handle = await open(target, 'r');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const writer = new BatchedWriter(handle, 0);
      await writer.write(Buffer.alloc(batchBytes));
      // The first batch is in flight and fails while more bytes arrive.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(writer.write(Buffer.alloc(batchBytes))).rejects.toMatchObject({
        code: 'EBADF',
      });
      await writer.settle();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await handle.close();
    }
  });
});
