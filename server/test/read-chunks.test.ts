import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CHUNK_HEADROOM,
  readChunks,
  releaseChunk,
  withHeader,
} from '../src/platform/storage/read-chunks.ts';

// GetFile reads blobs with readChunks: buffers with room for a header in front, given back by the
// gRPC listener once sent. Reuse must never change bytes a consumer still holds unreleased.
describe('readChunks', () => {
  let dir: string;
  let file: string;
  const bytes = randomBytes(5 * 65536 + 123);
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ivory-read-chunks-'));
    file = path.join(dir, 'blob');
    await writeFile(file, bytes);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const all = { start: 0, end: bytes.length - 1 };

  it('yields the range in chunks of at most chunkBytes, byte for byte', async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of readChunks(file, { start: 1000, end: bytes.length - 7 }, 65536))
      chunks.push(chunk);
    // 5 × 65536 + 123 bytes, less 1000 in front and 6 at the end.
    expect(chunks.map((c) => c.length)).toEqual([65536, 65536, 65536, 65536, 65536 - 883]);
    expect(Buffer.concat(chunks).equals(bytes.subarray(1000, bytes.length - 6))).toBe(true);
  });

  it('never reuses a buffer that was not released: kept chunks keep their bytes', async () => {
    const kept: Buffer[] = [];
    for (let round = 0; round < 3; round++)
      for await (const chunk of readChunks(file, all, 65536)) kept.push(chunk);
    for (let round = 0; round < 3; round++) {
      const part = kept.slice(round * 6, round * 6 + 6);
      expect(Buffer.concat(part).equals(bytes)).toBe(true);
    }
    const buffers = new Set(kept.map((chunk) => chunk.buffer));
    expect(buffers.size).toBe(kept.length);
  });

  it('reuses released buffers, and the bytes read into them are the new ones', async () => {
    const first: ArrayBufferLike[] = [];
    for await (const chunk of readChunks(file, all, 65536)) {
      first.push(chunk.buffer);
      releaseChunk(chunk);
      releaseChunk(chunk); // twice is once
    }
    const copies: Buffer[] = [];
    const second: ArrayBufferLike[] = [];
    for await (const chunk of readChunks(file, all, 65536)) {
      second.push(chunk.buffer);
      copies.push(Buffer.from(chunk));
      releaseChunk(chunk);
    }
    expect(Buffer.concat(copies).equals(bytes)).toBe(true);
    expect(second.some((buffer) => first.includes(buffer))).toBe(true);
  });

  it('frames a chunk in place with withHeader, and only its own chunks', async () => {
    const header = Uint8Array.from([0x0a, 0x80, 0x80, 0x04]);
    for await (const chunk of readChunks(file, { start: 0, end: 99 }, 65536)) {
      const framed = withHeader(chunk, header)!;
      expect(framed.buffer).toBe(chunk.buffer);
      expect(framed.subarray(0, 4).equals(Buffer.from(header))).toBe(true);
      expect(framed.subarray(4).equals(bytes.subarray(0, 100))).toBe(true);
      expect(withHeader(chunk, new Uint8Array(CHUNK_HEADROOM + 1))).toBeNull();
      releaseChunk(framed);
      // Released: no longer framed in place (its buffer may hold the next read).
      expect(withHeader(chunk, header)).toBeNull();
    }
    expect(withHeader(Buffer.from(bytes.subarray(0, 10)), header)).toBeNull();
  });

  it('reads a small range into a buffer its size (when none was given back)', async () => {
    // A chunk size no other test uses: its pool holds no given-back buffer.
    for await (const chunk of readChunks(file, { start: 10, end: 109 }, 12345)) {
      expect(chunk.length).toBe(100);
      expect(chunk.buffer.byteLength).toBe(CHUNK_HEADROOM + 100);
      releaseChunk(chunk);
    }
  });

  it('closes the file when the consumer stops early', async () => {
    for await (const chunk of readChunks(file, all, 65536)) {
      expect(chunk.length).toBe(65536);
      break;
    }
    await rm(file);
    await expect(async () => {
      for await (const chunk of readChunks(file, all, 65536)) void chunk;
    }).rejects.toThrow(/ENOENT/);
  });
});
