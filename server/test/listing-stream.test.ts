/**
 * Listings read SQLite a chunk at a time (issue #20 item 4): ListFile, WalkFile and GlobFile
 * answer what a whole-table read answered (order, paging, pathRange) across chunk boundaries,
 * GlobFile's literal-prefix range misses nothing, and a client that goes away ends the scan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJsonRequest } from '../src/platform/typed-method.ts';
import { compileGlob } from '../src/platform/pfs/glob.ts';
import { PfsStore } from '../src/platform/pfs/pfs-store.ts';
import type { CommitRow } from '../src/platform/pfs/rows.ts';
import { callStream, commitId, ok, repo, results } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

let server: TestServer;
let commit: CommitRow;
/** More rows than one chunk, so every listing crosses chunk boundaries. */
const perFolder = Math.round(PfsStore.scanChunkRows * 2.5);
const hash = 'cd'.repeat(32);

/** Writes folders of files straight into the files table of an open commit, then finishes it. */
function fillCommit(target: CommitRow, folders: Record<string, number>): void {
  const { db, pfs } = server.server.platform;
  const insert = db.prepare(
    `INSERT INTO files (commit_rowid, path, dir, name, type, hash, size_bytes, committed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const [dir, count] of Object.entries(folders)) {
      insert.run(target.rowid, dir, '/', dir.slice(1, -1), 'DIR', '', count, 1);
      for (let i = 0; i < count; i++) {
        const name = `f-${String(i).padStart(6, '0')}.txt`;
        insert.run(target.rowid, dir + name, dir, name, 'FILE', hash, 1, 1 + i);
      }
    }
  })();
  pfs.finishCommit(target, '', '');
}

beforeAll(async () => {
  server = await startTestServer();
  const { pfs } = server.server.platform;
  await ok(server.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo('wide') });
  await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo('huge') });
  const wide = pfs.getRepo({ project: 'default', name: 'wide', type: 'user' });
  commit = pfs.startCommit(wide, 'master', null, '');
  fillCommit(commit, { '/a/': perFolder, '/b/': 10, '/c/': perFolder });
  const huge = pfs.getRepo({ project: 'default', name: 'huge', type: 'user' });
  fillCommit(pfs.startCommit(huge, 'master', null, ''), { '/big/': 200_000 });
});
afterAll(() => server.close());

const allRows = () => server.server.platform.pfs.allFiles(commit);
const paths = (lines: { file: { path: string } }[]) => lines.map((line) => line.file.path);
const fileRef = (path: string) => ({ commit: commitId('wide', commit.id), path });

describe('chunked listings', () => {
  it('ListFile pages a folder bigger than a chunk exactly as the whole folder sorted', async () => {
    const children = allRows()
      .filter((row) => row.dir === '/a/')
      .map((row) => row.path);
    const url = server.url;
    expect(paths(await results(url, 'pfs_v2.API/ListFile', { file: fileRef('/a') }))).toEqual(
      children,
    );
    const marker = children[999] as string;
    const page = await results(url, 'pfs_v2.API/ListFile', {
      file: fileRef('/a'),
      paginationMarker: { path: marker },
      number: 1200,
    });
    expect(paths(page)).toEqual(children.slice(1000, 2200));
    const reversed = await results(url, 'pfs_v2.API/ListFile', {
      file: fileRef('/a'),
      paginationMarker: { path: marker },
      reverse: true,
    });
    expect(paths(reversed)).toEqual(children.slice(0, 999).reverse());
  });

  it('WalkFile walks a subtree bigger than a chunk, the folder first (last reversed)', async () => {
    const all = ['/', ...allRows().map((row) => row.path)];
    const url = server.url;
    expect(paths(await results(url, 'pfs_v2.API/WalkFile', { file: fileRef('/') }))).toEqual(all);
    const limited = await results(url, 'pfs_v2.API/WalkFile', { file: fileRef('/'), number: 1500 });
    expect(paths(limited)).toEqual(all.slice(0, 1500));
    const reversed = await results(url, 'pfs_v2.API/WalkFile', {
      file: fileRef('/c'),
      reverse: true,
    });
    const underC = all.filter((path) => path.startsWith('/c/'));
    expect(paths(reversed)).toEqual([...underC.slice(1).reverse(), '/c/']);
    const reversedLimited = await results(url, 'pfs_v2.API/WalkFile', {
      file: fileRef('/b'),
      reverse: true,
      number: 11,
    });
    expect(paths(reversedLimited)).toEqual(
      [
        ...all
          .filter((path) => path.startsWith('/b/'))
          .slice(1)
          .reverse(),
        '/b/',
      ].slice(0, 11),
    );
  });

  it('WalkFile pages a subtree from a marker, forward and reversed', async () => {
    // The folder first, then its subtree in path order.
    const underA = allRows()
      .map((row) => row.path)
      .filter((path) => path.startsWith('/a/'));
    const marker = underA[1500] as string;
    const forward = await results(server.url, 'pfs_v2.API/WalkFile', {
      file: fileRef('/a'),
      paginationMarker: { path: marker },
      number: 1200,
    });
    expect(paths(forward)).toEqual(underA.slice(1501, 2701));
    const reversed = await results(server.url, 'pfs_v2.API/WalkFile', {
      file: fileRef('/a'),
      paginationMarker: { path: marker },
      reverse: true,
    });
    expect(paths(reversed)).toEqual(underA.slice(0, 1500).reverse());
  });

  it('GlobFile finds what testing every row finds, with and without a literal prefix', async () => {
    const rows = allRows();
    const patterns = [
      '/**',
      '/*',
      '/a/**',
      '/a**',
      '/a',
      '/a/',
      '/a/*',
      '/a/f-0012*',
      '/c/f-00249?.txt',
      '/?/f-000001.txt',
      '/[ab]/f-00000*',
      '/**/f-000009.txt',
      '/b/f-000003.txt',
      '/nothing/**',
    ];
    const ranges = [null, { lower: '/a/f-001', upper: '/c/f-0005' }, { lower: '/b/', upper: '' }];
    for (const pattern of patterns) {
      const glob = compileGlob(pattern);
      for (const range of ranges) {
        const expected = rows
          .filter((row) => glob.test(row.path.endsWith('/') ? row.path.slice(0, -1) : row.path))
          .filter((row) => !range?.lower || row.path >= range.lower)
          .filter((row) => !range?.upper || row.path < range.upper)
          .map((row) => row.path);
        const found = await results(server.url, 'pfs_v2.API/GlobFile', {
          commit: commitId('wide', commit.id),
          pattern,
          ...(range ? { pathRange: range } : {}),
        });
        expect(paths(found), `${pattern} ${JSON.stringify(range)}`).toEqual(expected);
      }
    }
  });
});

describe('listings written straight from rows', () => {
  it('send, over HTTP, the lines of the messages the platform yields one at a time', async () => {
    const { methods } = server.server.platform;
    const requests: [string, unknown][] = [
      ['GlobFile', { commit: commitId('wide', commit.id), pattern: '/**' }],
      ['GlobFile', { commit: commitId('wide', commit.id), pattern: '/' }],
      ['ListFile', { file: fileRef('/a') }],
      ['ListFile', { file: fileRef('/b/f-000003.txt') }],
      ['WalkFile', { file: fileRef('/'), number: 3000 }],
    ];
    for (const [name, body] of requests) {
      const method = methods.get(`pfs_v2.API/${name}`);
      if (method?.kind !== 'stream') throw new Error(`${name} is not a server stream`);
      let expected = '';
      const request = decodeJsonRequest(method, body);
      for await (const message of method.handler(request, new AbortController().signal))
        expected += JSON.stringify({ result: message }) + '\n';
      const { text } = await callStream(server.url, `pfs_v2.API/${name}`, body);
      expect(text.length, name).toBeGreaterThan(0);
      expect(text === expected, `${name} ${JSON.stringify(body)}`).toBe(true);
    }
  });
});

describe('a listing the client stops reading', () => {
  it('ends its scan when the client goes away', async () => {
    const { pfs } = server.server.platform;
    expect(pfs.openFileScans).toBe(0);
    const abort = new AbortController();
    try {
      const response = await fetch(`${server.url}/api/pfs_v2.API/ListFile`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' },
        body: JSON.stringify({
          file: {
            commit: { repo: repo('huge'), branch: { repo: repo('huge'), name: 'master' } },
            path: '/big',
          },
        }),
        signal: abort.signal,
      });
      const first = await response.body?.getReader().read();
      expect(new TextDecoder().decode(first?.value).startsWith('{"result":')).toBe(true);
      // The client reads no further: the server stops at backpressure with the scan open.
      await waitFor(() => pfs.openFileScans === 1);
      expect(pfs.openFileScans).toBe(1);
    } finally {
      // Also when an expectation above failed: an unread answer would hold its connection.
      abort.abort();
    }
    await waitFor(() => pfs.openFileScans === 0);
    expect(pfs.openFileScans).toBe(0);
    // The server goes on answering.
    const count = await results(server.url, 'pfs_v2.API/ListFile', {
      file: { commit: commitId('wide', commit.id), path: '/b' },
    });
    expect(count).toHaveLength(10);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 100 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 50));
}
