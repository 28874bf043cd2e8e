/**
 * Browse figures: time to the first rows of a 100,000-file folder, time to the first rows of a
 * 1 GiB CSV preview, and the console's initial JavaScript and CSS (gzip) sizes. A cold figure is
 * the median of several page loads, each in a new browser context; a warm one, a load after one
 * in the same page. Starts its own server on a temp data dir and Chromium (/usr/bin/chromium);
 * prints figures, asserts nothing.
 *
 *   npm run build -w web && npx tsx perf/browse-figures.ts
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import {
  createUploadItem,
  finishUploads,
  startUploads,
  type Commit,
  type CommitInfo,
} from '@ivory/api';
import { CHROMIUM_PATH, chromiumArgs } from '../e2e/support/chromium.ts';
import { MiB, printFigure, timed, withScratchDir } from './support/figures.ts';

const repoRoot = path.join(import.meta.dirname, '..');
const FOLDER_FILES = 100_000;
const CSV_BYTES = 1024 * MiB;
/** Cold page loads per figure: each in a new browser context, with an empty cache. */
const COLD_LOADS = 5;

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  return typeof address === 'object' && address ? address.port : 0;
}

async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), IVORY_DATA_DIR: dataDir, IVORY_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, child };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill();
  throw new Error('the server did not start');
}

const repoOf = (name: string) => ({ name, type: 'user', project: { name: 'default' } });

async function call<T>(url: string, method: string, body: unknown): Promise<T> {
  const response = await fetch(`${url}/api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/** One ModifyFile request of 100,000 addFile messages into `/big/`. */
async function makeFolder(url: string): Promise<string> {
  await call(url, 'pfs_v2.API/CreateRepo', { repo: repoOf('huge') });
  const commit = await call<Commit>(url, 'pfs_v2.API/StartCommit', {
    branch: { repo: repoOf('huge'), name: 'master' },
  });
  const raw = Buffer.from('small file\n').toString('base64');
  const lines = [JSON.stringify({ setCommit: commit })];
  for (let i = 0; i < FOLDER_FILES; i++) {
    lines.push(
      JSON.stringify({ addFile: { path: `/big/f${String(i).padStart(6, '0')}.txt`, raw } }),
    );
  }
  const response = await fetch(`${url}/api/pfs_v2.API/ModifyFile`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: lines.join('\n') + '\n',
  });
  if (!response.ok) throw new Error(`ModifyFile: ${response.status} ${await response.text()}`);
  await call(url, 'pfs_v2.API/FinishCommit', { commit });
  return commit.id;
}

/** Writes a CSV of about `bytes` on disk. */
async function writeCsv(file: string, bytes: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('id,name,value,flag\n');
  let written = 0;
  let row = 0;
  while (written < bytes) {
    let block = '';
    for (let i = 0; i < 10_000; i++, row++)
      block += `${row},name_${row},${(row * 0.37).toFixed(2)},${row % 2 === 0}\n`;
    written += block.length;
    if (!out.write(block)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Sends the CSV with the chunked upload engine (20 MiB chunks) into one new commit. */
async function uploadCsv(url: string, file: string): Promise<string> {
  await call(url, 'pfs_v2.API/CreateRepo', { repo: repoOf('tables') });
  const blob = await openAsBlob(file);
  const item = createUploadItem(new File([blob], 'big.csv'));
  const run = await startUploads({
    baseUrl: url,
    items: [item],
    repo: 'tables',
    path: '/',
    branch: 'master',
    projectId: 'default',
  });
  if (run.error) throw new Error(run.error);
  const failure = await finishUploads({ baseUrl: url, uploadIds: run.items });
  if (failure) throw new Error(failure);
  const head = await call<CommitInfo>(url, 'pfs_v2.API/InspectCommit', {
    commit: { repo: repoOf('tables'), id: '', branch: { repo: repoOf('tables'), name: 'master' } },
  });
  return head.commit.id;
}

/** Milliseconds from navigation to the first element matching `selector`. */
async function timeToFirst(page: Page, target: string, selector: string): Promise<number> {
  const started = Date.now();
  await page.goto(target);
  await page.waitForSelector(selector, { timeout: 60_000 });
  return Date.now() - started;
}

/**
 * `COLD_LOADS` cold page loads, each in a new browser context (nothing cached): the median and
 * every load, in milliseconds.
 */
async function coldLoads(
  browser: Browser,
  baseURL: string,
  target: string,
  selector: string,
): Promise<string> {
  const times: number[] = [];
  for (let load = 0; load < COLD_LOADS; load++) {
    const context = await browser.newContext({ baseURL });
    times.push(await timeToFirst(await context.newPage(), target, selector));
    await context.close();
  }
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
  return `${median} ms (median of ${times.join(', ')})`;
}

/** gzip size of what index.html loads before the first paint: its scripts, or its stylesheets. */
async function initialAssets(kind: 'js' | 'css'): Promise<{ gzip: number; files: number }> {
  const dist = path.join(repoRoot, 'web', 'dist');
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const patterns =
    kind === 'js'
      ? [
          /<script[^>]*type="module"[^>]*src="([^"]+)"/g,
          /<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g,
        ]
      : [/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g];
  const refs = new Set(
    patterns.flatMap((pattern) => [...html.matchAll(pattern)].map((match) => match[1] ?? '')),
  );
  let gzip = 0;
  for (const ref of refs) gzip += gzipSync(await readFile(path.join(dist, ref))).length;
  return { gzip, files: refs.size };
}

await withScratchDir(async (scratch) => {
  const { url, child } = await startServer(path.join(scratch, 'data'));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs });
  try {
    let folderCommit = '';
    const generate = await timed(async () => {
      folderCommit = await makeFolder(url);
    });
    printFigure('generate 100,000 files (one ModifyFile request)', `${generate.toFixed(1)} s`);

    const csvPath = path.join(scratch, 'big.csv');
    await writeCsv(csvPath, CSV_BYTES);
    let csvCommit = '';
    const upload = await timed(async () => {
      csvCommit = await uploadCsv(url, csvPath);
    });
    printFigure('upload a 1 GiB CSV (chunked upload engine)', `${upload.toFixed(1)} s`);
    // The page loads below should not share the disk with the write-back of the data just made.
    execFileSync('sync');

    const folder = `/project/default/repos/huge/commit/${folderCommit}/big/`;
    const row = '[data-testid="file-row"]';
    printFigure(
      'first rows of a 100,000-file folder, cold page load',
      await coldLoads(browser, url, folder, row),
    );
    const page = await browser.newPage({ baseURL: url });
    await timeToFirst(page, folder, row);
    printFigure(
      'first rows of a 100,000-file folder, warm page load',
      `${await timeToFirst(page, folder, row)} ms`,
    );
    // In-app navigation: from the repo root to the folder, JS already loaded.
    await page.goto(`/project/default/repos/huge/commit/${folderCommit}/`);
    await page.waitForSelector(row);
    const inApp = Date.now();
    await page.getByRole('link', { name: 'big', exact: true }).click();
    await page.waitForSelector(`${row}[data-path="/big/f000000.txt"]`);
    printFigure(
      'first rows of a 100,000-file folder, in-app navigation',
      `${Date.now() - inApp} ms`,
    );

    const csv = `/project/default/repos/tables/commit/${csvCommit}/big.csv`;
    const cell = '[data-testid="csv-preview"] [role="cell"]';
    printFigure(
      'first rows of a 1 GiB CSV preview, cold page load',
      await coldLoads(browser, url, csv, cell),
    );
    await timeToFirst(page, csv, cell);
    printFigure(
      'first rows of a 1 GiB CSV preview, warm page load',
      `${await timeToFirst(page, csv, cell)} ms`,
    );

    const js = await initialAssets('js');
    printFigure(
      `initial JavaScript, gzip (${js.files} files from index.html)`,
      `${(js.gzip / 1024).toFixed(1)} KiB`,
    );
    const css = await initialAssets('css');
    printFigure(
      `initial CSS, gzip (${css.files} files from index.html)`,
      `${(css.gzip / 1024).toFixed(1)} KiB`,
    );
    printFigure('targets', 'first rows < 1000 ms; initial JS < 300 KB gzip');
  } finally {
    await browser.close();
    child.kill();
    await once(child, 'exit');
  }
});
