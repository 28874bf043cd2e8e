// Load on loopback with autocannon (bounded: 10 s per phase): ListRepo at 200 connections
// (timeouts, p50/p99), then a mixed phase — readers (ListRepo, InspectRepo, GlobFile, healthz)
// beside writers (ModifyFile, one new file per request, all to one branch). Prints the figures;
// exits 1 if a request timed out, errored or answered non-2xx. Run: npx tsx perf/load-figures.ts
import autocannon, { type Result } from 'autocannon';
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { printFigure } from './support/figures.ts';

const SECONDS = Number(process.env.PERF_LOAD_SECONDS ?? 10);
const REPOS = 40;
const json = { 'content-type': 'application/json' };

async function call(url: string, method: string, body: unknown): Promise<void> {
  const response = await fetch(`${url}/api/${method}`, {
    method: 'POST',
    headers: json,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method}: ${response.status} ${await response.text()}`);
}

const repoRef = (name: string) => ({ name, type: 'user', project: { name: 'default' } });
const setCommit = JSON.stringify({
  setCommit: { branch: { repo: repoRef('load'), name: 'master' } },
});

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

const server = await startServerProcess();
let failures = 0;
try {
  const url = server.url;
  for (let i = 0; i < REPOS; i++) {
    const name = i === 0 ? 'load' : `repo${i}`;
    await call(url, 'pfs_v2.API/CreateRepo', { repo: repoRef(name) });
    const files = Array.from({ length: 20 }, (_, n) =>
      JSON.stringify({
        addFile: { path: `/d/f${n}.txt`, raw: Buffer.from(`file ${n}`).toString('base64') },
      }),
    );
    const branch = JSON.stringify({
      setCommit: { branch: { repo: repoRef(name), name: 'master' } },
    });
    await call(url, 'pfs_v2.API/ModifyFile', [branch, ...files].join('\n') + '\n');
  }
  printFigure('seeded repos (20 files each)', String(REPOS));

  const listRepo = await autocannon({
    url: `${url}/api/pfs_v2.API/ListRepo`,
    method: 'POST',
    headers: json,
    body: '{}',
    connections: 200,
    duration: SECONDS,
    timeout: 30,
  });
  failures += report('ListRepo, 200 connections', listRepo);

  let written = 0;
  const [readers, writers] = await Promise.all([
    autocannon({
      url,
      connections: 100,
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
        { method: 'GET', path: '/healthz' },
      ],
    }),
    autocannon({
      url: `${url}/api/pfs_v2.API/ModifyFile`,
      connections: 20,
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
        },
      ],
    }),
  ]);
  failures += report('mixed: readers, 100 connections', readers);
  failures += report('mixed: ModifyFile writers to one branch, 20 connections', writers);
} finally {
  await server.kill('SIGKILL');
}
if (failures > 0) {
  console.error(`${failures} requests timed out, failed or answered non-2xx`);
  process.exit(1);
}
