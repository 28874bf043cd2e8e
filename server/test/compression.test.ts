import { request as httpRequest, type IncomingMessage } from 'node:http';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  brotliCompressSync,
  brotliDecompressSync,
  createGunzip,
  gunzipSync,
  gzipSync,
} from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, commitOn, ok, repo } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

let server: TestServer;
const appJs = 'console.log("the app");\n'.repeat(200);

beforeAll(async () => {
  const webDist = await mkdtemp(path.join(tmpdir(), 'ivory-web-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Ivory</title>');
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'assets', 'app.js'), appJs);
  await writeFile(path.join(webDist, 'assets', 'app.js.br'), brotliCompressSync(appJs));
  await writeFile(path.join(webDist, 'assets', 'app.js.gz'), gzipSync(appJs));
  server = await startTestServer({ webDist });
  await ok(server.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  for (let i = 0; i < 40; i++)
    await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo(`compressed-${i}`) });
});
afterAll(() => server.close());

/** A raw request (fetch would decompress out of sight), answered with its headers and body. */
function send(
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${urlPath}`, { method, headers }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

async function bytesOf(response: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const json = { 'content-type': 'application/json' };

describe('compression', () => {
  it('sends a large JSON answer brotli-compressed when the client accepts it', async () => {
    const response = await send(
      'POST',
      '/api/pfs_v2.API/ListRepo',
      { ...json, 'accept-encoding': 'br, gzip' },
      '{}',
    );
    expect(response.headers['content-encoding']).toBe('br');
    const body = await bytesOf(response);
    const lines = brotliDecompressSync(body).toString().trim().split('\n');
    expect(lines).toHaveLength(40);
    expect(body.length).toBeLessThan(Buffer.byteLength(lines.join('\n')) / 3);
  });

  it('sends the same answer as it is to a client that accepts no encoding', async () => {
    const response = await send('POST', '/api/pfs_v2.API/ListRepo', json, '{}');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect((await bytesOf(response)).toString().trim().split('\n')).toHaveLength(40);
  });

  it('leaves small answers uncompressed', async () => {
    const response = await send(
      'POST',
      '/api/versionpb_v2.API/GetVersion',
      { ...json, 'accept-encoding': 'gzip' },
      '{}',
    );
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse((await bytesOf(response)).toString())).toHaveProperty('major');
  });

  it('sends the bytes of a file (GetFile) uncompressed, whatever the client accepts', async () => {
    const text = 'the same line again and again\n'.repeat(2000);
    await commitFiles(server.url, 'compressed-1', { '/big.txt': text });
    const response = await send(
      'POST',
      '/api/pfs_v2.API/GetFile',
      { ...json, 'accept-encoding': 'br, gzip' },
      JSON.stringify({
        file: {
          commit: { branch: { repo: repo('compressed-1'), name: 'master' } },
          path: '/big.txt',
        },
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    const lines = (await bytesOf(response)).toString().trim().split('\n');
    const bytes = Buffer.concat(
      lines.map((line) => Buffer.from(JSON.parse(line).result as string, 'base64')),
    );
    expect(bytes.toString()).toBe(text);
  });

  it('flushes a compressed server stream line by line while it is still open', async () => {
    await commitFiles(server.url, 'compressed-0', { '/a.txt': 'a' });
    const response = await send(
      'POST',
      '/api/pfs_v2.API/SubscribeCommit',
      { ...json, 'accept-encoding': 'gzip' },
      JSON.stringify({ repo: repo('compressed-0'), branch: 'master' }),
    );
    expect(response.headers['content-encoding']).toBe('gzip');
    // SubscribeCommit never ends by itself: the first line must arrive without it.
    const firstLine = await new Promise<string>((resolve, reject) => {
      let text = '';
      const gunzip = response.pipe(createGunzip());
      gunzip.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) resolve(text.split('\n')[0]!);
      });
      gunzip.on('error', reject);
      setTimeout(() => reject(new Error('no line within 5 s')), 5000).unref();
    });
    response.destroy();
    expect(JSON.parse(firstLine).result.commit.repo.name).toBe('compressed-0');
  });

  it('sends a listing of several write batches as the same lines in every encoding', async () => {
    // About 1.2 MiB of lines (several of the stream writer's 256 KiB writes), with paths of
    // two-byte characters, so that batches and pieces end in the middle of multi-byte text.
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) files[`/dir-${i % 7}/ünï-${i}-${'é'.repeat(60)}.txt`] = 'x';
    await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo('many-lines') });
    await commitFiles(server.url, 'many-lines', files);
    const glob = JSON.stringify({ commit: commitOn('many-lines'), pattern: '/**' });
    const answer = (acceptEncoding: string) =>
      send(
        'POST',
        '/api/pfs_v2.API/GlobFile',
        { ...json, 'accept-encoding': acceptEncoding },
        glob,
      );

    const plain = await answer('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const text = (await bytesOf(plain)).toString();
    expect(Buffer.byteLength(text)).toBeGreaterThan(1024 * 1024);
    const paths = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).result.file.path as string);
    expect(paths).toHaveLength(2007);
    expect(paths).toContain(`/dir-4/ünï-1999-${'é'.repeat(60)}.txt`);

    const gzipped = await answer('gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['vary']).toMatch(/accept-encoding/i);
    const gzipBytes = await bytesOf(gzipped);
    expect(gunzipSync(gzipBytes).toString()).toBe(text);
    expect(gzipBytes.length).toBeLessThan(Buffer.byteLength(text) / 10);

    const brotli = await answer('gzip, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(await bytesOf(brotli)).toString()).toBe(text);
  });

  it('serves a built asset precompressed by content negotiation', async () => {
    const br = await send('GET', '/assets/app.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(await bytesOf(br)).toString()).toBe(appJs);
    const plain = await send('GET', '/assets/app.js', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((await bytesOf(plain)).toString()).toBe(appJs);
  });
});
