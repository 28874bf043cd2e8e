/**
 * Lineage graph and log viewer figures (not part of the test suite):
 *   npm run build -w web && npx tsx perf/lineage-figures.ts [repos] [pipelines]
 *     [--loads N] [--dist DIR]... [--data-dir DIR] [--no-extras]
 * Starts the built server on a fresh data dir, creates a project `perf` of 1,900 repos and 100
 * pipelines (paused at once, chained in tens: a 2,000-node graph) through the API, then in
 * Chromium prints: time to lay out and first paint the lineage, frames per second while the
 * pane is dragged (fitted, where every node is a simple box, and at 100 %, where only the
 * viewport is drawn), and the log viewer's time to show the tail of 100,000 lines.
 * Targets: under 1 s to first paint, 30+ fps. Figures only, no assertions.
 * `--loads N` measures the first paint N times (each in a new browser context with the app's
 * chunks in its HTTP cache, as the single figure is taken) and prints each and the spread;
 * several `--dist` folders (builds of the web app) are measured in turns against the same data,
 * for an A/B in one session; `--data-dir` keeps the data between runs; `--no-extras` skips the
 * drag fps and the log viewer.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromiumArgs, CHROMIUM_PATH } from '../e2e/support/chromium.ts';
import { modifyFile, ok, repo } from '../server/test/helpers/api-client.ts';
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { printFigure } from './support/figures.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    loads: { type: 'string', default: '1' },
    dist: { type: 'string', multiple: true },
    'data-dir': { type: 'string' },
    'no-extras': { type: 'boolean', default: false },
  },
});
const repoCount = Number(positionals[0] ?? 1900);
const pipelineCount = Number(positionals[1] ?? 100);
const loads = Number(flags.loads);
const dists = (flags.dist ?? [path.join(repoRoot, 'web', 'dist')]).map((d) => path.resolve(d));
const LOG_LINES = 100_000;
const project = 'perf';

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size)
    await Promise.all(items.slice(i, i + size).map(work));
}

async function createProject(url: string) {
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: project } });
  const repos = Array.from({ length: repoCount }, (_, i) => `repo-${String(i).padStart(4, '0')}`);
  await inBatches(repos, 16, (name) =>
    ok(url, 'pfs_v2.API/CreateRepo', { repo: repo(name, project) }),
  );
  // Pipelines in chains of ten: the first reads two repos, each next one its predecessor and a repo.
  for (let i = 0; i < pipelineCount; i++) {
    const name = `pipe-${String(i).padStart(3, '0')}`;
    const upstream =
      i % 10 === 0 ? repos[(i * 7) % repos.length] : `pipe-${String(i - 1).padStart(3, '0')}`;
    await ok(url, 'pps_v2.API/CreatePipelineV2', {
      createPipelineRequestJson: JSON.stringify({
        pipeline: { name, project: { name: project } },
        transform: { cmd: ['true'] },
        input: {
          cross: [
            { pfs: { project, repo: upstream, glob: '/' } },
            { pfs: { project, repo: repos[(i * 13 + 5) % repos.length], glob: '/' } },
          ],
        },
      }),
    });
    await ok(url, 'pps_v2.API/StopPipeline', { pipeline: { project: { name: project }, name } });
  }
}

async function createLogPipeline(url: string) {
  const src = repo('log-source', project);
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: src });
  const commit = await ok(url, 'pfs_v2.API/StartCommit', { branch: { repo: src, name: 'master' } });
  await modifyFile(url, [
    { setCommit: commit },
    { addFile: { path: '/one.txt', raw: Buffer.from('x\n').toString('base64') } },
  ]);
  await ok(url, 'pfs_v2.API/FinishCommit', { commit });
  const pipeline = { project: { name: project }, name: 'chatty' };
  await ok(url, 'pps_v2.API/CreatePipelineV2', {
    createPipelineRequestJson: JSON.stringify({
      pipeline,
      transform: { cmd: ['sh', '-c', `seq 1 ${LOG_LINES}`] },
      input: { pfs: { project, repo: 'log-source', glob: '/' } },
    }),
  });
  for (let attempt = 0; attempt < 600; attempt++) {
    const jobs = await fetch(`${url}/api/pps_v2.API/ListJob`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pipeline }),
    }).then((r) => r.text());
    const job = jobs
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).result)
      .find((j) => j && ['JOB_SUCCESS', 'JOB_FAILURE'].includes(j.state));
    if (job) return job.job.id as string;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the log pipeline never finished');
}

// Passed as strings: tsx would wrap inner functions in a `__name` helper the page does not have.
const startCounting = `(() => {
  window.__frames = 0;
  window.__counting = true;
  const tick = () => {
    if (!window.__counting) return;
    window.__frames++;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;
const stopCounting = `(() => { window.__counting = false; return window.__frames; })()`;

/** Frames counted with requestAnimationFrame while the mouse drags the pane in a loop. */
async function dragFps(page: Page, steps = 90): Promise<number> {
  const box = await page.locator('.react-flow__pane').boundingBox();
  if (!box) throw new Error('no pane');
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.evaluate(startCounting);
  const started = Date.now();
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    const angle = (i / steps) * Math.PI * 2;
    await page.mouse.move(cx + Math.cos(angle) * 250 - 250, cy + Math.sin(angle) * 150);
  }
  await page.mouse.up();
  const seconds = (Date.now() - started) / 1000;
  const frames = (await page.evaluate(stopCounting)) as number;
  return frames / seconds;
}

interface PaintFigures {
  wall: number;
  painted: number;
  layout: number;
  worker: number;
  nodes: number;
  data: number;
  script: number;
  marks: Record<string, number>;
}

/** One cold visit of the lineage in a new context whose HTTP cache holds the app's chunks. */
async function measurePaint(
  browser: Browser,
  url: string,
): Promise<{ page: Page; f: PaintFigures }> {
  const context = await browser.newContext({
    viewport: { width: 1600, height: 1000 },
    // The figures are read with page.evaluate of strings, which the app's CSP (no eval) refuses.
    bypassCSP: true,
  });
  const page = await context.newPage();
  // Warm the HTTP cache with the app's chunks, as a returning user has them.
  await page.goto(`${url}/project/${project}/pipelines`);
  await page.getByRole('heading', { name: 'Pipelines' }).waitFor();
  const started = Date.now();
  await page.goto(`${url}/lineage/${project}`);
  await page.waitForFunction(
    () => (window as { __lineagePainted?: number }).__lineagePainted,
    null,
    { timeout: 60_000, polling: 16 },
  );
  const wall = Date.now() - started;
  const f = (await page.evaluate(`({
    painted: window.__lineagePainted ?? 0,
    layout: window.__lineageLayoutMs ?? 0,
    worker: window.__lineageWorkerMs ?? 0,
    nodes: Number(document.querySelector('[data-testid="lineage-graph"]')?.getAttribute('data-node-count')),
    data: Math.max(...['ListRepo', 'ListPipeline'].map((m) =>
      performance.getEntriesByType('resource').find((e) => e.name.includes(m))?.responseEnd ?? 0)),
    script: Math.max(0, ...performance.getEntriesByType('resource')
      .filter((e) => /\\.js$/.test(e.name))
      .map((e) => e.responseEnd)),
    marks: Object.fromEntries([
      ...performance.getEntriesByType('mark').filter((m) => m.name.startsWith('lineage:'))
        .map((m) => [m.name, m.startTime]),
      ...performance.getEntriesByType('resource')
        .filter((e) => /LineageScreen|LineageGraph|layout\\.worker|ListRepo|ListPipeline/.test(e.name))
        .map((e) => [e.name.replace(/^.*\\//, '').replace(/-[\\w-]{8}\\.js$/, '.js') + ' start..end',
          Math.round(e.startTime) + '..' + Math.round(e.responseEnd)]),
    ]),
  })`)) as Omit<PaintFigures, 'wall'>;
  return { page, f: { ...f, wall } };
}

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return `median ${median.toFixed(0)} ms (${(sorted[0] ?? 0).toFixed(0)}–${(sorted.at(-1) ?? 0).toFixed(0)}); runs ${values.map((v) => v.toFixed(0)).join(', ')}`;
};

async function main() {
  const dataDir = flags['data-dir'] ? path.resolve(flags['data-dir']) : undefined;
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const fresh = !dataDir || !existsSync(path.join(dataDir, '.lineage-figures-ready'));
  const env = (dist: string) => ({
    IVORY_WEB_DIST: dist,
    IVORY_SEED: 'false',
    IVORY_LOG_LEVEL: 'info',
    IVORY_DISABLE_TELEMETRY: 'true',
  });
  let server = await startServerProcess(env(dists[0] as string), dataDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs });
  try {
    let started = Date.now();
    if (fresh) {
      await createProject(server.url);
      if (dataDir)
        await import('node:fs/promises').then((fs) =>
          fs.writeFile(path.join(dataDir, '.lineage-figures-ready'), ''),
        );
      printFigure(
        'setup: repos + pipelines created',
        `${repoCount} + ${pipelineCount} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }

    const painted = new Map<string, number[]>(dists.map((d) => [d, []]));
    let last: { page: Page; f: PaintFigures } | null = null;
    for (let round = 0; round < loads; round++) {
      for (const dist of dists) {
        if (dists.length > 1) {
          await server.kill('SIGTERM');
          server = await startServerProcess(env(dist), server.dataDir);
        }
        if (last) await last.page.context().close();
        last = await measurePaint(browser, server.url);
        const { f } = last;
        painted.get(dist)?.push(f.painted);
        const tag = dists.length > 1 ? `[${path.basename(dist)}] ` : '';
        if (round === 0 && dist === dists[0]) printFigure('lineage graph nodes', String(f.nodes));
        if (loads === 1 && dists.length === 1) {
          printFigure('lineage: last script chunk loaded at', `${f.script.toFixed(0)} ms`);
          printFigure('lineage: repos and pipelines fetched at', `${f.data.toFixed(0)} ms`);
          printFigure('lineage: layout, ELK time inside the worker', `${f.worker.toFixed(0)} ms`);
          printFigure('lineage: layout, request to positions', `${f.layout.toFixed(0)} ms`);
          printFigure(
            'lineage: navigation to first paint (page clock)',
            `${f.painted.toFixed(0)} ms`,
          );
          printFigure('lineage: navigation to first paint (wall clock)', `${f.wall} ms`);
          for (const [name, at] of Object.entries(f.marks))
            printFigure(`  ${name}`, typeof at === 'number' ? `${at.toFixed(0)} ms` : String(at));
        } else {
          printFigure(
            `${tag}run ${round + 1}: first paint (page clock)`,
            `${f.painted.toFixed(0)} ms (wall ${f.wall}, data at ${f.data.toFixed(0)}, layout ${f.layout.toFixed(0)}, ELK ${f.worker.toFixed(0)})`,
          );
          if (process.env.LINEAGE_MARKS)
            for (const [name, at] of Object.entries(f.marks))
              printFigure(`  ${name}`, typeof at === 'number' ? `${at.toFixed(0)} ms` : String(at));
        }
      }
    }
    if (loads > 1 || dists.length > 1)
      for (const [dist, values] of painted)
        printFigure(
          `lineage: first paint${dists.length > 1 ? ` [${path.basename(dist)}]` : ''}`,
          spread(values),
        );
    if (flags['no-extras'] || !last) return;
    const { page } = last;

    await page.waitForTimeout(500);
    printFigure(
      'lineage: drag fps, fitted (all nodes, simple boxes)',
      (await dragFps(page)).toFixed(1),
    );
    await page.evaluate(() =>
      document.querySelector<HTMLButtonElement>('.react-flow__controls-zoomin')?.click(),
    );
    for (let i = 0; i < 5; i++) await page.locator('.react-flow__controls-zoomin').click();
    await page.waitForTimeout(500);
    printFigure('lineage: drag fps, zoomed in (viewport culled)', (await dragFps(page)).toFixed(1));

    started = Date.now();
    const jobId = await createLogPipeline(server.url);
    printFigure(
      'setup: job printing 100,000 lines ran',
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    started = Date.now();
    await page.goto(`${server.url}/project/${project}/pipelines/chatty/jobs/${jobId}/logs`);
    await page
      .locator('[data-testid="log-line"] > span:last-child', {
        hasText: new RegExp(`^${LOG_LINES}\\s*$`),
      })
      .waitFor({ timeout: 120_000 });
    printFigure(
      'logs: navigation to the tail of 100,000 lines shown',
      `${Date.now() - started} ms`,
    );
    const count = await page.getByTestId('log-viewer').getAttribute('data-line-count');
    printFigure('logs: lines in the viewer', String(count));
    const domLines = await page.locator('[data-testid="log-line"]').count();
    printFigure('logs: line elements in the DOM', String(domLines));
  } finally {
    await browser.close();
    await server.kill('SIGTERM');
  }
}

await main();
