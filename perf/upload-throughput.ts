/**
 * Upload throughput of the folder-upload modal's engine (packages/api/src/upload), in Node:
 * 8 × 128 MiB files (1 GiB) generated in a temp dir, sent through startUploads + finishUploads
 * (20 MiB chunks, one after another, Blob slices streamed from disk via openAsBlob) to a server
 * this script starts, compared with fs.copyFile of the same files in the same run.
 *
 *   npx tsx perf/upload-throughput.ts            (IVORY_PERF_FILES / IVORY_PERF_FILE_MIB to resize)
 *
 * Prints labelled figures; no assertions. Target: ratio ≥ 0.3.
 */
import { randomFillSync } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createApiClient,
  createProject,
  createRepo,
  createUploadItem,
  finishUploads,
  startUploads,
  type UploadFile,
} from '@ivory/api';
import { startServerProcess } from '../server/test/helpers/server-process.ts';

const FILES = Number(process.env.IVORY_PERF_FILES ?? 8);
const FILE_MIB = Number(process.env.IVORY_PERF_FILE_MIB ?? 128);
const MiB = 1024 * 1024;

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

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const fmt = (value: number, digits = 2) => value.toFixed(digits);

async function main() {
  const root = await mkdtemp(path.join(tmpdir(), 'ivory-perf-upload-'));
  const folder = path.join(root, 'bolt');
  const copies = path.join(root, 'copies');
  await mkdir(folder, { recursive: true });
  await mkdir(copies, { recursive: true });
  const names = Array.from({ length: FILES }, (_, i) => `part-${String(i).padStart(2, '0')}.bin`);
  const totalBytes = FILES * FILE_MIB * MiB;
  console.log(
    `files:                 ${FILES} × ${FILE_MIB} MiB = ${fmt(totalBytes / MiB / 1024, 3)} GiB`,
  );

  const generated = process.hrtime.bigint();
  for (const name of names) await writeRandomFile(path.join(folder, name), FILE_MIB * MiB);
  console.log(`generate:              ${fmt(seconds(generated))} s`);

  const server = await startServerProcess({ IVORY_LOG_LEVEL: 'info' });
  try {
    const client = createApiClient({ baseUrl: server.url, getToken: () => null });
    await createProject(client, { project: 'eda' });
    await createRepo(client, { project: 'eda', repo: 'perf' });

    const copyStart = process.hrtime.bigint();
    for (const name of names) await copyFile(path.join(folder, name), path.join(copies, name));
    const copySeconds = seconds(copyStart);

    const items = await Promise.all(
      names.map(async (name) => {
        const blob = await openAsBlob(path.join(folder, name));
        // A File over the lazily read Blob: slices stream from disk, nothing is loaded whole.
        const file: UploadFile = new File([blob as unknown as Blob], name);
        return createUploadItem(file, `bolt/${name}`);
      }),
    );
    const uploadStart = process.hrtime.bigint();
    const run = await startUploads({
      items,
      repo: 'perf',
      path: '/rtl',
      description: 'throughput run',
      baseUrl: server.url,
    });
    if (run.error) throw new Error(`upload failed: ${run.error}`);
    const sentSeconds = seconds(uploadStart);
    const finishStart = process.hrtime.bigint();
    const finishError = await finishUploads({
      uploadIds: run.items,
      description: 'throughput run',
      baseUrl: server.url,
    });
    if (finishError) throw new Error(`finish failed: ${finishError}`);
    const finishSeconds = seconds(finishStart);
    const uploadSeconds = sentSeconds + finishSeconds;

    const mibs = (s: number) => totalBytes / MiB / s;
    console.log(`copyFile:              ${fmt(copySeconds)} s  ${fmt(mibs(copySeconds), 1)} MiB/s`);
    console.log(`upload (chunks):       ${fmt(sentSeconds)} s  ${fmt(mibs(sentSeconds), 1)} MiB/s`);
    console.log(`upload (finish):       ${fmt(finishSeconds)} s`);
    console.log(
      `upload (total):        ${fmt(uploadSeconds)} s  ${fmt(mibs(uploadSeconds), 1)} MiB/s`,
    );
    console.log(`ratio upload/copyFile: ${fmt(copySeconds / uploadSeconds, 3)}  (target ≥ 0.3)`);
    console.log(`ratio chunks/copyFile: ${fmt(copySeconds / sentSeconds, 3)}  (chunk phase only)`);
  } finally {
    await server.kill('SIGTERM');
    await rm(server.dataDir, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  }
}

await main();
