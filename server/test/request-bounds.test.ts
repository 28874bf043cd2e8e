import { pfs_v2, pps_v2 } from '@ivory/api/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PATH_DEPTH } from '../src/platform/pfs/file-paths.ts';
import { packTar, TAR_ENTRIES_PER_TURN } from '../src/platform/pfs/file-tar.ts';
import { call, callStream, commitId, modifyFile, ok, repo } from './helpers/api-client.ts';
import { grpcClient, grpcFailure } from './helpers/grpc-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { tarEntries } from './helpers/tar-entries.ts';

// Bounded work per request: paths deeper than the limit and JSON nested deeper than the limit
// (inside a string too) answer 3, never 500; a template that would overflow libjsonnet's stack
// answers 3 and the server lives on; archives give the event loop a turn every so many entries
// (counted, not timed) and never name an entry with a backslash.

let server: TestServer;
let url: string;
let grpcAddress: string;

const setCommit = { setCommit: { branch: { repo: repo('b'), name: 'master' } } };
const add = (path: string, text = '') => ({
  addFile: { path, raw: Buffer.from(text).toString('base64') },
});
const deepPath = (depth: number) => '/' + Array.from({ length: depth }, () => 'a').join('/');

beforeAll(async () => {
  server = await startTestServer({ grpc: { port: 0, optional: false } });
  url = server.url;
  grpcAddress = `127.0.0.1:${server.server.grpc!.port}`;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('b') });
}, 60_000);

afterAll(() => server?.close());

describe('path depth', () => {
  it('refuses a path deeper than the limit with 3, HTTP and gRPC, and takes one at it', async () => {
    for (const depth of [10_000, MAX_PATH_DEPTH + 1]) {
      const answer = await modifyFile(url, [setCommit, add(deepPath(depth), 'x')]);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe(3);
      expect(answer.body.message).toMatch(/deeper than 256 folders|longer than 4096 characters/);
    }
    const client = grpcClient(grpcAddress);
    const failure = await grpcFailure(
      client.clientStream(pfs_v2.API.method.modifyFile, [
        {
          body: {
            case: 'setCommit',
            value: {
              branch: { repo: { name: 'b', project: { name: 'default' } }, name: 'master' },
            },
          },
        },
        {
          body: {
            case: 'addFile',
            value: {
              path: deepPath(10_000),
              source: { case: 'raw', value: { value: new Uint8Array([1]) } },
            },
          },
        },
      ]),
    );
    client.close();
    expect(failure.code).toBe(3);
    const atLimit = await modifyFile(url, [setCommit, add(deepPath(MAX_PATH_DEPTH), 'x')]);
    expect(atLimit.status).toBe(200);
  });
});

describe('nesting', () => {
  const deep = '{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000);

  it('answers 3 for JSON nested 200,000 deep inside a spec or defaults, HTTP and gRPC', async () => {
    const requests: [string, unknown][] = [
      ['pps_v2.API/CreatePipelineV2', { createPipelineRequestJson: deep }],
      [
        'pps_v2.API/SetProjectDefaults',
        { project: { name: 'default' }, projectDefaultsJson: deep },
      ],
      ['pps_v2.API/SetClusterDefaults', { clusterDefaultsJson: deep }],
    ];
    for (const [method, body] of requests) {
      const answer = await call(url, method, body);
      expect(answer.status, method).toBe(400);
      expect(answer.body.code, method).toBe(3);
      expect(answer.body.message, method).toMatch(/nested deeper than 64 levels/);
    }
    const client = grpcClient(grpcAddress);
    const failure = await grpcFailure(
      client.unary(pps_v2.API.method.createPipelineV2, { createPipelineRequestJson: deep }),
    );
    client.close();
    expect(failure.code).toBe(3);
  });

  it('answers 3 for a template that overflows the evaluator, and lives on', async () => {
    for (const template of [
      '-'.repeat(20_000) + '1',
      "std.parseJson(std.join('', std.makeArray(200000, function(i) '[')))",
    ]) {
      const answer = await call(url, 'pps_v2.API/RenderTemplate', { template, args: {} });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe(3);
      expect(answer.body.message).toMatch(/template evaluation failed/);
    }
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});

describe('archives', () => {
  it('never name an entry with a backslash', async () => {
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('win') });
    const messages = [
      { setCommit: { branch: { repo: repo('win'), name: 'master' } } },
      add('/w/..\\..\\win.txt', 'climb'),
    ];
    expect((await modifyFile(url, messages)).status).toBe(200);
    const viaFiles = await fetch(`${url}/files/default/win/master/w`);
    const entries = await tarEntries(await viaFiles.arrayBuffer());
    expect(entries).toEqual({ '.._.._win.txt': 'climb' });

    const stream = await callStream(url, 'pfs_v2.API/GetFileTAR', {
      file: { commit: commitId('win', 'master'), path: '/' },
    });
    const bytes = Buffer.concat(stream.lines.map((line) => Buffer.from(line.result, 'base64')));
    const names = Object.keys(await tarEntries(bytes));
    expect(names).toContain('w/.._.._win.txt');
    for (const name of names) expect(name).not.toContain('\\');
  });

  it('give the event loop turns while packing, however cheap each entry is', async () => {
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('many') });
    const folders = 1500;
    const files = Array.from({ length: folders }, (_, i) => add(`/t/d${i}/f`));
    const written = await modifyFile(url, [
      { setCommit: { branch: { repo: repo('many'), name: 'master' } } },
      ...files,
    ]);
    expect(written.status).toBe(200);
    // Folders and empty files need no I/O: packed without pauses, the whole archive came out in
    // one turn of the event loop. Count the turns other work gets between its first and last
    // chunk (a chain of setImmediate, as any other request's callbacks would run).
    const { pfs, blobs } = server.server.platform;
    const repoRow = pfs.getRepo({ project: 'default', name: 'many', type: 'user' });
    const commit = pfs.resolveCommit(repoRow, 'master', '');
    const body = packTar(pfs, blobs, commit, [pfs.getFile(commit, '/t')]);
    let turns = 0;
    let counting = false;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    let atFirstChunk = -1;
    let bytes = 0;
    await new Promise<void>((resolve, reject) => {
      body.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (atFirstChunk < 0) {
          atFirstChunk = turns;
          counting = true;
          setImmediate(tick);
        }
      });
      body.on('end', resolve);
      body.on('error', reject);
    });
    counting = false;
    const entries = folders * 2;
    expect(bytes).toBeGreaterThan(entries * 512);
    expect(turns - atFirstChunk).toBeGreaterThanOrEqual(
      Math.floor(entries / TAR_ENTRIES_PER_TURN) - 1,
    );
  });
});
