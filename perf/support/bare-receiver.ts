/**
 * The upload benchmark's baseline: a bare `node:http` receiver doing the least an upload server
 * must — for each raw 20 MiB chunk body (POST /chunk?name=&index=&total=), extend the file's
 * running sha256 and write the bytes at their place; after a file's last chunk, fsync it (the
 * same durability Ivory's finish gives). No multipart, no database, no sessions, no checks.
 * GET / serves an empty page with a folder input, so a browser can post the same chunks.
 *
 * Run as its own process (startBareReceiver), like the Ivory server it is compared with.
 */
import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { startChildReceiver } from './child-receiver.ts';

export interface BareReceiver {
  url: string;
  pid: number;
  /** sha256 of every file whose last chunk arrived, by name. */
  hashes(): Promise<Record<string, string>>;
  /** Removes the received files (between rounds). */
  clear(): Promise<void>;
  kill(): Promise<void>;
}

const PAGE = '<!doctype html><title>bare</title><input type="file" multiple webkitdirectory>';

function serve(dir: string): void {
  const files = new Map<string, { hasher: Hash; position: number }>();
  const done = new Map<string, string>();
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://bare');
      if (request.method === 'GET' && url.pathname === '/') {
        response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
        return;
      }
      if (request.method === 'GET' && url.pathname === '/hashes') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(Object.fromEntries(done)));
        return;
      }
      if (request.method === 'POST' && url.pathname === '/clear') {
        files.clear();
        done.clear();
        await rm(dir, { recursive: true, force: true });
        await mkdir(dir, { recursive: true });
        response.writeHead(200).end('{}');
        return;
      }
      const name = url.searchParams.get('name') ?? '';
      const index = Number(url.searchParams.get('index'));
      const total = Number(url.searchParams.get('total'));
      const target = path.join(dir, createHash('sha256').update(name).digest('hex'));
      let state = files.get(name);
      if (index === 0 || !state)
        files.set(name, (state = { hasher: createHash('sha256'), position: 0 }));
      const out = createWriteStream(target, {
        flags: index === 0 ? 'w' : 'r+',
        start: state.position,
        highWaterMark: 4 * 1024 * 1024,
      });
      for await (const bytes of request) {
        state.hasher.update(bytes as Buffer);
        state.position += (bytes as Buffer).length;
        if (!out.write(bytes)) await once(out, 'drain');
      }
      out.end();
      await finished(out);
      if (index === total - 1) {
        const handle = await open(target, 'r');
        await handle.sync();
        await handle.close();
        done.set(name, state.hasher.digest('hex'));
        files.delete(name);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') console.log(`listening ${address.port}`);
  });
}

/** Starts the receiver in a child process writing under `dir`. */
export async function startBareReceiver(dir: string): Promise<BareReceiver> {
  const child = await startChildReceiver(import.meta.filename, [dir], 'the bare receiver');
  const url = `http://127.0.0.1:${child.port}`;
  return {
    url,
    pid: child.pid,
    hashes: async () => (await (await fetch(`${url}/hashes`)).json()) as Record<string, string>,
    clear: async () => {
      await fetch(`${url}/clear`, { method: 'POST' });
    },
    kill: child.kill,
  };
}

if (process.argv[1] === import.meta.filename) {
  const dir = process.argv[2]!;
  await mkdir(dir, { recursive: true });
  serve(dir);
}
