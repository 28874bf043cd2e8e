import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callStream, commitFiles, commitId, ok, repo } from './helpers/api-client.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';

// A server process of its own, so a glob that held its event loop would not hold the test's.
// How long these take is a figure in perf/glob-figures.ts; here only what load cannot change.
let server: ServerProcess;
/** A name a backtracking glob matcher could not finish failing the twelve-wildcard glob on. */
const longName = '/' + 'a'.repeat(200);
beforeAll(async () => {
  server = await startServerProcess();
  await ok(server.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(server.url, 'pfs_v2.API/CreateRepo', { repo: repo('globs') });
  const files: Record<string, string> = { [longName]: 'x' };
  for (let i = 0; i < 200; i++) files[`/d${i % 7}/${'a'.repeat(40)}${i}`] = String(i);
  await commitFiles(server.url, 'globs', files);
});
afterAll(() => server.kill('SIGKILL'));

const glob = (pattern: string) =>
  callStream(server.url, 'pfs_v2.API/GlobFile', {
    commit: commitId('globs', 'master'),
    pattern,
  });

describe('glob matching is linear', () => {
  it('answers a glob a backtracking matcher would never finish, and /healthz meanwhile', async () => {
    // Twelve `**a` then a `b` no path has: to fail on the 200-character name, a backtracking
    // matcher tries every way of sharing its a's among the twelve wildcards (C(200, 12), about
    // 6e18 ways), so it would never answer and the test would time out, load or not; RE2's
    // automaton reads the path once, in a few thousand steps.
    const pattern = '/' + '**a'.repeat(12) + 'b';
    const [globbed, health] = await Promise.all([
      glob(pattern),
      (async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return (await fetch(`${server.url}/healthz`)).status;
      })(),
    ]);
    expect(globbed.status).toBe(200);
    expect(globbed.lines).toEqual([]);
    expect(health).toBe(200);
    // The same shape that does match still matches.
    const matching = await glob('/' + '**a'.repeat(12));
    expect(matching.lines.map((line) => line.result.file.path)).toEqual([longName]);
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
