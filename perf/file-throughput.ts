// Write and read throughput of one 256 MiB file through the platform API, each as a ratio to a
// plain disk copy of the same bytes measured in the same run (fs.copyFile + fsync, the same
// durability the server gives). Run: npx tsx perf/file-throughput.ts
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createApiClient, finishCommit, startCommit, type Commit } from '@ivory/api';
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { MiB, printFigure, throughput, timed, withScratchDir } from './support/figures.ts';

const FILE_BYTES = Number(process.env.PERF_FILE_MIB ?? 256) * MiB;
/** Pachyderm caps one ModifyFile message at 20 MiB; send 16 MiB of file per addFile. */
const MESSAGE_BYTES = 16 * MiB;

async function diskCopy(source: string, target: string): Promise<void> {
  await copyFile(source, target);
  const handle = await open(target, 'r');
  await handle.sync();
  await handle.close();
}

/** ModifyFile with a streamed NDJSON body: setCommit, then one addFile per 16 MiB of the file. */
async function writeThroughApi(url: string, commit: Commit, source: string): Promise<void> {
  const encoder = new TextEncoder();
  async function* messages() {
    yield encoder.encode(JSON.stringify({ setCommit: commit }) + '\n');
    for await (const chunk of createReadStream(source, { highWaterMark: MESSAGE_BYTES })) {
      const raw = (chunk as Buffer).toString('base64');
      yield encoder.encode(JSON.stringify({ addFile: { path: '/big.bin', raw } }) + '\n');
    }
  }
  const response = await fetch(`${url}/api/pfs_v2.API/ModifyFile`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    // Node's fetch streams an async iterable request body.
    body: messages() as unknown as BodyInit,
    duplex: 'half',
  } as RequestInit);
  if (!response.ok) throw new Error(`ModifyFile failed: ${await response.text()}`);
}

/** GetFile: NDJSON lines of base64 chunks, decoded and counted as they arrive. */
async function readThroughGetFile(url: string, commit: Commit): Promise<number> {
  const client = createApiClient({ baseUrl: url, getToken: () => '' });
  let bytes = 0;
  for await (const chunk of client.stream<string>('pfs_v2.API', 'GetFile', {
    file: { commit, path: '/big.bin' },
  })) {
    bytes += Buffer.from(chunk, 'base64').length;
  }
  return bytes;
}

/** The files route: raw bytes, as the console's downloads and previews read them. */
async function readThroughFilesRoute(url: string, commitId: string): Promise<number> {
  const response = await fetch(`${url}/files/default/perf/${commitId}/big.bin`);
  const reader = response.body!.getReader();
  let bytes = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    bytes += next.value.length;
  }
  return bytes;
}

await withScratchDir(async (dir) => {
  const source = path.join(dir, 'source.bin');
  await writeFile(source, randomBytes(FILE_BYTES));
  const server = await startServerProcess();
  try {
    const client = createApiClient({ baseUrl: server.url, getToken: () => '' });
    await client.unary('pfs_v2.API', 'CreateProject', { project: { name: 'default' } });
    await client.unary('pfs_v2.API', 'CreateRepo', {
      repo: { name: 'perf', type: 'user', project: { name: 'default' } },
    });

    const copySeconds = await timed(() => diskCopy(source, path.join(dir, 'copy.bin')));
    const commit = await startCommit(client, {
      project: 'default',
      repo: 'perf',
      branch: 'master',
    });
    const writeSeconds = await timed(() => writeThroughApi(server.url, commit, source));
    await finishCommit(client, { project: 'default', repo: 'perf', commitId: commit.id });

    let readBytes = 0;
    const getFileSeconds = await timed(async () => {
      readBytes = await readThroughGetFile(server.url, commit);
    });
    if (readBytes !== FILE_BYTES) throw new Error(`GetFile returned ${readBytes} bytes`);
    const filesRouteSeconds = await timed(async () => {
      readBytes = await readThroughFilesRoute(server.url, commit.id);
    });
    if (readBytes !== FILE_BYTES) throw new Error(`files route returned ${readBytes} bytes`);

    const copyRate = FILE_BYTES / copySeconds;
    const ratio = (seconds: number) => (FILE_BYTES / seconds / copyRate).toFixed(2);
    console.log(`\nfile throughput, one ${FILE_BYTES / MiB} MiB file`);
    printFigure(
      'plain disk copy (copyFile + fsync), baseline',
      throughput(FILE_BYTES, copySeconds),
    );
    printFigure(
      'write: ModifyFile (base64 NDJSON, streamed)',
      throughput(FILE_BYTES, writeSeconds),
    );
    printFigure('  ratio to disk copy', ratio(writeSeconds));
    printFigure('read: GetFile (base64 NDJSON stream)', throughput(FILE_BYTES, getFileSeconds));
    printFigure('  ratio to disk copy', ratio(getFileSeconds));
    printFigure('read: /files route (raw bytes)', throughput(FILE_BYTES, filesRouteSeconds));
    printFigure('  ratio to disk copy', ratio(filesRouteSeconds));
  } finally {
    await server.kill('SIGTERM');
  }
});
