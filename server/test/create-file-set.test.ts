import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pfs_v2 } from '@ivory/api/proto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, commitId, getFile, ok, repo, type Json } from './helpers/api-client.ts';
import { grpcClient, grpcFailure } from './helpers/grpc-client.ts';
import {
  startSignedInTestServer,
  startTestServer,
  type SignedInTestServer,
  type TestServer,
} from './helpers/in-process-server.ts';
import { readAll } from './helpers/pps.ts';

// CreateFileSet: a client stream of ModifyFile messages making a file set, over the HTTP gateway
// (NDJSON) and gRPC; the set is then added to an open commit (AddFileSet) and read back.

const b64 = (bytes: string | Buffer) => Buffer.from(bytes).toString('base64');

/** POSTs NDJSON messages to CreateFileSet; `token` as a bearer token when sign-in is on. */
async function createFileSet(
  url: string,
  messages: unknown[],
  token = '',
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${url}/api/pfs_v2.API/CreateFileSet`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-ndjson',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: messages.map((message) => JSON.stringify(message)).join('\n') + '\n',
  });
  return { status: response.status, body: await response.json() };
}

/** How many file sets the server holds (read from its database file). */
function fileSetCount(server: TestServer): number {
  const db = new Database(path.join(server.dataDir, 'ivory.db'), { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM pfs_file_sets').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('CreateFileSet', () => {
  let server: TestServer;
  let url: string;
  let address: string;
  let srcCommit: string;

  beforeAll(async () => {
    server = await startTestServer({ grpc: { port: 0, optional: false } });
    url = server.url;
    address = `127.0.0.1:${server.server.grpc!.port}`;
    await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
    for (const name of ['src', 'dst']) await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo(name) });
    srcCommit = await commitFiles(url, 'src', { '/d/one.txt': 'one', '/d/e/two.txt': 'two' });
  });
  afterAll(() => server.close());

  /** AddFileSet into a new open commit on dst@branch, then finishes it; answers the commit id. */
  async function addToNewCommit(fileSetId: string, branch: string): Promise<string> {
    const commit = await ok(url, 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('dst'), name: branch },
    });
    await ok(url, 'pfs_v2.API/AddFileSet', { commit, fileSetId });
    await ok(url, 'pfs_v2.API/FinishCommit', { commit });
    return commit.id as string;
  }

  it('makes a set of added and copied files over HTTP, which AddFileSet lands in a commit', async () => {
    const big = randomBytes(700 * 1024); // past the in-memory threshold: written as it comes
    const before = fileSetCount(server);
    const answer = await createFileSet(url, [
      { addFile: { path: '/a.txt', raw: b64('a') } },
      { addFile: { path: 'b/c.txt', raw: b64('c1') } },
      { addFile: { path: 'b/c.txt', raw: b64('c2') } },
      { addFile: { path: '/big.bin', raw: b64(big.subarray(0, 300 * 1024)) } },
      { addFile: { path: '/big.bin', raw: b64(big.subarray(300 * 1024)) } },
      { copyFile: { dst: '/copied', src: { commit: commitId('src', srcCommit), path: '/d' } } },
      {
        copyFile: {
          dst: '/a.txt',
          src: { commit: commitId('src', srcCommit), path: '/d/one.txt' },
        },
      },
      { addFile: { path: '/empty', raw: '' } },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.fileSetId).toMatch(/^[0-9a-f]{32}$/);
    expect(fileSetCount(server)).toBe(before + 1);

    const landed = await addToNewCommit(answer.body.fileSetId, 'http');
    const files = await readAll(url, 'dst', landed);
    expect(Object.keys(files).sort()).toEqual([
      '/a.txt',
      '/b/c.txt',
      '/big.bin',
      '/copied/e/two.txt',
      '/copied/one.txt',
      '/empty',
    ]);
    expect(files['/a.txt']).toBe('one');
    expect(files['/b/c.txt']).toBe('c1c2');
    expect(files['/copied/e/two.txt']).toBe('two');
    expect(files['/empty']).toBe('');
    expect((await getFile(url, 'dst', landed, '/big.bin')).equals(big)).toBe(true);
  });

  it('refuses a bad stream over HTTP with a clear code and creates no set', async () => {
    const before = fileSetCount(server);
    const cases: [unknown[], number, RegExp][] = [
      [
        [{ addFile: { path: '/x', raw: b64('x') } }, { setCommit: commitId('dst', 'master') }],
        3,
        /takes no setCommit/,
      ],
      [
        [{ addFile: { path: '/x', raw: b64('x') } }, { deleteFile: { path: '/x' } }],
        12,
        /deleteFile is not supported/,
      ],
      [[{ addFile: { path: '../evil', raw: b64('x') } }], 3, /escapes the root/],
      [[{ addFile: { path: '/x', raw: 42 } }], 3, /addFile/],
      [
        [{ copyFile: { dst: '/x', src: { commit: commitId('src', srcCommit), path: '/nope' } } }],
        5,
        /not found/,
      ],
    ];
    for (const [messages, code, message] of cases) {
      const answer = await createFileSet(url, messages);
      expect(answer.body.code, JSON.stringify(messages)).toBe(code);
      expect(answer.body.message).toMatch(message);
    }
    expect(fileSetCount(server)).toBe(before);
  });

  it('makes a set over gRPC (client stream) and refuses a bad message with 3', async () => {
    const client = grpcClient(address);
    const big = randomBytes(3 * 1024 * 1024 + 17);
    const chunk = 1024 * 1024;
    const raw = (bytes: Uint8Array) => ({ case: 'raw' as const, value: { value: bytes } });
    const requests = [
      {
        body: {
          case: 'addFile' as const,
          value: { path: '/g.txt', source: raw(Buffer.from('g')) },
        },
      },
      ...Array.from({ length: Math.ceil(big.length / chunk) }, (_, i) => ({
        body: {
          case: 'addFile' as const,
          value: { path: '/big.bin', source: raw(big.subarray(i * chunk, (i + 1) * chunk)) },
        },
      })),
      {
        body: {
          case: 'copyFile' as const,
          value: {
            dst: '/two.txt',
            src: {
              commit: {
                repo: { name: 'src', type: 'user', project: { name: 'default' } },
                id: srcCommit,
              },
              path: '/d/e/two.txt',
            },
          },
        },
      },
    ];
    const made = await client.clientStream(pfs_v2.API.method.createFileSet, requests);
    expect(made.fileSetId).toMatch(/^[0-9a-f]{32}$/);
    const landed = await addToNewCommit(made.fileSetId, 'grpc');
    expect(await readAll(url, 'dst', landed).then((files) => Object.keys(files).sort())).toEqual([
      '/big.bin',
      '/g.txt',
      '/two.txt',
    ]);
    expect((await getFile(url, 'dst', landed, '/big.bin')).equals(big)).toBe(true);
    expect((await getFile(url, 'dst', landed, '/two.txt')).toString()).toBe('two');

    const before = fileSetCount(server);
    const refused = await grpcFailure(
      client.clientStream(pfs_v2.API.method.createFileSet, [
        { body: { case: 'addFile', value: { path: '/x', source: raw(Buffer.from('x')) } } },
        { body: { case: 'setCommit', value: { id: 'master' } } },
      ]),
    );
    expect(refused.code).toBe(3);
    expect(refused.details).toMatch(/takes no setCommit/);
    const deletion = await grpcFailure(
      client.clientStream(pfs_v2.API.method.createFileSet, [
        { body: { case: 'deleteFile', value: { path: '/x' } } },
      ]),
    );
    expect(deletion.code).toBe(12);
    expect(fileSetCount(server)).toBe(before);
    client.close();
  });
});

describe('CreateFileSet with sign-in on', () => {
  let server: SignedInTestServer;
  let address: string;
  let tokens: Record<string, string>;
  const project = { name: 'fs' };
  const secret = { name: 'secret', type: 'user', project };

  beforeAll(async () => {
    server = await startSignedInTestServer(['carol', 'dave'], {
      admins: ['carol@example.com'],
      grpc: { port: 0, optional: false },
    });
    ({ grpcAddress: address, tokens } = server);
    const carol = grpcClient(address, tokens.carol);
    await carol.unary(pfs_v2.API.method.createProject, { project });
    await carol.unary(pfs_v2.API.method.createRepo, { repo: secret });
    await carol.clientStream(pfs_v2.API.method.modifyFile, [
      { body: { case: 'setCommit', value: { branch: { repo: secret, name: 'master' } } } },
      {
        body: {
          case: 'addFile',
          value: { path: '/key', source: { case: 'raw', value: { value: Buffer.from('k') } } },
        },
      },
    ]);
    carol.close();
  }, 60_000);
  afterAll(() => server?.close());

  const copyOfSecret = {
    copyFile: {
      dst: '/stolen',
      src: { commit: { branch: { repo: secret, name: 'master' } }, path: '/key' },
    },
  };

  it('lets any signed-in user make a set of their own bytes, and no one without a token', async () => {
    const made = await createFileSet(
      server.url,
      [{ addFile: { path: '/mine', raw: b64('mine') } }],
      tokens.dave,
    );
    expect(made.status).toBe(200);
    expect(made.body.fileSetId).toMatch(/^[0-9a-f]{32}$/);
    const anonymous = await createFileSet(server.url, [{ addFile: { path: '/x', raw: b64('x') } }]);
    expect(anonymous.status).toBe(401);
    const client = grpcClient(address);
    const refused = await grpcFailure(
      client.clientStream(pfs_v2.API.method.createFileSet, [
        { body: { case: 'addFile', value: { path: '/x' } } },
      ]),
    );
    client.close();
    expect(refused.code).toBe(16);
  });

  it('needs REPO_READ on a copied file’s repo (7 without it), over HTTP and gRPC', async () => {
    const before = fileSetCount(server);
    const http = await createFileSet(server.url, [copyOfSecret], tokens.dave);
    expect(http.body.code).toBe(7);
    expect(http.body.message).toMatch(/needs permissions \[REPO_READ\] on REPO fs\/secret/);
    const dave = grpcClient(address, tokens.dave);
    const grpc = await grpcFailure(
      dave.clientStream(pfs_v2.API.method.createFileSet, [
        {
          body: {
            case: 'copyFile',
            value: {
              dst: '/stolen',
              src: { commit: { branch: { repo: secret, name: 'master' } }, path: '/key' },
            },
          },
        },
      ]),
    );
    dave.close();
    expect(grpc.code).toBe(7);
    expect(fileSetCount(server)).toBe(before);
    const allowed = await createFileSet(server.url, [copyOfSecret], tokens.carol);
    expect(allowed.status).toBe(200);
    expect(fileSetCount(server)).toBe(before + 1);
  });
});
