/**
 * Where a large NDJSON answer's time goes on the wire (issue #20, `GlobFile /**` over 100,000
 * files): the same call read with each Accept-Encoding (what Node's fetch asks for, identity,
 * gzip, br), with per call the wall time, the server's CPU split into its main thread and the
 * rest (libuv's pool, where zlib runs; GC helpers), the client's own CPU, the bytes on the wire
 * and the number of chunks the client received. Not part of the test suite:
 *
 *   npx tsx perf/glob-wire.ts [--runs 7] [--data-dir DIR] [--encodings fetch,identity,gzip,br]
 *
 * With --data-dir, the data is built there once and reused (a later run on the same dir skips
 * the build); without it, in a scratch dir removed at the end.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { openDatabase } from '../server/src/platform/storage/database.ts';
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { printFigure, withScratchDir } from './support/figures.ts';

const arg = (name: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const RUNS = Number(arg('runs') ?? 7);
const ENCODINGS = (arg('encodings') ?? 'fetch,identity,gzip,br').split(',');
const FILES = 100_000;
const repo = { name: 'glob-100k', type: 'user', project: { name: 'default' } };
const body = JSON.stringify({ commit: { repo, branch: { repo, name: 'master' } }, pattern: '/**' });

function build(dataDir: string): void {
  const db = openDatabase(dataDir);
  const now = Date.now();
  db.prepare('INSERT OR IGNORE INTO projects (name, created_at) VALUES (?, ?)').run('default', now);
  const repoId = Number(
    db
      .prepare(
        "INSERT INTO repos (project, name, type, created_at) VALUES ('default', ?, 'user', ?)",
      )
      .run(repo.name, now).lastInsertRowid,
  );
  const head = Number(
    db
      .prepare(
        `INSERT INTO commits (repo_id, id, branch_name, parent_rowid, origin, started_at,
           finishing_at, finished_at) VALUES (?, ?, 'master', NULL, 'USER', ?, ?, ?)`,
      )
      .run(repoId, 'c'.repeat(32), now, now, now).lastInsertRowid,
  );
  db.prepare(
    `INSERT INTO branches (repo_id, name, head_rowid, created_at, updated_at)
       VALUES (?, 'master', ?, ?, ?)`,
  ).run(repoId, head, now, now);
  const insertFile = db.prepare(
    `INSERT INTO files (commit_rowid, path, dir, name, type, hash, size_bytes, committed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let f = 0; f < 10; f++) {
      const dir = `/d${f}/`;
      insertFile.run(head, dir, '/', dir.slice(1, -1), 'DIR', '', FILES, now);
      for (let i = 0; i < FILES / 10; i++) {
        const name = `file-${String(i).padStart(7, '0')}.txt`;
        insertFile.run(head, dir + name, dir, name, 'FILE', 'ab'.repeat(32), 10, now);
      }
    }
  })();
  db.close();
}

/** CPU ticks (user + system, ms) of the process's main thread and of all its other threads. */
function serverCpu(pid: number): { main: number; other: number } {
  let main = 0;
  let other = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    if (tid === String(pid)) main += ms;
    else other += ms;
  }
  return { main, other };
}

interface Call {
  ms: number;
  wireBytes: number;
  bodyBytes: number;
  chunks: number;
  encoding: string;
  lines: number;
}

/** One call with node:http, decompressing as a client would, counting the wire's bytes. */
function callHttp(url: string, acceptEncoding: string): Promise<Call> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      `${url}/api/pfs_v2.API/GlobFile`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': acceptEncoding },
      },
      (res) => {
        const encoding = String(res.headers['content-encoding'] ?? 'identity');
        let wireBytes = 0;
        let chunks = 0;
        res.on('data', (chunk: Buffer) => {
          wireBytes += chunk.length;
          chunks++;
        });
        const decoded =
          encoding === 'gzip'
            ? res.pipe(createGunzip())
            : encoding === 'br'
              ? res.pipe(createBrotliDecompress())
              : res;
        let bodyBytes = 0;
        let lines = 0;
        decoded.on('data', (chunk: Buffer) => {
          bodyBytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        decoded.on('end', () =>
          resolve({
            ms: performance.now() - started,
            wireBytes,
            bodyBytes,
            chunks,
            encoding,
            lines,
          }),
        );
        decoded.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One call with fetch and its own Accept-Encoding, read as perf/store-figures.ts reads it. */
async function callFetch(url: string): Promise<Call> {
  const started = performance.now();
  const response = await fetch(`${url}/api/pfs_v2.API/GlobFile`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  let lines = 0;
  let bodyBytes = 0;
  let chunks = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bodyBytes += chunk.length;
    chunks++;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return {
    ms: performance.now() - started,
    wireBytes: NaN,
    bodyBytes,
    chunks,
    encoding: response.headers.get('content-encoding') ?? 'identity',
    lines,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;
const range = (values: number[]) =>
  `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

async function measure(dataDir: string): Promise<void> {
  if (!existsSync(`${dataDir}/built`)) {
    build(dataDir);
    (await import('node:fs')).writeFileSync(`${dataDir}/built`, '');
  }
  // --profile DIR: the server writes a V8 CPU profile there when it stops.
  const profileDir = arg('profile');
  const server = await startServerProcess(
    profileDir
      ? { NODE_OPTIONS: `--import=/tmp/globall-tools/cpuprof-hook.mjs`, CPUPROF_DIR: profileDir }
      : {},
    dataDir,
  );
  try {
    for (const encoding of ENCODINGS) {
      const once = () =>
        encoding === 'fetch' ? callFetch(server.url) : callHttp(server.url, encoding);
      await once(); // warm-up
      const wall: number[] = [];
      const main: number[] = [];
      const other: number[] = [];
      const client: number[] = [];
      let last: Call | undefined;
      for (let i = 0; i < RUNS; i++) {
        const before = serverCpu(server.pid);
        const clientBefore = process.cpuUsage();
        last = await once();
        const clientUsed = process.cpuUsage(clientBefore);
        const after = serverCpu(server.pid);
        wall.push(last.ms);
        main.push(after.main - before.main);
        other.push(after.other - before.other);
        client.push((clientUsed.user + clientUsed.system) / 1000);
      }
      if (!last || last.lines !== FILES + 10) throw new Error(`${encoding}: ${last?.lines} lines`);
      printFigure(
        `GlobFile /** [${encoding} → ${last.encoding}]`,
        `${median(wall).toFixed(0)} ms (${range(wall)}); server main ${median(main).toFixed(0)} ms (${range(main)}), other threads ${median(other).toFixed(0)} ms; client ${median(client).toFixed(0)} ms; ` +
          `${Number.isNaN(last.wireBytes) ? '' : `${(last.wireBytes / 2 ** 20).toFixed(2)} MiB on the wire, `}${(last.bodyBytes / 2 ** 20).toFixed(1)} MiB body, ${last.chunks} chunks`,
      );
    }
  } finally {
    await server.kill(profileDir ? 'SIGTERM' : 'SIGKILL');
  }
}

const dataDirArg = arg('data-dir');
if (dataDirArg) await measure(dataDirArg);
else await withScratchDir(measure);
