/**
 * The repos list's "Last commit" column for one page of 20 repos, asked two ways against one
 * server process: 20 ListCommit {number: 1} calls at once (what the list made before, and still
 * makes against a platform without ListRepoHeads) and one ListRepoHeads call. Prints, per way,
 * the server's CPU time per page (from /proc/<pid>/stat: not distorted by other load on the
 * machine the way wall time is), the wall time per page, and the HTTP requests and bytes.
 *
 *   npx tsx perf/repo-heads-figures.ts [--rounds 200]
 *
 * Prints figures, asserts nothing.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { commitFiles, ok, repo } from '../server/test/helpers/api-client.ts';
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { printFigure } from './support/figures.ts';

const { values: options } = parseArgs({ options: { rounds: { type: 'string', default: '200' } } });
const ROUNDS = Number(options.rounds);
const PAGE = 20;

/** The process's user + system CPU time in ms (clock ticks of /proc/<pid>/stat, 100 per s). */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function post(url: string, method: string, body: unknown): Promise<number> {
  const response = await fetch(`${url}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method}: ${response.status} ${text}`);
  return text.length;
}

const server = await startServerProcess({ IVORY_LOG_LEVEL: 'info', IVORY_SEED: 'false' });
try {
  const url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  const names = Array.from({ length: PAGE }, (_, i) => `repo-${String(i).padStart(2, '0')}`);
  for (const name of names) {
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo(name) });
    for (let c = 0; c < 3; c++) await commitFiles(url, name, { [`/f${c}.txt`]: `${name} ${c}` });
  }

  const ways = {
    [`${PAGE} × ListCommit {number: 1}`]: async () => {
      const sizes = await Promise.all(
        names.map((name) => post(url, 'pfs_v2.API/ListCommit', { repo: repo(name), number: '1' })),
      );
      return { requests: PAGE, bytes: sizes.reduce((a, b) => a + b, 0) };
    },
    [`1 × ListRepoHeads {repos: ${PAGE}}`]: async () => ({
      requests: 1,
      bytes: await post(url, 'pfs_v2.API/ListRepoHeads', { repos: names.map((n) => repo(n)) }),
    }),
  };
  // Warm both up, then alternate rounds so both see the same machine.
  for (const way of Object.values(ways)) await way();
  const totals = Object.fromEntries(Object.keys(ways).map((k) => [k, { cpu: 0, wall: 0 }]));
  let last = { requests: 0, bytes: 0 };
  const shapes: Record<string, typeof last> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, way] of Object.entries(ways)) {
      const cpu = await cpuMs(server.pid);
      const started = performance.now();
      last = await way();
      totals[label]!.wall += performance.now() - started;
      totals[label]!.cpu += (await cpuMs(server.pid)) - cpu;
      shapes[label] = last;
    }
  }
  for (const [label, total] of Object.entries(totals)) {
    const shape = shapes[label]!;
    printFigure(
      label,
      `server CPU ${(total.cpu / ROUNDS).toFixed(2)} ms/page, wall ${(total.wall / ROUNDS).toFixed(
        2,
      )} ms/page, ${shape.requests} requests, ${(shape.bytes / 1024).toFixed(1)} KiB (${ROUNDS} rounds)`,
    );
  }
} finally {
  await server.kill('SIGTERM');
}
