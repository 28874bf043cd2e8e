import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createGunzip } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { notFound } from '../errors.ts';
import { registerErrorHandler } from './errors.ts';
import { Writable } from 'node:stream';
import { drained, sendStream } from './stream-writer.ts';

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

/** A real listener whose one route sends `source()` through sendStream. */
async function serve(source: () => AsyncIterable<unknown>): Promise<string> {
  app = Fastify();
  registerErrorHandler(app);
  app.post('/stream', async (request, reply) =>
    sendStream(request, reply, source(), new AbortController().signal),
  );
  return app.listen({ port: 0, host: '127.0.0.1' });
}

function post(url: string, acceptEncoding: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}/stream`,
      { method: 'POST', headers: { 'accept-encoding': acceptEncoding } },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

async function textOf(response: IncomingMessage): Promise<string> {
  const body =
    response.headers['content-encoding'] === 'gzip' ? response.pipe(createGunzip()) : response;
  let text = '';
  for await (const chunk of body) text += (chunk as Buffer).toString();
  return text;
}

describe('sendStream', () => {
  it('ends with an error line when the stream fails after its first message', async () => {
    const url = await serve(async function* () {
      yield { n: 1 };
      yield { n: 2 };
      throw notFound('gone meanwhile');
    });
    for (const encoding of ['identity', 'gzip']) {
      const response = await post(url, encoding);
      expect(response.statusCode).toBe(200);
      const lines = (await textOf(response))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.slice(0, 2)).toEqual([{ result: { n: 1 } }, { result: { n: 2 } }]);
      expect(lines[2].error.message).toContain('gone meanwhile');
      expect(lines).toHaveLength(3);
    }
  });

  it('answers an ordinary error when the stream fails before its first message', async () => {
    const url = await serve(async function* () {
      await Promise.reject(notFound('nothing here'));
      yield 'never';
    });
    const response = await post(url, 'gzip');
    expect(response.statusCode).toBe(404);
  });

  it('sends a line the stream yields and then waits on without waiting for more (gzip)', async () => {
    let release: () => void = () => {};
    const url = await serve(async function* () {
      yield { first: true };
      await new Promise<void>((resolve) => (release = resolve));
      yield { second: true };
    });
    const response = await post(url, 'gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    const gunzip = response.pipe(createGunzip());
    let text = '';
    const ended = new Promise((resolve) => gunzip.on('end', resolve));
    await new Promise<void>((resolve, reject) => {
      gunzip.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) resolve();
      });
      gunzip.on('error', reject);
    });
    // The first line came while the stream was still waiting for its second message.
    expect(text).toBe('{"result":{"first":true}}\n');
    release();
    await ended;
    expect(text).toBe('{"result":{"first":true}}\n{"result":{"second":true}}\n');
  });

  it('does not wait for a drain once the request or the stream is gone', async () => {
    const full = () => {
      // A stream whose one write never completes: it stays full.
      const stream = new Writable({ highWaterMark: 4, write: () => undefined });
      expect(stream.write('more than four bytes')).toBe(false);
      return stream;
    };
    const settled = (promise: Promise<void>) =>
      Promise.race([promise.then(() => true), new Promise((r) => setTimeout(() => r(false), 50))]);
    // Waiting: neither drained, nor closed, nor aborted.
    expect(await settled(drained(full(), new AbortController().signal))).toBe(false);
    // Aborted before the wait began: no 'abort' event is coming.
    const aborted = new AbortController();
    aborted.abort();
    expect(await settled(drained(full(), aborted.signal))).toBe(true);
    // Destroyed before the wait began: no 'close' event is coming.
    const destroyed = full();
    destroyed.destroy();
    await new Promise((r) => setImmediate(r));
    expect(await settled(drained(destroyed, new AbortController().signal))).toBe(true);
  });
});
