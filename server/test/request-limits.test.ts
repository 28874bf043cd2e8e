import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  callStream,
  commitFiles,
  commitId,
  ok,
  repo,
  type Json,
} from './helpers/api-client.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess();
  await ok(server.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo('limits') });
  await commitFiles(server.url, 'limits', { '/a.txt': 'hello' });
}, 60_000);
afterAll(() => server.kill('SIGKILL'));

interface Answer {
  status: number;
  body: Json;
}

/** A raw HTTP request (bodies fetch would refuse to send, such as a broken multipart). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | string | null,
): Promise<Answer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null });
        });
      },
    );
    // The server may answer and close before the whole body is sent: that answer counts.
    req.on('error', (error) => setTimeout(() => reject(error), 2000));
    req.end(body ?? undefined);
  });
}

async function startUpload(): Promise<string> {
  const answer = await raw(
    'POST',
    '/upload/start',
    { 'content-type': 'application/json' },
    JSON.stringify({ path: '/up', repo: 'limits' }),
  );
  return answer.body.uploadId as string;
}

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Each kind of bad input, with what its error message must mention. */
const cases: Array<[string, () => Promise<Answer>, RegExp]> = [
  [
    'JSON nested 10,000 deep',
    () => call(server.url, 'pfs_v2.API/InspectRepo', `{"repo":${nested(10_000)}}`),
    /nested deeper than \d+/,
  ],
  [
    'ModifyFile message nested 10,000 deep',
    () =>
      raw(
        'POST',
        '/api/pfs_v2.API/ModifyFile',
        { 'content-type': 'application/json' },
        `{"setCommit":${nested(10_000)}}\n`,
      ),
    /nested deeper than \d+/,
  ],
  [
    'JSON body over the size limit',
    () =>
      raw(
        'POST',
        '/api/pfs_v2.API/InspectRepo',
        // Declared up front: the server answers before reading the body.
        { 'content-type': 'application/json', 'content-length': String(33 * 1024 * 1024) },
        '{"repo":{"name":"',
      ),
    /limit/,
  ],
  [
    'GetFile with a negative offset',
    () =>
      callStream(server.url, 'pfs_v2.API/GetFile', {
        file: { commit: commitId('limits', 'master'), path: '/a.txt' },
        offset: -5,
      }).then((r) => ({ status: r.status, body: r.lines[0] })),
    /offset must not be negative/,
  ],
  [
    'GlobFile with an inverted character range',
    () =>
      call(server.url, 'pfs_v2.API/GlobFile', {
        commit: commitId('limits', 'master'),
        pattern: '/[z-a]',
      }),
    /invalid character class range/,
  ],
  [
    'GlobFile with an inverted path range',
    () =>
      call(server.url, 'pfs_v2.API/GlobFile', {
        commit: commitId('limits', 'master'),
        pattern: '/*',
        pathRange: { lower: '/z', upper: '/a' },
      }),
    /pathRange/,
  ],
  [
    'a repeated query parameter',
    () => raw('GET', '/upload/status?uploadId=a&uploadId=b', {}, null),
    /uploadId.*repeated/,
  ],
  [
    'a truncated multipart body',
    async () => {
      const uploadId = await startUpload();
      const boundary = 'XyZ';
      const body =
        `--${boundary}\r\ncontent-disposition: form-data; name="uploadId"\r\n\r\n${uploadId}\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="fileName"\r\n\r\nf.bin\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="chunkTotal"\r\n\r\n1\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="currentChunk"\r\n\r\n0\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="blob"\r\n\r\nabc`;
      return raw(
        'POST',
        '/upload',
        { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      );
    },
    /multipart/i,
  ],
  [
    'a multipart body with the wrong boundary',
    () =>
      raw(
        'POST',
        '/upload',
        { 'content-type': 'multipart/form-data; boundary=expected' },
        '--other\r\ncontent-disposition: form-data; name="x"\r\n\r\n1\r\n--other--\r\n',
      ),
    /multipart|file part/i,
  ],
  [
    'a multipart request without a boundary',
    () => raw('POST', '/upload', { 'content-type': 'multipart/form-data' }, 'junk'),
    /multipart|boundary/i,
  ],
];

describe('bad input gets a clear 4xx and the server lives on', () => {
  it.each(cases)('%s', async (_name, send, message) => {
    const answer = await send();
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect([3, 8]).toContain(answer.body.code);
    expect(answer.body.message).toMatch(message);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('refuses a ModifyFile line over 64 MiB and lands nothing', async () => {
    const before = await ok(server.url, 'pfs_v2.API/InspectCommit', {
      commit: commitId('limits', 'master'),
    });
    const head = JSON.stringify({
      setCommit: { branch: { repo: repo('limits'), name: 'master' } },
    });
    const piece = Buffer.alloc(1024 * 1024, 'A');
    const url = new URL(server.url);
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/api/pfs_v2.API/ModifyFile',
          headers: { 'content-type': 'application/json' },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString()),
            }),
          );
        },
      );
      req.on('error', (error) => setTimeout(() => reject(error), 2000));
      req.write(head + '\n{"addFile":{"path":"/big","raw":"');
      let sent = 0;
      const more = () => {
        while (sent < 66) {
          sent++;
          if (!req.write(piece)) return void req.once('drain', more);
        }
        req.end('"}}\n');
      };
      more();
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(3);
    expect(answer.body.message).toMatch(/64 MiB/);
    const after = await ok(server.url, 'pfs_v2.API/InspectCommit', {
      commit: commitId('limits', 'master'),
    });
    expect(after.commit.id).toBe(before.commit.id);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 60_000);
});
