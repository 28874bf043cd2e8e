// Glob latency on a server process of its own: a glob that would make a backtracking matcher
// run for ages (twelve `**a` then `b`, against a 200-character name, beside 200 other files),
// and a /healthz asked while it runs. Prints the time of each over several rounds (what
// server/test/glob-linear.test.ts asserted as < 100 ms and < 50 ms before; timings belong here).
// Run: npx tsx perf/glob-figures.ts
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { printFigure } from './support/figures.ts';

const ROUNDS = 7;
const json = { 'content-type': 'application/json' };
const repo = { name: 'globs', type: 'user', project: { name: 'default' } };

async function call(url: string, method: string, body: unknown): Promise<string> {
  const response = await fetch(`${url}/api/${method}`, {
    method: 'POST',
    headers: json,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method}: ${response.status} ${text}`);
  return text;
}

async function timedMs(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.floor(q * (sorted.length - 1))] as number).toFixed(1);
  return `${at(0)} / ${at(0.5)} / ${at(1)} ms`;
};

const server = await startServerProcess();
try {
  const url = server.url;
  await call(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await call(url, 'pfs_v2.API/CreateRepo', { repo });
  const raw = Buffer.from('x').toString('base64');
  const lines = [JSON.stringify({ setCommit: { branch: { repo, name: 'master' } } })];
  lines.push(JSON.stringify({ addFile: { path: '/' + 'a'.repeat(200), raw } }));
  for (let i = 0; i < 200; i++)
    lines.push(JSON.stringify({ addFile: { path: `/d${i % 7}/${'a'.repeat(40)}${i}`, raw } }));
  await call(url, 'pfs_v2.API/ModifyFile', lines.join('\n') + '\n');
  const glob = (pattern: string) =>
    call(url, 'pfs_v2.API/GlobFile', { commit: { repo, id: 'master' }, pattern });
  // Warm the routes and the client's connections, so the figures measure the server.
  await Promise.all([glob('/*'), fetch(`${url}/healthz`), fetch(`${url}/healthz`)]);
  const pattern = '/' + '**a'.repeat(12) + 'b';
  const globMs: number[] = [];
  const healthMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [globbed, health] = await Promise.all([
      timedMs(() => glob(pattern)),
      (async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return timedMs(() => fetch(`${url}/healthz`).then((r) => r.arrayBuffer()));
      })(),
    ]);
    globMs.push(globbed);
    healthMs.push(health);
  }
  printFigure(`pathological GlobFile, ${ROUNDS} rounds (min / median / max)`, spread(globMs));
  printFigure('/healthz asked meanwhile (min / median / max)', spread(healthMs));
} finally {
  await server.kill('SIGKILL');
}
