/**
 * Head to head: cold loads of four pages against one server holding the data sets of the
 * comparison in issue #20, for Ivory's own console and, when given, any other console serving the
 * same server (the real Pachyderm Console is how the reference figures were taken):
 *
 *   npm run build -w web && npx tsx perf/head-to-head.ts [--other http://host:port] [--loads 7]
 *
 * The other console must reach this run's server: the script prints its URL and waits for Enter
 * when `--other` is given, so the other console can be started against it. Pages (one project
 * each): repos list of 1,000 repos, the DAG of 500 pipelines (510 nodes), the jobs list of 2,000
 * jobs, and the logs of a job that printed 50,000 lines. A figure is the median time from
 * navigation to the page's real content (its rows, nodes or last log line visible), each load in
 * a new browser context with an empty cache, and the bytes transferred. A plain static page on a
 * bare node:http server is timed the same way as the baseline of this machine. Prints figures,
 * asserts nothing.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import type { JobInfo } from '@ivory/api';
import { chromiumArgs, CHROMIUM_PATH } from '../e2e/support/chromium.ts';
import { modifyFile, ok, repo, results } from '../server/test/helpers/api-client.ts';
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { printFigure, timed } from './support/figures.ts';

const repoRoot = path.join(import.meta.dirname, '..');
const { values: options } = parseArgs({
  options: {
    other: { type: 'string' },
    loads: { type: 'string', default: '7' },
    // Keeps the data sets in this folder and reuses them on the next run (skips the setup).
    'data-dir': { type: 'string' },
    // Only these pages (comma-separated names: repos, dag, jobs, logs).
    pages: { type: 'string' },
  },
});
const LOADS = Number(options.loads);
const REPOS = 1000;
const PIPELINES = 500;
const JOB_COMMITS = 500;
const JOB_PIPELINES = 4;
const LOG_LINES = 50_000;

/** The figures of issue #20's table for the real Pachyderm Console, in ms. */
const reference = { repos: 1383, dag: 2865, jobs: 1287, logs: 1781 };

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size)
    await Promise.all(items.slice(i, i + size).map(work));
}

async function commitOne(url: string, project: string, name: string, file: string, text: string) {
  const commit = await ok(url, 'pfs_v2.API/StartCommit', {
    branch: { repo: repo(name, project), name: 'master' },
  });
  const written = await modifyFile(url, [
    { setCommit: commit },
    { addFile: { path: file, raw: Buffer.from(text).toString('base64') } },
  ]);
  if (written.status !== 200) throw new Error(`ModifyFile: ${JSON.stringify(written.body)}`);
  await ok(url, 'pfs_v2.API/FinishCommit', { commit });
}

const pipelineSpec = (project: string, name: string, input: unknown, cmd: string[]) => ({
  createPipelineRequestJson: JSON.stringify({
    pipeline: { name, project: { name: project } },
    transform: { cmd },
    input,
  }),
});

/** Waits until `count` jobs of the project have finished; returns the last job seen. */
async function jobsFinished(url: string, project: string, count: number) {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const jobs = (await results(url, 'pps_v2.API/ListJob', {
      projects: [{ name: project }],
    })) as JobInfo[];
    const done = jobs.filter((job) => ['JOB_SUCCESS', 'JOB_FAILURE'].includes(job.state));
    if (done.length >= count) return done[0]!;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${project}: jobs never finished`);
}

async function buildDataSets(url: string) {
  // 1,000 repos, each with one commit (the list shows a last commit and a size per row).
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'repos1k' } });
  const names = Array.from({ length: REPOS }, (_, i) => `repo-${String(i).padStart(4, '0')}`);
  await inBatches(names, 16, async (name) => {
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo(name, 'repos1k') });
    await commitOne(url, 'repos1k', name, '/data.txt', `${name}\n`);
  });

  // 10 repos and 500 pipelines in chains of fifty, paused: 510 nodes.
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'dag500' } });
  for (let i = 0; i < 10; i++)
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo(`source-${i}`, 'dag500') });
  for (let i = 0; i < PIPELINES; i++) {
    const name = `pipe-${String(i).padStart(3, '0')}`;
    const upstream = i % 50 === 0 ? `source-${i / 50}` : `pipe-${String(i - 1).padStart(3, '0')}`;
    await ok(
      url,
      'pps_v2.API/CreatePipelineV2',
      pipelineSpec('dag500', name, { pfs: { project: 'dag500', repo: upstream, glob: '/' } }, [
        'true',
      ]),
    );
    await ok(url, 'pps_v2.API/StopPipeline', { pipeline: { project: { name: 'dag500' }, name } });
  }

  // 2,000 jobs: four pipelines over one repo that gets 500 commits.
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'jobs2k' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('events', 'jobs2k') });
  for (let p = 0; p < JOB_PIPELINES; p++)
    await ok(
      url,
      'pps_v2.API/CreatePipelineV2',
      pipelineSpec(
        'jobs2k',
        `count-${p}`,
        { pfs: { project: 'jobs2k', repo: 'events', glob: '/' } },
        ['true'],
      ),
    );
  for (let c = 0; c < JOB_COMMITS; c++)
    await commitOne(url, 'jobs2k', 'events', `/e${c}.txt`, `${c}\n`);
  await jobsFinished(url, 'jobs2k', JOB_COMMITS * JOB_PIPELINES);

  // One job that printed 50,000 lines.
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'logs50k' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('source', 'logs50k') });
  await commitOne(url, 'logs50k', 'source', '/one.txt', 'x\n');
  await ok(
    url,
    'pps_v2.API/CreatePipelineV2',
    pipelineSpec('logs50k', 'chatty', { pfs: { project: 'logs50k', repo: 'source', glob: '/' } }, [
      'seq',
      '1',
      String(LOG_LINES),
    ]),
  );
  const logJob = await jobsFinished(url, 'logs50k', 1);
  return { logJobId: logJob.job.id };
}

interface PageCase {
  name: keyof typeof reference;
  label: string;
  path: string;
  /** Resolves when the page shows its real content. */
  content(page: Page): Promise<unknown>;
}

function pages(logJobId: string): PageCase[] {
  return [
    {
      name: 'repos',
      label: 'repos list, 1,000 repos',
      path: '/project/repos1k/repos',
      content: (page) =>
        page
          .getByRole('row')
          .filter({ hasText: /repo-\d{4}/ })
          .first()
          .waitFor(),
    },
    {
      name: 'dag',
      label: 'DAG, 500 pipelines (510 nodes)',
      path: '/lineage/dag500',
      // Ivory draws a fitted graph of this size on a canvas, without names, and marks its first
      // paint after layout (window.__lineagePainted); a console that draws names in SVG shows one.
      content: (page) =>
        page.waitForFunction(
          () =>
            (window as { __lineagePainted?: number }).__lineagePainted ||
            document.querySelector('.react-flow__node') ||
            Array.from(document.querySelectorAll('svg text')).some((t) =>
              /^pipe-\d{3}$/.test(t.textContent ?? ''),
            ),
          null,
          { polling: 16 },
        ),
    },
    {
      name: 'jobs',
      label: 'jobs list, 2,000 jobs',
      path: '/project/jobs2k/jobs',
      content: (page) =>
        page
          .getByRole('row')
          .filter({ hasText: /count-\d/ })
          .first()
          .waitFor(),
    },
    {
      name: 'logs',
      label: 'job logs, 50,000 lines',
      path: `/project/logs50k/pipelines/chatty/jobs/${logJobId}/logs`,
      content: (page) =>
        page
          .getByText(new RegExp(`^\\s*${LOG_LINES}\\s*$`))
          .first()
          .waitFor(),
    },
  ];
}

/** Bytes the page moved over the network: the document and every resource, as transferred. */
const transferredBytes = () =>
  [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
    .map((entry) => (entry as PerformanceResourceTiming).transferSize ?? 0)
    .reduce((sum, size) => sum + size, 0);

interface LoadFigures {
  median: number;
  all: number[];
  bytes: number;
  /** Per load, at the content: main-thread task time (ms, CDP Performance.getMetrics). */
  taskMs: number[];
  /** Per load, at the content: layout time (ms, LayoutDuration). */
  layoutMs: number[];
  /** Per load, by the network going idle: API calls made. */
  apiCalls: number[];
}

/** The page's main-thread metrics so far (CDP), in ms. */
async function mainThreadMs(session: CDPSession): Promise<{ task: number; layout: number }> {
  const { metrics } = (await session.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return { task: value('TaskDuration') * 1000, layout: value('LayoutDuration') * 1000 };
}

/** `LOADS` cold loads of `target`, each in a new browser context. */
async function coldLoads(
  browser: Browser,
  target: string,
  content: (page: Page) => Promise<unknown>,
): Promise<LoadFigures> {
  const all: number[] = [];
  const taskMs: number[] = [];
  const layoutMs: number[] = [];
  const apiCalls: number[] = [];
  let bytes = 0;
  for (let load = 0; load < LOADS; load++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const session = await context.newCDPSession(page);
    await session.send('Performance.enable');
    let calls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) calls++;
    });
    const started = Date.now();
    await page.goto(target, { waitUntil: 'commit' });
    await content(page);
    all.push(Date.now() - started);
    const atContent = await mainThreadMs(session);
    taskMs.push(Math.round(atContent.task));
    layoutMs.push(Math.round(atContent.layout));
    // Lines streamed after the content showed still count as this page's bytes.
    await page.waitForLoadState('networkidle').catch(() => undefined);
    apiCalls.push(calls);
    bytes = await page.evaluate(transferredBytes);
    await context.close();
  }
  const median = [...all].sort((a, b) => a - b)[Math.floor(all.length / 2)]!;
  return { median, all, bytes, taskMs, layoutMs, apiCalls };
}

/** A plain page on a bare node:http server: what a cold load costs this machine and harness. */
async function staticBaseline(browser: Browser): Promise<LoadFigures> {
  const html =
    '<!doctype html><html><body><table><tr><td>baseline row</td></tr></table></body></html>';
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  try {
    return await coldLoads(browser, `http://127.0.0.1:${port}/`, (page) =>
      page.getByRole('row').first().waitFor(),
    );
  } finally {
    server.close();
  }
}

const describe = (figures: LoadFigures) =>
  `${figures.median} ms (${figures.all.join(', ')}), ${(figures.bytes / 1024).toFixed(0)} KiB` +
  `; main-thread task ms at content (${figures.taskMs.join(', ')})` +
  `, layout ms (${figures.layoutMs.join(', ')}), API calls (${figures.apiCalls.join(', ')})`;

const dataDir = options['data-dir'] ? path.resolve(options['data-dir']) : undefined;
if (dataDir) await mkdir(dataDir, { recursive: true });
const builtMarker = dataDir ? path.join(dataDir, 'head-to-head.json') : undefined;
const server = await startServerProcess(
  {
    IVORY_WEB_DIST: path.join(repoRoot, 'web', 'dist'),
    IVORY_SEED: 'false',
    // The start helper reads the address from the "listening" line, logged at info.
    IVORY_LOG_LEVEL: 'info',
    IVORY_DISABLE_TELEMETRY: 'true',
  },
  dataDir,
);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs });
try {
  let logJobId = '';
  if (builtMarker && existsSync(builtMarker)) {
    ({ logJobId } = JSON.parse(await readFile(builtMarker, 'utf8')) as { logJobId: string });
    printFigure('setup: the four data sets', `reused from ${dataDir}`);
  } else {
    const setup = await timed(async () => {
      ({ logJobId } = await buildDataSets(server.url));
    });
    if (builtMarker) await writeFile(builtMarker, JSON.stringify({ logJobId }));
    printFigure('setup: the four data sets', `${setup.toFixed(1)} s`);
  }
  const only = options.pages?.split(',');
  if (options.other) {
    console.log(`\nThe data is ready on ${server.url}; point the other console at it.`);
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    await prompt.question(`Press Enter when ${options.other} serves it... `);
    prompt.close();
  }

  printFigure('plain static page (baseline)', describe(await staticBaseline(browser)));
  for (const page of pages(logJobId).filter((p) => !only || only.includes(p.name))) {
    const ivory = await coldLoads(browser, server.url + page.path, page.content);
    printFigure(`Ivory: ${page.label}`, describe(ivory));
    const target = reference[page.name] / 2;
    let against = `real console ${reference[page.name]} ms (issue #20) / Ivory = ${(reference[page.name] / ivory.median).toFixed(2)}`;
    if (options.other) {
      const other = await coldLoads(browser, options.other + page.path, page.content);
      printFigure(`other console: ${page.label}`, describe(other));
      against = `other / Ivory = ${(other.median / ivory.median).toFixed(2)}`;
    }
    printFigure(`  ${against}`, `target ≤ ${target.toFixed(0)} ms`);
  }
} finally {
  await browser.close();
  await server.kill('SIGTERM');
}
