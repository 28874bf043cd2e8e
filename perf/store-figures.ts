/**
 * Store figures (issue #20, items 3 and 4): commit history and file listings priced by their
 * page, not by the whole history or folder. Not part of the test suite:
 *
 *   npx tsx perf/store-figures.ts [--files 1000000]
 *
 * Builds, straight into the platform's SQLite file (no HTTP, one transaction per batch), repos
 * with linear histories of 100 / 10,000 / 100,000 commits, a commit holding 100,000 files in
 * ten folders and a commit holding one folder of 1,000,000 files; then starts the real server
 * as a child process on that data dir and times, over HTTP:
 * - ListCommit {number: 50} (and with `to` = master, and reversed) at each history length;
 * - InspectCommit of `master^(N-1)` (the root, N-1 generations deep);
 * - ListFile of the 1M-entry folder read to the end, and the server's peak RSS (VmHWM);
 * - GlobFile `/**`, `/d3/**` and `/d3/file-000012*`, and WalkFile `/`, over the 100,000 files.
 * Targets: ListCommit flat within 2x from 100 to 100k; 1M listing's peak RSS < 300 MB;
 * GlobFile /** at 100k < 300 ms. Building the data takes ~15 s, the whole run about a minute.
 */
import { readFileSync } from 'node:fs';
import { readRuns } from '../server/src/platform/message-runs.ts';
import { openDatabase } from '../server/src/platform/storage/database.ts';
import { startTestServer } from '../server/test/helpers/in-process-server.ts';
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { printFigure, withScratchDir } from './support/figures.ts';

const filesArg = process.argv.indexOf('--files');
const BIG_FOLDER = filesArg > 0 ? Number(process.argv[filesArg + 1]) : 1_000_000;
const GLOB_FILES = 100_000;
const HISTORIES = [100, 10_000, 100_000];
const RUNS = 9;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const spread = (values: number[]) =>
  `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
const repoOf = (name: string) => ({ name, type: 'user', project: { name: 'default' } });
const hash = 'ab'.repeat(32);

function build(dataDir: string): void {
  const db = openDatabase(dataDir);
  const now = Date.now();
  db.prepare('INSERT OR IGNORE INTO projects (name, created_at) VALUES (?, ?)').run('default', now);
  const addRepo = (name: string) =>
    Number(
      db
        .prepare(
          "INSERT INTO repos (project, name, type, created_at) VALUES ('default', ?, 'user', ?)",
        )
        .run(name, now).lastInsertRowid,
    );
  const insertCommit = db.prepare(
    `INSERT INTO commits (repo_id, id, branch_name, parent_rowid, origin, started_at,
       finishing_at, finished_at) VALUES (?, ?, 'master', ?, ?, ?, ?, ?)`,
  );
  const setHead = db.prepare(
    `INSERT INTO branches (repo_id, name, head_rowid, created_at, updated_at)
       VALUES (?, 'master', ?, ?, ?)`,
  );
  const chain = (repoId: number, length: number): number => {
    let parent: number | null = null;
    db.transaction(() => {
      for (let i = 0; i < length; i++) {
        const id = `${repoId.toString(16).padStart(8, '0')}${i.toString(16).padStart(24, '0')}`;
        const origin = i % 10 === 0 ? 'AUTO' : 'USER';
        parent = Number(
          insertCommit.run(repoId, id, parent, origin, now, now, now).lastInsertRowid,
        );
      }
      setHead.run(repoId, parent, now, now);
    })();
    return parent as unknown as number;
  };
  for (const length of HISTORIES) chain(addRepo(`history-${length}`), length);

  const insertFile = db.prepare(
    `INSERT INTO files (commit_rowid, path, dir, name, type, hash, size_bytes, committed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const folderCommit = (repo: string, folders: number, perFolder: number) => {
    const head = chain(addRepo(repo), 1);
    for (let f = 0; f < folders; f++) {
      const dir = folders === 1 ? '/big/' : `/d${f}/`;
      for (let start = 0; start < perFolder; start += 50_000) {
        db.transaction(() => {
          if (start === 0)
            insertFile.run(head, dir, '/', dir.slice(1, -1), 'DIR', '', perFolder * 10, now);
          for (let i = start; i < Math.min(perFolder, start + 50_000); i++) {
            const name = `file-${String(i).padStart(7, '0')}.txt`;
            insertFile.run(head, dir + name, dir, name, 'FILE', hash, 10, now);
          }
        })();
      }
    }
  };
  folderCommit('glob-100k', 10, GLOB_FILES / 10);
  folderCommit('folder-1m', 1, BIG_FOLDER);
  db.close();
}

/** The Content-Encoding of the last answer `call` read (what fetch negotiated). */
let lastEncoding = 'identity';

async function call(url: string, method: string, body: unknown): Promise<number> {
  const response = await fetch(`${url}/api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method}: ${response.status} ${await response.text()}`);
  lastEncoding = response.headers.get('content-encoding') ?? 'identity';
  // Read to the end without keeping it: count the lines.
  let lines = 0;
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    const text = decoder.decode(chunk, { stream: true });
    if (text.includes('{"error":{')) throw new Error(`${method}: ${text.slice(0, 300)}`);
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  }
  return lines;
}

async function timeCall(url: string, method: string, body: unknown, runs = RUNS) {
  let lines = await call(url, method, body); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    lines = await call(url, method, body);
    times.push(performance.now() - started);
  }
  return { ms: median(times), spread: spread(times), lines };
}

/** CPU time (user + system) the process has used, in ms: steadier than wall time on a busy box. */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};

const memory = (pid: number, field: 'VmHWM' | 'VmRSS') => {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(
    readFileSync(`/proc/${pid}/status`, 'utf8'),
  );
  return match ? Number(match[1]) / 1024 : NaN;
};

await withScratchDir(async (dataDir) => {
  const buildStarted = performance.now();
  build(dataDir);
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  printFigure('data built (3 histories, 100k + 1M files)', `${buildSeconds.toFixed(1)} s`);
  const server = await startServerProcess({}, dataDir);
  try {
    const firstPages: number[] = [];
    for (const length of HISTORIES) {
      const repo = repoOf(`history-${length}`);
      const plain = await timeCall(server.url, 'pfs_v2.API/ListCommit', { repo, number: 50 });
      firstPages.push(plain.ms);
      printFigure(
        `ListCommit {number: 50} at ${length} commits`,
        `${plain.ms.toFixed(1)} ms (${plain.spread}), ${plain.lines} lines`,
      );
      const to = { branch: { repo, name: 'master' } };
      const walk = await timeCall(server.url, 'pfs_v2.API/ListCommit', { repo, to, number: 50 });
      printFigure(`  … with to = master`, `${walk.ms.toFixed(1)} ms (${walk.spread})`);
      const reverse = await timeCall(server.url, 'pfs_v2.API/ListCommit', {
        repo,
        to,
        number: 50,
        reverse: true,
      });
      printFigure(
        `  … with to = master, reverse`,
        `${reverse.ms.toFixed(1)} ms (${reverse.spread})`,
      );
      const auto = await timeCall(server.url, 'pfs_v2.API/ListCommit', {
        repo,
        to,
        number: 50,
        originKind: 'AUTO',
      });
      printFigure(
        `  … with to = master, originKind AUTO`,
        `${auto.ms.toFixed(1)} ms (${auto.spread})`,
      );
      const deep = await timeCall(server.url, 'pfs_v2.API/InspectCommit', {
        commit: { repo, id: `master^${length - 1}` },
      });
      printFigure(
        `InspectCommit master^${length - 1}`,
        `${deep.ms.toFixed(1)} ms (${deep.spread})`,
      );
    }
    printFigure(
      'ListCommit first-50, 100k / 100 (target ≤ 2x)',
      `${((firstPages[2] as number) / (firstPages[0] as number)).toFixed(2)}x`,
    );

    const commit = (name: string) => ({
      repo: repoOf(name),
      branch: { repo: repoOf(name), name: 'master' },
    });
    const cpuBefore = cpuMs(server.pid);
    const clientBefore = process.cpuUsage();
    const globAll = await timeCall(
      server.url,
      'pfs_v2.API/GlobFile',
      { commit: commit('glob-100k'), pattern: '/**' },
      5,
    );
    const globCpu = (cpuMs(server.pid) - cpuBefore) / 6;
    const clientUsed = process.cpuUsage(clientBefore);
    const clientCpu = (clientUsed.user + clientUsed.system) / 1000 / 6;
    printFigure(
      `GlobFile /** over ${GLOB_FILES} files (target < 300 ms)`,
      `${globAll.ms.toFixed(0)} ms (${globAll.spread}), ${globAll.lines} lines`,
    );
    printFigure('  … server CPU per call (user + system)', `${globCpu.toFixed(0)} ms`);
    // This client (fetch, its decompression on its own thread pool, a newline count) shares
    // the machine's cores with the server: its CPU is part of the call's time.
    printFigure(`  … client CPU per call (fetch, ${lastEncoding})`, `${clientCpu.toFixed(0)} ms`);
    const globFolder = await timeCall(server.url, 'pfs_v2.API/GlobFile', {
      commit: commit('glob-100k'),
      pattern: '/d3/**',
    });
    printFigure(
      'GlobFile /d3/** (one folder of 10,000 files)',
      `${globFolder.ms.toFixed(1)} ms (${globFolder.spread}), ${globFolder.lines} lines`,
    );
    const walkCpuBefore = cpuMs(server.pid);
    const walk = await timeCall(
      server.url,
      'pfs_v2.API/WalkFile',
      { file: { commit: commit('glob-100k'), path: '/' } },
      5,
    );
    printFigure(
      `WalkFile / over ${GLOB_FILES} files`,
      `${walk.ms.toFixed(0)} ms (${walk.spread}), ${walk.lines} lines, server CPU ${((cpuMs(server.pid) - walkCpuBefore) / 6).toFixed(0)} ms per call`,
    );
    const globOne = await timeCall(server.url, 'pfs_v2.API/GlobFile', {
      commit: commit('glob-100k'),
      pattern: '/d3/file-000012*',
    });
    printFigure(
      'GlobFile /d3/file-000012* (literal prefix)',
      `${globOne.ms.toFixed(1)} ms (${globOne.spread}), ${globOne.lines} lines`,
    );

    const lastFolder = await timeCall(server.url, 'pfs_v2.API/ListFile', {
      file: { commit: commit('glob-100k'), path: '/d9' },
      number: 100,
    });
    printFigure(
      'ListFile /d9 first 100 (after 90k rows of other folders)',
      `${lastFolder.ms.toFixed(1)} ms (${lastFolder.spread}), ${lastFolder.lines} lines`,
    );

    const before = memory(server.pid, 'VmHWM');
    const listCpuBefore = cpuMs(server.pid);
    const started = performance.now();
    const lines = await call(server.url, 'pfs_v2.API/ListFile', {
      file: { commit: commit('folder-1m'), path: '/big' },
    });
    const listMs = performance.now() - started;
    printFigure(
      `ListFile of a ${BIG_FOLDER}-entry folder`,
      `${(listMs / 1000).toFixed(2)} s (server CPU ${((cpuMs(server.pid) - listCpuBefore) / 1000).toFixed(2)} s), ${lines} lines`,
    );
    printFigure(
      'server peak RSS (VmHWM) before → after it (target < 300 MB)',
      `${before.toFixed(0)} → ${memory(server.pid, 'VmHWM').toFixed(0)} MB (now ${memory(server.pid, 'VmRSS').toFixed(0)} MB)`,
    );
  } finally {
    await server.kill();
  }

  // The same GlobFile in-process, without HTTP: what the platform costs, and with each message
  // turned into its JSON line (the least any transport must do), so the split is visible.
  const inProcess = await startTestServer({ dataDir, logLevel: 'error' });
  try {
    const glob = inProcess.server.platform.methods.get('pfs_v2.API/GlobFile');
    if (glob?.kind !== 'stream') throw new Error('GlobFile is not a stream');
    const request = {
      commit: { repo: repoOf('glob-100k'), branch: { repo: repoOf('glob-100k'), name: 'master' } },
      pattern: '/**',
    };
    const run = async (stringify: boolean) => {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < 6; i++) {
        const started = performance.now();
        for await (const message of glob.handler(request, new AbortController().signal))
          if (stringify) bytes += JSON.stringify({ result: message }).length;
        if (i > 0) times.push(performance.now() - started);
      }
      const sent = stringify ? `, ${(bytes / 6 / 2 ** 20).toFixed(0)} MiB of JSON` : '';
      return `${median(times).toFixed(0)} ms (${spread(times)})${sent}`;
    };
    printFigure('GlobFile /** in-process: platform only', await run(false));
    printFigure('GlobFile /** in-process: platform + a JSON line each', await run(true));
    // What the HTTP gateway does: read the stream's runs, each written as lines from its rows.
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const started = performance.now();
      const runs = readRuns(glob.handler(request, new AbortController().signal));
      if (!runs) throw new Error('GlobFile has no runs');
      for await (const run of runs) run.resultLines();
      if (i > 0) times.push(performance.now() - started);
    }
    printFigure(
      'GlobFile /** in-process: runs written as lines (the gateway)',
      `${median(times).toFixed(0)} ms (${spread(times)})`,
    );
  } finally {
    await inProcess.server.close();
  }
});
