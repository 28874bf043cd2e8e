import { createHash, randomBytes } from 'node:crypto';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { pfs_v2 } from '@ivory/api/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callStream, commitFiles, commitId, ok, repo, results } from './helpers/api-client.ts';
import { grpcClient, grpcFailure } from './helpers/grpc-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

// Verified bytes: every read of a blob hashes it as it goes and holds its last chunk back until
// the hash checks out. A blob changed on disk (one byte flipped) or cut short is never served as
// good — /files, an archive, GetFile over HTTP and gRPC all end with an error, never a clean end
// and never a stall — and the damage is logged (BlobStore.onCorrupt) and reported by Fsck.

let server: TestServer;
let url: string;
let grpcAddress: string;
const damaged: string[] = [];

// Large enough for several chunks of every reader (64 KiB streams, 1 MiB GetFile messages).
const flipped = randomBytes(3 * 1024 * 1024 + 123);
const cut = randomBytes(2 * 1024 * 1024);
const good = Buffer.from('intact\n');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const blobPath = (bytes: Buffer) => server.server.platform.blobs.pathOf(sha256(bytes));
let id = '';

beforeAll(async () => {
  server = await startTestServer({ grpc: { port: 0, optional: false } });
  url = server.url;
  grpcAddress = `127.0.0.1:${server.server.grpc!.port}`;
  const blobs = server.server.platform.blobs;
  const log = blobs.onCorrupt;
  blobs.onCorrupt = (hash, detail) => {
    damaged.push(hash);
    log(hash, detail);
  };
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('v') });
  id = await commitFiles(url, 'v', {
    '/d/flipped.bin': flipped,
    '/d/cut.bin': cut,
    '/ok.txt': good,
  });
  // One byte flipped in the middle; the other file cut to half its length.
  const path = blobPath(flipped);
  const bytes = await readFile(path);
  const middle = bytes.length >> 1;
  bytes.writeUInt8(bytes.readUInt8(middle) ^ 0x01, middle);
  await writeFile(path, bytes);
  await truncate(blobPath(cut), cut.length >> 1);
}, 60_000);

afterAll(() => server?.close());

/**
 * Reads an HTTP answer's body to its end: what it was, or how it failed. A stall would end in
 * the abort (its own error name): asserted never to happen.
 */
async function readBody(path: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const guard = setTimeout(() => abort.abort(new Error('stalled')), 20_000);
  try {
    const response = await fetch(`${url}${path}`, { headers, signal: abort.signal });
    try {
      const body = Buffer.from(await response.arrayBuffer());
      return { status: response.status, body, error: null as Error | null };
    } catch (error) {
      return { status: response.status, body: null, error: error as Error };
    }
  } finally {
    clearTimeout(guard);
  }
}

describe('a damaged blob', () => {
  it('ends a /files download with an error, not the wrong bytes or a clean end', async () => {
    for (const name of ['flipped.bin', 'cut.bin']) {
      const answer = await readBody(`/files/default/v/${id}/d/${name}`);
      // The answer started (200, its full Content-Length) and then broke off.
      expect(answer.status).toBe(200);
      expect(answer.body).toBeNull();
      expect(answer.error).not.toBeNull();
      expect(String(answer.error?.cause ?? answer.error)).not.toMatch(/stalled/);
    }
    // A range of the first bytes is checked against the whole blob too: refused before its
    // first byte (so answered as an error, code 15).
    const range = await readBody(`/files/default/v/${id}/d/flipped.bin`, { range: 'bytes=0-9' });
    expect(range.status).toBe(500);
    expect(JSON.parse(range.body!.toString()).code).toBe(15);
    // An intact file is served as ever.
    const intact = await readBody(`/files/default/v/${id}/ok.txt`);
    expect(intact.body?.toString()).toBe(good.toString());
  });

  it('ends an archive holding it with an error', async () => {
    const answer = await readBody(`/files/default/v/${id}/d`);
    expect(answer.body).toBeNull();
    expect(answer.error).not.toBeNull();
  });

  it('ends GetFile over HTTP with an error line (code 15), never a clean end', async () => {
    for (const name of ['flipped.bin', 'cut.bin']) {
      const stream = await callStream(url, 'pfs_v2.API/GetFile', {
        file: { commit: commitId('v', id), path: `/d/${name}` },
      });
      // An error line after the bytes that went out, or (damage found before the first
      // message: cut.bin's one chunk) an error answer.
      const last = stream.status === 200 ? stream.lines.at(-1).error : stream.lines[0];
      expect(last?.code).toBe(15);
      expect(last.message).toMatch(/damaged/);
      const served = Buffer.concat(
        stream.lines
          .filter((line) => line.result)
          .map((line) => Buffer.from(line.result, 'base64')),
      );
      expect(served.length).toBeLessThan(name === 'cut.bin' ? cut.length : flipped.length);
    }
    const offset = await callStream(url, 'pfs_v2.API/GetFile', {
      file: { commit: commitId('v', id), path: '/d/flipped.bin' },
      offset: String(flipped.length - 5),
    });
    expect((offset.status === 200 ? offset.lines.at(-1).error : offset.lines[0])?.code).toBe(15);
    expect(offset.lines.some((line) => line.result)).toBe(false);
  });

  it('fails GetFile and GetFileTAR over gRPC with DATA_LOSS (15)', async () => {
    const client = grpcClient(grpcAddress);
    const file = {
      commit: { repo: { name: 'v', project: { name: 'default' } }, id },
      path: '/d/cut.bin',
    };
    const failure = await grpcFailure(client.serverStream(pfs_v2.API.method.getFile, { file }));
    const tar = await grpcFailure(
      client.serverStream(pfs_v2.API.method.getFileTAR, { file: { ...file, path: '/d' } }),
    );
    client.close();
    expect(failure.code).toBe(15);
    expect(tar.code).toBe(15);
  });

  it('is logged, and reported by Fsck', async () => {
    expect(new Set(damaged)).toEqual(new Set([sha256(flipped), sha256(cut)]));
    const lines = await results(url, 'pfs_v2.API/Fsck', {});
    const errors = lines.map((line) => line.error as string);
    expect(errors.some((e) => e.includes(sha256(flipped)) && e.includes('corrupt'))).toBe(true);
    expect(errors.some((e) => e.includes(sha256(cut)) && e.includes('corrupt'))).toBe(true);
  });
});
