import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callStream, commitFiles, commitId, ok, repo } from './helpers/api-client.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';

// A server process of its own, so the timings are not shared with the test's event loop.
let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess();
  await ok(server.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo('globs') });
  const files: Record<string, string> = { ['/' + 'a'.repeat(60)]: 'x' };
  for (let i = 0; i < 200; i++) files[`/d${i % 7}/${'a'.repeat(40)}${i}`] = String(i);
  await commitFiles(server.url, 'globs', files);
});
afterAll(() => server.kill('SIGKILL'));

const glob = (pattern: string) =>
  callStream(server.url, 'pfs_v2.API/GlobFile', {
    commit: commitId('globs', 'master'),
    pattern,
  });

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe('glob matching is linear', () => {
  it('answers a pathological glob within 100 ms while /healthz answers within 50 ms', async () => {
    const pattern = '/' + '**a'.repeat(10) + 'b';
    // Warm the routes and the client's connections, so the figures measure the server.
    await Promise.all([glob('/*'), fetch(`${server.url}/healthz`), fetch(`${server.url}/healthz`)]);
    const [globbed, health] = await Promise.all([
      timed(() => glob(pattern)),
      (async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return timed(() => fetch(`${server.url}/healthz`).then((r) => r.status));
      })(),
    ]);
    expect(globbed.value.status).toBe(200);
    expect(globbed.value.lines).toEqual([]);
    expect(health.value).toBe(200);
    expect(globbed.ms).toBeLessThan(100);
    expect(health.ms).toBeLessThan(50);
    // The same shape that does match still matches.
    const matching = await glob('/' + '**a'.repeat(10));
    expect(matching.lines.map((line) => line.result.file.path)).toContain('/' + 'a'.repeat(60));
  });

  it('rejects a malformed glob with code 3 naming the pattern', async () => {
    for (const pattern of ['/[z-a]', '/x/[9-0]*']) {
      const answer = await call(server.url, 'pfs_v2.API/GlobFile', {
        commit: commitId('globs', 'master'),
        pattern,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe(3);
      expect(answer.body.message).toContain(JSON.stringify(pattern));
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('answers /healthz while a long listing is still streaming', async () => {
    const url = server.url;
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('wide') });
    const raw = Buffer.from('same').toString('base64');
    const lines = [
      JSON.stringify({ setCommit: { branch: { repo: repo('wide'), name: 'master' } } }),
    ];
    for (let i = 0; i < 20_000; i++)
      lines.push(JSON.stringify({ addFile: { path: `/d${i % 10}/file-${i}.txt`, raw } }));
    const written = await fetch(`${url}/api/pfs_v2.API/ModifyFile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: lines.join('\n') + '\n',
    });
    expect(written.status).toBe(200);
    let listingDone = false;
    const listing = callStream(url, 'pfs_v2.API/WalkFile', {
      file: { commit: commitId('wide', 'master'), path: '/' },
    }).then((answer) => {
      listingDone = true;
      return answer;
    });
    // Started once the listing's first bytes are on their way.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const health = await fetch(`${url}/healthz`);
    const answeredDuringListing = !listingDone;
    const walked = await listing;
    expect(health.status).toBe(200);
    expect(walked.lines.length).toBe(20_000 + 10 + 1);
    expect(answeredDuringListing).toBe(true);
  }, 60_000);
});
