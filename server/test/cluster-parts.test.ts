/**
 * Cluster-mode building blocks against small local HTTP servers: the pach token cache, the
 * ModifyFile body of uploads, the upstream client's error mapping and the guard's authn-token.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modifyFileBody } from '../src/proxy/cluster-upload.ts';
import { PachTokens } from '../src/proxy/pach-tokens.ts';
import { errorFromAnswer, Upstream, UpstreamUnavailable } from '../src/proxy/upstream.ts';

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

let handler: Handler = (_request, response) => response.end();
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

describe('PachTokens', () => {
  it('exchanges each id token once, shares concurrent exchanges, re-exchanges after expiry', async () => {
    let calls = 0;
    handler = (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        calls++;
        const { idToken } = JSON.parse(body) as { idToken: string };
        setTimeout(() => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ pachToken: `pach-${idToken}-${calls}` }));
        }, 20);
      });
    };
    let now = 1_000_000;
    const tokens = new PachTokens(new Upstream(base), () => now);
    const exp = now / 1000 + 60;
    const [a, b] = await Promise.all([tokens.tokenFor('id-1', exp), tokens.tokenFor('id-1', exp)]);
    expect(a).toBe('pach-id-1-1');
    expect(b).toBe(a);
    expect(await tokens.tokenFor('id-1', exp)).toBe(a);
    expect(calls).toBe(1);
    expect(await tokens.tokenFor('id-2', exp)).toBe('pach-id-2-2');
    now += 61_000;
    expect(await tokens.tokenFor('id-1', exp + 120)).toBe('pach-id-1-3');
    expect(tokens.exchanges).toBe(3);
    expect(tokens.size).toBe(1);
  });

  it('does not cache a refused exchange', async () => {
    let calls = 0;
    handler = (_request, response) => {
      calls++;
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 16, message: 'authentication error: bad', details: [] }));
    };
    const tokens = new PachTokens(new Upstream(base));
    const exp = Date.now() / 1000 + 60;
    await expect(tokens.tokenFor('bad', exp)).rejects.toMatchObject({ code: 16 });
    await expect(tokens.tokenFor('bad', exp)).rejects.toMatchObject({ code: 16 });
    expect(calls).toBe(2);
  });
});

describe('modifyFileBody', () => {
  it('splits files into addFile messages of at most maxBytes, after setCommit and deleteFile', async () => {
    const data = Buffer.from('abcdefghijklmnopqrstuvwxyz');
    const body = modifyFileBody(
      { id: 'c1' },
      [
        { path: '/a.txt', open: () => Readable.from([data.subarray(0, 7), data.subarray(7)]) },
        { path: '/empty', open: () => Readable.from([]) },
      ],
      10,
    );
    const text = Buffer.concat(await body.toArray()).toString();
    expect(text.endsWith('\n')).toBe(true);
    const messages = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(messages[0]).toEqual({ setCommit: { id: 'c1' } });
    expect(messages[1]).toEqual({ deleteFile: { path: '/a.txt' } });
    const parts = messages.slice(2, 5).map((message) => Buffer.from(message.addFile.raw, 'base64'));
    expect(parts.map((part) => part.length)).toEqual([10, 10, 6]);
    expect(Buffer.concat(parts).equals(data)).toBe(true);
    expect(messages[5]).toEqual({ deleteFile: { path: '/empty' } });
    expect(messages[6]).toEqual({ addFile: { path: '/empty', raw: '' } });
    expect(messages).toHaveLength(7);
  });
});

describe('Upstream', () => {
  it('maps refused connections and header timeouts to code 14 "upstream connect error"', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = new Upstream(`http://127.0.0.1:${port}`);
    const error = await refused.call('pfs_v2.API/ListRepo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect((error as UpstreamUnavailable).httpStatus).toBe(503);
    expect((error as UpstreamUnavailable).message).toMatch(
      /^upstream connect error or disconnect\/reset before headers: .*ECONNREFUSED/,
    );

    handler = () => undefined; // never answers
    const slow = new Upstream(base, { headersTimeoutMs: 100 });
    await expect(slow.call('pfs_v2.API/InspectRepo', {})).rejects.toThrow(
      /upstream connect error .*no response headers within 100 ms/,
    );
    slow.close();
  });

  it('turns load balancer answers into the error JSON the console understands', () => {
    expect(errorFromAnswer(503, 'no healthy upstream').toWire()).toEqual({
      code: 14,
      message: 'no healthy upstream',
      details: [],
    });
    expect(errorFromAnswer(502, '<html>Bad Gateway</html>').message).toMatch(
      /^upstream connect error/,
    );
    const unknown = errorFromAnswer(500, JSON.stringify({ code: 2, message: 'boom', details: [] }));
    expect(unknown.code).not.toBe(13);
    expect(unknown.message).toBe('boom');
    expect(
      errorFromAnswer(404, JSON.stringify({ code: 5, message: 'x not found' })).httpStatus,
    ).toBe(404);
  });
});
