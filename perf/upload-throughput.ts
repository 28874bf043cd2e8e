/**
 * Upload throughput of the chunked upload engine (packages/api/src/upload) against a bare
 * `node:http` receiver (perf/support/bare-receiver.ts: raw 20 MiB chunk bodies, running sha256,
 * write, one fsync per file) in the same run, in Node and in headless Chromium (/usr/bin/chromium).
 *
 * - Node: the engine's startUploads + finishUploads (multipart chunks, two in flight per file, Blob
 *   slices streamed from disk via openAsBlob) vs. fetch posting the same slices to the receiver.
 * - Chromium: the real folder-upload modal (/updatebolt/perf: attach the folder, Upload, Done,
 *   "upload file success.") vs. a page of the receiver posting the same File slices with fetch.
 *
 * Each round runs every variant once (alternating which goes first); the ratio is Ivory's MiB/s
 * over the bare receiver's in the same round. Prints every round, then min / median / max.
 *
 *   npm run build -w web && npx tsx perf/upload-throughput.ts
 *   (IVORY_PERF_FILES, IVORY_PERF_FILE_MIB, IVORY_PERF_ROUNDS resize; IVORY_PERF_BROWSER=0 skips
 *   Chromium.) Prints labelled figures; no assertions. Targets: ratio ≥ 0.8 in Node, ≥ 0.6 in
 *   Chromium.
 */
import { randomFillSync } from 'node:crypto';
import { createWriteStream, existsSync, openAsBlob, readFileSync } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import {
  type ApiClient,
  createApiClient,
  createProject,
  createRepo,
  createUploadItem,
  deleteRepo,
  finishUploads,
  startUploads,
  type UploadFile,
} from '@ivory/api';
import { CHROMIUM_PATH, chromiumArgs } from '../e2e/support/chromium.ts';
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { startBareReceiver, type BareReceiver } from './support/bare-receiver.ts';
import { MiB, printFigure, timed, withScratchDir } from './support/figures.ts';

const FILES = Number(process.env.IVORY_PERF_FILES ?? 4);
const FILE_MIB = Number(process.env.IVORY_PERF_FILE_MIB ?? 128);
const ROUNDS = Number(process.env.IVORY_PERF_ROUNDS ?? 3);
const BROWSER = process.env.IVORY_PERF_BROWSER !== '0';
const CHUNK = 20 * MiB;
const webDist = path.join(import.meta.dirname, '../web/dist');

async function writeRandomFile(target: string, bytes: number) {
  const out = createWriteStream(target);
  const block = Buffer.alloc(8 * MiB);
  for (let written = 0; written < bytes; written += block.length) {
    randomFillSync(block);
    const part = block.subarray(0, Math.min(block.length, bytes - written));
    if (!out.write(part)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

/** The same slices the engine sends, as raw bodies to the bare receiver. */
async function bareNode(receiver: BareReceiver, folder: string, names: string[]) {
  for (const name of names) {
    const blob = await openAsBlob(path.join(folder, name));
    const total = Math.max(1, Math.ceil(blob.size / CHUNK));
    for (let index = 0; index < total; index++) {
      const query = `name=${encodeURIComponent(`bolt/${name}`)}&index=${index}&total=${total}`;
      const response = await fetch(`${receiver.url}/chunk?${query}`, {
        method: 'POST',
        body: blob.slice(index * CHUNK, Math.min(blob.size, (index + 1) * CHUNK)),
      });
      if (!response.ok) throw new Error(`bare receiver: ${await response.text()}`);
      await response.arrayBuffer();
    }
  }
}

async function ivoryNode(url: string, folder: string, names: string[]) {
  const items = await Promise.all(
    names.map(async (name) => {
      const blob = await openAsBlob(path.join(folder, name));
      // A File over the lazily read Blob: slices stream from disk, nothing is loaded whole.
      const file: UploadFile = new File([blob as unknown as Blob], name);
      return createUploadItem(file, `bolt/${name}`);
    }),
  );
  const run = await startUploads({ items, repo: 'perf', path: '/rtl', baseUrl: url });
  if (run.error) throw new Error(`upload failed: ${run.error}`);
  const failure = await finishUploads({ uploadIds: run.items, baseUrl: url });
  if (failure) throw new Error(`finish failed: ${failure}`);
}

/** A page of the bare receiver posts the folder's File slices with fetch; returns seconds. */
async function bareChromium(browser: Browser, receiver: BareReceiver, folder: string) {
  const page = await browser.newPage();
  try {
    await page.goto(`${receiver.url}/`);
    await page.locator('input[type=file]').setInputFiles(folder);
    const ms = await page.evaluate(async (chunk) => {
      const input = document.querySelector('input') as HTMLInputElement;
      const started = performance.now();
      for (const file of Array.from(input.files ?? [])) {
        const total = Math.max(1, Math.ceil(file.size / chunk));
        for (let index = 0; index < total; index++) {
          const name = encodeURIComponent(file.webkitRelativePath);
          const response = await fetch(`/chunk?name=${name}&index=${index}&total=${total}`, {
            method: 'POST',
            body: file.slice(index * chunk, Math.min(file.size, (index + 1) * chunk)),
          });
          if (!response.ok) throw new Error(await response.text());
          await response.arrayBuffer();
        }
      }
      return performance.now() - started;
    }, CHUNK);
    return ms / 1000;
  } finally {
    await page.close();
  }
}

/** The folder-upload modal: attach, Upload, wait for Done, Done, wait for success; seconds. */
async function ivoryChromium(browser: Browser, url: string, folder: string, count: number) {
  const page = await browser.newPage();
  try {
    await page.goto(`${url}/updatebolt/perf`);
    const modal = page.getByTestId('eda-upload-modal');
    await modal.locator('input[type=file]').setInputFiles(folder);
    await modal.getByText(`Total: ${count} files`).waitFor();
    const primary = modal.getByRole('button', { name: /^(Upload|Done)$/ });
    const started = process.hrtime.bigint();
    await primary.click();
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('button')).some(
          (button) => button.textContent?.trim() === 'Done' && !button.disabled,
        ),
      undefined,
      { polling: 20, timeout: 600_000 },
    );
    await primary.click();
    await page.getByText('upload file success.').waitFor({ timeout: 600_000 });
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    await page.close();
  }
}

/** Bytes under `dir` (recursively). */
async function treeBytes(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    // The blob sweep may remove a file between the listing and its stat.
    if (entry.isFile())
      bytes += (await stat(path.join(entry.parentPath, entry.name)).catch(() => null))?.size ?? 0;
  }
  return bytes;
}

/**
 * Between runs each side deletes what it received (outside the timed window), as the bare
 * receiver does: on this VM, page cache on never-touched memory costs the writer several times
 * more than pages just freed, so a side keeping its files would pay for it in the next run.
 * Ivory: DeleteRepo, then wait for the blob sweep (blobs written in the last 5 s wait for it).
 */
async function dropUploads(client: ApiClient, dataDir: string) {
  await deleteRepo(client, { project: 'eda', repo: 'perf' }, true);
  const blobs = path.join(dataDir, 'blobs');
  for (let waited = 0; (await treeBytes(blobs)) > MiB && waited < 30_000; waited += 250)
    await new Promise((resolve) => setTimeout(resolve, 250));
  await createRepo(client, { project: 'eda', repo: 'perf' });
}

/** CPU seconds (user + system, all threads) a process has used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const spread = (values: number[], digits = 3) => {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `min ${sorted[0]!.toFixed(digits)}  median ${median.toFixed(digits)}  max ${sorted.at(-1)!.toFixed(digits)}`;
};

async function main(root: string) {
  const folder = path.join(root, 'bolt');
  await mkdir(folder, { recursive: true });
  const names = Array.from({ length: FILES }, (_, i) => `part-${String(i).padStart(2, '0')}.bin`);
  const totalMiB = FILES * FILE_MIB;
  printFigure('files', `${FILES} × ${FILE_MIB} MiB, 20 MiB chunks, ${ROUNDS} rounds`);
  for (const name of names) await writeRandomFile(path.join(folder, name), FILE_MIB * MiB);

  const browserRun = BROWSER && existsSync(path.join(webDist, 'index.html'));
  if (BROWSER && !browserRun) console.log('(no web/dist: run `npm run build -w web` for Chromium)');
  const server = await startServerProcess({ IVORY_LOG_LEVEL: 'info', IVORY_WEB_DIST: webDist });
  const receiver = await startBareReceiver(path.join(root, 'bare'));
  const browser = browserRun
    ? await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs })
    : null;
  try {
    const client = createApiClient({ baseUrl: server.url, getToken: () => null });
    await createProject(client, { project: 'eda' });
    await createRepo(client, { project: 'eda', repo: 'perf' });
    const ratios: Record<'node' | 'chromium', number[]> = { node: [], chromium: [] };
    const rates: Record<string, number[]> = {};
    const cpu: Record<string, number[]> = {};
    const note = (label: string, seconds: number) => (rates[label] ??= []).push(totalMiB / seconds);
    for (let round = 1; round <= ROUNDS; round++) {
      const bareFirst = round % 2 === 1;
      const variants: Array<[string, () => Promise<number>]> = [
        ['bare node', () => timed(() => bareNode(receiver, folder, names))],
        ['ivory node', () => timed(() => ivoryNode(server.url, folder, names))],
      ];
      if (browser) {
        variants.push(
          ['bare chromium', () => bareChromium(browser, receiver, folder)],
          ['ivory chromium', () => ivoryChromium(browser, server.url, folder, FILES)],
        );
      }
      const seconds: Record<string, number> = {};
      for (const pair of [variants.slice(0, 2), variants.slice(2)]) {
        for (const [label, run] of bareFirst ? pair : [...pair].reverse()) {
          const pid = label.startsWith('bare') ? receiver.pid : server.pid;
          const cpuBefore = cpuSeconds(pid);
          seconds[label] = await run();
          (cpu[label] ??= []).push((cpuSeconds(pid) - cpuBefore) / (totalMiB / 1024));
          note(label, seconds[label]);
          if (label.startsWith('bare')) {
            const hashes = Object.values(await receiver.hashes());
            if (hashes.length !== FILES)
              throw new Error(`bare receiver got ${hashes.length} files`);
            await receiver.clear();
          } else await dropUploads(client, server.dataDir);
        }
      }
      const line = (kind: 'node' | 'chromium') => {
        const bare = seconds[`bare ${kind}`];
        const ivory = seconds[`ivory ${kind}`];
        if (bare === undefined || ivory === undefined) return;
        const ratio = bare / ivory;
        ratios[kind].push(ratio);
        printFigure(
          `round ${round} ${kind}: ivory / bare receiver`,
          `${(totalMiB / ivory).toFixed(1)} / ${(totalMiB / bare).toFixed(1)} MiB/s = ${ratio.toFixed(3)}`,
        );
      };
      line('node');
      line('chromium');
    }
    for (const [label, values] of Object.entries(rates))
      printFigure(`${label} MiB/s`, spread(values, 1));
    for (const [label, values] of Object.entries(cpu))
      printFigure(`${label}: receiving process CPU s per GiB`, spread(values, 2));
    printFigure('upload ratio vs bare receiver, Node (target ≥ 0.8)', spread(ratios.node));
    if (browser)
      printFigure(
        'upload ratio vs bare receiver, Chromium (target ≥ 0.6)',
        spread(ratios.chromium),
      );
  } finally {
    await browser?.close();
    await receiver.kill();
    await server.kill('SIGTERM');
    await rm(server.dataDir, { recursive: true, force: true });
  }
}

await withScratchDir(main);
