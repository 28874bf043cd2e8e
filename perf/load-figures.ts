// Load on loopback with autocannon (bounded: 10 s per phase), on a server with sign-in off and
// then on one with sign-in on (a real OpenID Connect provider, a signed-in admin's token):
//   1. ListRepo at 200 connections, sign-in off and on: requests/s, p50/p99, and the on/off
//      ratio of the rate (what checking tokens and roles costs);
//   2. writers under read load, sign-in on: 200 connections reading (ListRepo, InspectRepo,
//      GlobFile, healthz) while 20 connections write (ModifyFile, one new file per request,
//      all to one branch): ModifyFile's p50 / p99, and every acknowledged write present after.
// Prints the figures; exits 1 if a request timed out, errored or answered non-2xx, or an
// acknowledged write is missing. Run: npx tsx perf/load-figures.ts (PERF_LOAD_SECONDS=n).
import { readFileSync } from 'node:fs';
import autocannon, { type Result } from 'autocannon';
import { startOidcProvider } from '../server/test/helpers/oidc-provider.ts';
import { startServerProcess, type ServerProcess } from '../server/test/helpers/server-process.ts';
import { tokenFor } from '../server/test/helpers/tokens.ts';
import { printFigure } from './support/figures.ts';

const SECONDS = Number(process.env.PERF_LOAD_SECONDS ?? 10);
const REPOS = 40;
const READERS = 200;
const WRITERS = 20;

const repoRef = (name: string) => ({ name, type: 'user', project: { name: 'default' } });

function headers(token: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

async function call(url: string, token: string, method: string, body: unknown): Promise<string> {
  const response = await fetch(`${url}/api/${method}`, {
    method: 'POST',
    headers: headers(token),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method}: ${response.status} ${text}`);
  return text;
}

/** 40 repos of 20 files each; `load` is the writers' repo. */
async function seed(url: string, token: string): Promise<void> {
  await call(url, token, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  for (let i = 0; i < REPOS; i++) {
    const name = i === 0 ? 'load' : `repo${i}`;
    await call(url, token, 'pfs_v2.API/CreateRepo', { repo: repoRef(name) });
    const files = Array.from({ length: 20 }, (_, n) =>
      JSON.stringify({
        addFile: { path: `/d/f${n}.txt`, raw: Buffer.from(`file ${n}`).toString('base64') },
      }),
    );
    const branch = JSON.stringify({
      setCommit: { branch: { repo: repoRef(name), name: 'master' } },
    });
    await call(url, token, 'pfs_v2.API/ModifyFile', [branch, ...files].join('\n') + '\n');
  }
}

function report(label: string, result: Result): number {
  printFigure(`${label}: requests/s (mean)`, result.requests.average.toFixed(0));
  printFigure(
    `${label}: latency p50 / p99 / max`,
    `${result.latency.p50} / ${result.latency.p99} / ${result.latency.max} ms`,
  );
  printFigure(
    `${label}: requests / timeouts / errors / non-2xx`,
    `${result.requests.total} / ${result.timeouts} / ${result.errors} / ${result.non2xx}`,
  );
  return result.timeouts + result.errors + result.non2xx;
}

function listRepo(url: string, token: string): Promise<Result> {
  return autocannon({
    url: `${url}/api/pfs_v2.API/ListRepo`,
    method: 'POST',
    headers: headers(token),
    body: '{}',
    connections: READERS,
    duration: SECONDS,
    timeout: 30,
  });
}

/** Readers and writers at once: both results, and how many writes were acknowledged. */
async function writersUnderReads(url: string, token: string) {
  const json = headers(token);
  const setCommit = JSON.stringify({
    setCommit: { branch: { repo: repoRef('load'), name: 'master' } },
  });
  let written = 0;
  let acknowledged = 0;
  const [readers, writers] = await Promise.all([
    // The readers on a thread of their own: in this one their 200 connections kept the writers'
    // requests from even being sent for seconds (the client's loop, not the server's).
    autocannon({
      url,
      workers: 1,
      connections: READERS,
      duration: SECONDS,
      timeout: 30,
      requests: [
        { method: 'POST', path: '/api/pfs_v2.API/ListRepo', headers: json, body: '{}' },
        {
          method: 'POST',
          path: '/api/pfs_v2.API/InspectRepo',
          headers: json,
          body: JSON.stringify({ repo: repoRef('repo1') }),
        },
        {
          method: 'POST',
          path: '/api/pfs_v2.API/GlobFile',
          headers: json,
          body: JSON.stringify({
            commit: { repo: repoRef('repo2'), id: 'master' },
            pattern: '/d/*',
          }),
        },
        { method: 'GET', path: '/healthz', headers: json },
      ],
    }),
    autocannon({
      url: `${url}/api/pfs_v2.API/ModifyFile`,
      connections: WRITERS,
      duration: SECONDS,
      timeout: 30,
      requests: [
        {
          method: 'POST',
          headers: json,
          setupRequest: (request) => {
            const n = written++;
            const add = JSON.stringify({
              addFile: { path: `/w/${n}.txt`, raw: Buffer.from(`writer ${n}`).toString('base64') },
            });
            return { ...request, body: `${setCommit}\n${add}\n` };
          },
          onResponse: (status) => {
            if (status === 200) acknowledged++;
          },
        },
      ],
    }),
  ]);
  return { readers, writers, acknowledgedCount: acknowledged };
}

/** How many of the writers' files the branch holds. */
async function writtenFiles(url: string, token: string): Promise<number> {
  const text = await call(url, token, 'pfs_v2.API/GlobFile', {
    commit: { repo: repoRef('load'), id: 'master' },
    pattern: '/w/*',
  });
  return text.split('\n').filter((line) => line.includes('"result"')).length;
}

/** A process's CPU time so far (user + system, all its threads), in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command's name).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

let failures = 0;
const servers: ServerProcess[] = [];
const idp = await startOidcProvider({ consoleOrigin: 'http://127.0.0.1:1' });
try {
  // Sign-in off.
  const off = await startServerProcess();
  servers.push(off);
  await seed(off.url, '');
  printFigure('seeded repos (20 files each)', String(REPOS));
  const offCpu = cpuSeconds(off.pid);
  const offList = await listRepo(off.url, '');
  const offCpuPerCall = (cpuSeconds(off.pid) - offCpu) / offList.requests.total;
  failures += report(`ListRepo, sign-in off, ${READERS} connections`, offList);
  await off.kill('SIGKILL');

  // Sign-in on: a user's id token from the provider's key. The user makes the project (so owns
  // it, as any signed-in user may) and its repos: ListRepo lists them all, each with the user's
  // permissions and roles on it (authInfo, as pachd answers).
  const token = await tokenFor(idp, 'owner');
  const on = await startServerProcess(idp.serverEnv());
  servers.push(on);
  await seed(on.url, token);
  const onCpu = cpuSeconds(on.pid);
  const onList = await listRepo(on.url, token);
  const onCpuPerCall = (cpuSeconds(on.pid) - onCpu) / onList.requests.total;
  failures += report(`ListRepo, sign-in on, ${READERS} connections`, onList);
  printFigure(
    'ListRepo rate, sign-in on / off (same run)',
    `${(onList.requests.average / offList.requests.average).toFixed(2)}×`,
  );
  printFigure(
    'ListRepo server CPU per call, off / on',
    `${(offCpuPerCall * 1000).toFixed(2)} / ${(onCpuPerCall * 1000).toFixed(2)} ms (on costs ${(
      onCpuPerCall / offCpuPerCall
    ).toFixed(2)}×)`,
  );
  // (The last phase's requests still queued at the server are answered before the next.)
  await new Promise((resolve) => setTimeout(resolve, 2000));

  const mixed = await writersUnderReads(on.url, token);
  failures += report(`sign-in on: readers, ${READERS} connections`, mixed.readers);
  failures += report(`sign-in on: ModifyFile, ${WRITERS} connections, one branch`, mixed.writers);
  printFigure(
    'ModifyFile under the read load: p50 / p99',
    `${mixed.writers.latency.p50} / ${mixed.writers.latency.p99} ms`,
  );
  const present = await writtenFiles(on.url, token);
  printFigure('acknowledged writes / files present', `${mixed.acknowledgedCount} / ${present}`);
  if (present < mixed.acknowledgedCount) {
    console.error('an acknowledged write is missing');
    failures++;
  }
} finally {
  for (const server of servers) await server.kill('SIGKILL');
  await idp.stop();
}
if (failures > 0) {
  console.error(`${failures} requests timed out, failed or answered non-2xx`);
  process.exit(1);
}
