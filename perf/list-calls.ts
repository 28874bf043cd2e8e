/**
 * What a cold load of the repos list (1,000 repos) and the pipelines list (500 pipelines) asks
 * the API: calls by method, bytes of API answers (decoded; Chromium may drop a body, read as 0),
 * and time to the first row, for one or more builds of the web app against the same data
 * (head-to-head.ts's data sets, built there first):
 *
 *   npx tsx perf/head-to-head.ts --data-dir D --pages repos --loads 1
 *   npx tsx perf/list-calls.ts --data-dir D [--dists web/dist,/other/dist] [--loads 5]
 *
 * Each build is served by its own server process in turn, each load in a new browser context.
 * Counts of calls and bytes do not depend on the machine's load; times do (compare builds of the
 * same run). Prints figures, asserts nothing.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, CHROMIUM_PATH } from '../e2e/support/chromium.ts';
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { printFigure } from './support/figures.ts';

const repoRoot = path.join(import.meta.dirname, '..');
const { values: options } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    dists: { type: 'string', default: path.join(repoRoot, 'web', 'dist') },
    loads: { type: 'string', default: '5' },
  },
});
if (!options['data-dir']) throw new Error('--data-dir (head-to-head.ts data) is required');
const dataDir = path.resolve(options['data-dir']);
const LOADS = Number(options.loads);

const pages = [
  { label: 'repos list, 1,000 repos', path: '/project/repos1k/repos', row: /repo-\d{4}/ },
  { label: 'pipelines list, 500 pipelines', path: '/project/dag500/pipelines', row: /pipe-\d{3}/ },
];

interface Load {
  ms: number;
  calls: Map<string, number>;
  apiBytes: number;
}

async function coldLoad(browser: Browser, url: string, row: RegExp): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page: Page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const calls = new Map<string, number>();
  const sizes: Promise<number>[] = [];
  const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
  page.on('request', (request) => {
    if (!isApi(request.url())) return;
    const method = new URL(request.url()).pathname.slice('/api/'.length);
    calls.set(method, (calls.get(method) ?? 0) + 1);
  });
  page.on('requestfinished', (request) => {
    if (!isApi(request.url())) return;
    // Decoded bytes (what the page parses; a compressed answer moves fewer).
    sizes.push(
      (async () => (await (await request.response())?.body())?.length ?? 0)().catch(() => 0),
    );
  });
  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.getByRole('row').filter({ hasText: row }).first().waitFor();
  const ms = Date.now() - started;
  await page.waitForLoadState('networkidle').catch(() => undefined);
  const apiBytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  await context.close();
  return { ms, calls, apiBytes };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const total = (calls: Map<string, number>) => [...calls.values()].reduce((a, b) => a + b, 0);

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs });
try {
  for (const dist of options.dists.split(',')) {
    const server = await startServerProcess(
      {
        IVORY_WEB_DIST: path.resolve(dist),
        IVORY_SEED: 'false',
        IVORY_LOG_LEVEL: 'info',
        IVORY_DISABLE_TELEMETRY: 'true',
      },
      dataDir,
    );
    try {
      for (const target of pages) {
        const loads: Load[] = [];
        for (let i = 0; i < LOADS; i++)
          loads.push(await coldLoad(browser, server.url + target.path, target.row));
        const byMethod = [...(loads[0]?.calls ?? new Map<string, number>())]
          .sort((a, b) => b[1] - a[1])
          .map(([method, count]) => `${method.replace(/^.*\//, '')}×${count}`)
          .join(' ');
        printFigure(
          `${path.basename(path.dirname(path.resolve(dist)))}/${path.basename(dist)}: ${target.label}`,
          `${median(loads.map((l) => l.ms))} ms (${loads.map((l) => l.ms).join(', ')}); ` +
            `API calls ${loads.map((l) => total(l.calls)).join(', ')}; ` +
            `API KiB decoded ${loads.map((l) => (l.apiBytes / 1024).toFixed(0)).join(', ')}`,
        );
        printFigure('  calls of the first load', byMethod);
      }
    } finally {
      await server.kill('SIGTERM');
    }
  }
} finally {
  await browser.close();
}
