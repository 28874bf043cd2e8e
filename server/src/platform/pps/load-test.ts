import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { invalidArgument } from '../../errors.ts';
import { EmptySchema } from '@bufbuild/protobuf/wkt';
import { pps_v2 } from '@ivory/api/proto';
import { int64 } from '../wire.ts';
import type { NewFile, PfsStore } from '../pfs/pfs-store.ts';
import type { MethodRegistry } from '../platform.ts';
import { safeNumber, typedUnary } from '../typed-method.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { Db } from '../storage/database.ts';
import type { Pps } from './index.ts';
import { isTerminal } from './pps-store.ts';

/** The load a RunLoadTest writes. */
export interface LoadSpec {
  commits: number;
  filesPerCommit: number;
  fileBytes: number;
}

/** RunLoadTestDefault's load. */
export const defaultLoadSpec: LoadSpec = { commits: 5, filesPerCommit: 10, fileBytes: 1024 };
/** Hard caps, so a load test cannot fill the disk or run for long. */
const caps = { commits: 100, filesPerCommit: 1000, fileBytes: 1024 * 1024, totalBytes: 64 << 20 };
/** Every file starts with a header naming the run, so its blob belongs to that run alone. */
const minFileBytes = 64;
/** How long RunLoadTest waits for the pipeline's jobs. */
const jobTimeoutMs = 5 * 60 * 1000;

/**
 * RunLoadTest {dagSpec, loadSpec, seed, parallelism, podPatch, stateId} and RunLoadTestDefault
 * {} → {error, stateId, spec, branch, seed}: a real, bounded synthetic load on the embedded
 * platform. Each run creates a project `load-test-<8 hex>` with a repo `source` and a pipeline
 * `copy` (sh -c "cp -r /pfs/source/. /pfs/out/", glob "/"), writes `commits` commits of
 * `filesPerCommit` pseudo-random files of `fileBytes` bytes each to source@master (generated
 * from `seed`; 0 = a random seed), waits for the pipeline's jobs, measures, then deletes the
 * pipeline, repo, project and the run's blobs (each file begins with a header naming the run,
 * so no other data shares them).
 *
 * loadSpec: JSON (`{"commits": 5, "filesPerCommit": 10, "fileBytes": 1024}`) or `key: value`
 * lines with the same keys (aliases: files, fileSize; sizes accept K/KiB/M/MiB suffixes); missing
 * keys take the default load (5 × 10 × 1 KiB). Caps: 100 commits, 1000 files per commit, 1 MiB
 * per file, 64 MiB in total (beyond → 3); files are at least 64 bytes. dagSpec, parallelism
 * and podPatch are ignored (the DAG is always source → copy; one worker runs datums).
 *
 * Where the figures go: the wire response of Pachyderm's master is {error, stateId}. `error`
 * is '' on success, or what went wrong (a job failed or timed out). `stateId` is the run's
 * project name. Like Pachyderm 2.x ≤ 2.10, the answer also carries `spec` — a JSON text of the
 * effective load spec plus `results` {commits, files, bytes, writeSeconds, writeMiBPerSecond,
 * jobs, jobsSucceeded, jobSeconds, totalSeconds} — `branch` (the source branch it wrote to) and
 * `seed` (the seed used, so a run can be repeated).
 */
export function registerLoadTestApi(
  methods: MethodRegistry,
  deps: { pfs: PfsStore; blobs: BlobStore; db: Db; pps: Pps },
): void {
  methods.set(
    'pps_v2.API/RunLoadTest',
    typedUnary(pps_v2.RunLoadTestRequestSchema, async (req, signal) => {
      const spec = parseLoadSpec(req.loadSpec);
      return runLoadTest(deps, spec, safeNumber(req.seed, 'seed'), signal);
    }),
  );
  methods.set(
    'pps_v2.API/RunLoadTestDefault',
    typedUnary(EmptySchema, async (_request, signal) =>
      runLoadTest(deps, defaultLoadSpec, 0, signal),
    ),
  );
}

const keyAliases: Record<string, keyof LoadSpec> = {
  commits: 'commits',
  filespercommit: 'filesPerCommit',
  files: 'filesPerCommit',
  filebytes: 'fileBytes',
  filesize: 'fileBytes',
  size: 'fileBytes',
};

/** Parses a loadSpec (JSON or `key: value` lines) and checks it against the caps. */
export function parseLoadSpec(text: string): LoadSpec {
  const spec: LoadSpec = { ...defaultLoadSpec };
  let entries: [string, unknown][] = [];
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      entries = Object.entries(JSON.parse(trimmed) as Record<string, unknown>);
    } catch {
      throw invalidArgument('loadSpec is not valid JSON');
    }
  } else if (trimmed) {
    for (const line of trimmed.split('\n')) {
      const content = line.replace(/#.*/, '').trim();
      if (!content) continue;
      const match = /^([A-Za-z_]+)\s*[:=]\s*(.+)$/.exec(content);
      if (!match?.[1] || !match[2])
        throw invalidArgument(`loadSpec line "${content}" is not key: value`);
      entries.push([match[1], match[2].trim()]);
    }
  }
  for (const [key, value] of entries) {
    const field = keyAliases[key.replace(/[_-]/g, '').toLowerCase()];
    if (!field)
      throw invalidArgument(`loadSpec key ${key} is unknown (commits, filesPerCommit, fileBytes)`);
    spec[field] = readSize(value, key);
  }
  for (const field of ['commits', 'filesPerCommit', 'fileBytes'] as const) {
    if (spec[field] < 1) throw invalidArgument(`loadSpec ${field} must be at least 1`);
    if (spec[field] > caps[field])
      throw invalidArgument(`loadSpec ${field} is at most ${caps[field]}`);
  }
  spec.fileBytes = Math.max(spec.fileBytes, minFileBytes);
  if (spec.commits * spec.filesPerCommit * spec.fileBytes > caps.totalBytes)
    throw invalidArgument(`the load is larger than ${caps.totalBytes} bytes in total`);
  return spec;
}

function readSize(value: unknown, key: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  const match = typeof value === 'string' ? /^(\d+)\s*(k|kib|kb|m|mib|mb)?$/i.exec(value) : null;
  if (!match?.[1]) throw invalidArgument(`loadSpec ${key} must be a whole number`);
  const unit = (match[2] ?? '').toLowerCase();
  const scale = unit.startsWith('k') ? 1024 : unit.startsWith('m') ? 1024 * 1024 : 1;
  return Number(match[1]) * scale;
}

/** mulberry32: a small deterministic generator for the file bytes. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

function fileBytes(next: () => number, header: string, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4) {
    const value = next();
    for (let j = 0; j < 4 && i + j < size; j++) bytes[i + j] = (value >>> (8 * j)) & 0xff;
  }
  bytes.write(header.slice(0, size), 0, 'utf8');
  return bytes;
}

const seconds = (ms: number) => Math.round(ms) / 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runLoadTest(
  deps: { pfs: PfsStore; blobs: BlobStore; db: Db; pps: Pps },
  spec: LoadSpec,
  requestedSeed: number,
  signal: AbortSignal,
): Promise<object> {
  const { pfs, blobs, pps } = deps;
  const seed = requestedSeed || randomBytes(4).readUInt32BE(0) || 1;
  const project = `load-test-${randomBytes(4).toString('hex')}`;
  const repoRef = { project, name: 'source', type: 'user' as const };
  const written = new Set<string>();
  const started = Date.now();
  let error = '';
  const results = {
    commits: 0,
    files: 0,
    bytes: 0,
    writeSeconds: 0,
    writeMiBPerSecond: 0,
    jobs: 0,
    jobsSucceeded: 0,
    jobSeconds: 0,
    totalSeconds: 0,
  };
  pfs.createProject(project, 'RunLoadTest (removed when the run ends)', false);
  try {
    const repo = pfs.createRepo(repoRef, 'load test source', false);
    await pps.pipelines.create(
      {
        pipeline: { project: { name: project }, name: 'copy' },
        transform: { cmd: ['sh', '-c', 'cp -r /pfs/source/. /pfs/out/'] },
        input: { pfs: { project, repo: 'source', glob: '/' } },
      },
      { update: false, reprocess: false, dryRun: false },
    );
    const next = generator(seed);
    const writeStart = Date.now();
    let lastCommitId = '';
    for (let c = 0; c < spec.commits && !signal.aborted; c++) {
      const commit = pfs.startCommit(repo, 'master', null, `load test commit ${c + 1}`);
      const files: NewFile[] = [];
      for (let f = 0; f < spec.filesPerCommit; f++) {
        const header = `ivory load test ${project} ${c}/${f}\n`;
        const blob = await blobs.writeBytes(fileBytes(next, header, spec.fileBytes));
        written.add(blob.hash);
        files.push({ path: `/c${c}/f${f}`, hash: blob.hash, sizeBytes: blob.sizeBytes });
      }
      pfs.transaction(() => {
        for (const file of files) pfs.putFile(commit, file);
      });
      pfs.finishCommit(commit, '', '');
      lastCommitId = commit.id;
      results.commits += 1;
      results.files += files.length;
      results.bytes += files.length * spec.fileBytes;
    }
    const writeMs = Date.now() - writeStart;
    results.writeSeconds = seconds(writeMs);
    results.writeMiBPerSecond =
      Math.round((results.bytes / (1024 * 1024) / Math.max(writeMs / 1000, 0.001)) * 100) / 100;

    // The last commit's job (same global ID) ends the load; earlier ones may be superseded.
    const deadline = Date.now() + jobTimeoutMs;
    for (;;) {
      if (signal.aborted) {
        error = 'the request was cancelled';
        break;
      }
      const last = pps.store.findJob(project, 'copy', lastCommitId);
      if (last && isTerminal(last.state)) break;
      if (Date.now() > deadline) {
        error = `the pipeline's jobs did not finish within ${jobTimeoutMs / 1000}s`;
        break;
      }
      await sleep(100);
    }
    const jobs = pps.store.listJobs({ projects: [project] });
    results.jobs = jobs.length;
    results.jobsSucceeded = jobs.filter((job) => job.state === 'JOB_SUCCESS').length;
    const failed = jobs.find((job) => job.state === 'JOB_FAILURE' || job.state === 'JOB_KILLED');
    if (!error && failed) error = `job ${failed.id} ended ${failed.state}: ${failed.reason}`;
    const finished = jobs.map((job) => job.finished_at ?? 0);
    const firstCreated = Math.min(...jobs.map((job) => job.created_at));
    if (jobs.length) results.jobSeconds = seconds(Math.max(...finished) - firstCreated);
  } catch (failure) {
    error = failure instanceof Error ? failure.message : String(failure);
  } finally {
    await cleanUp(deps, project, written).catch((failure: unknown) => {
      error ||= `clean-up failed: ${failure instanceof Error ? failure.message : String(failure)}`;
    });
  }
  results.totalSeconds = seconds(Date.now() - started);
  return {
    error,
    stateId: project,
    spec: JSON.stringify({ ...spec, results }),
    branch: { repo: { name: 'source', type: 'user', project: { name: project } }, name: 'master' },
    seed: int64(seed),
  };
}

/**
 * Deletes the run's pipeline, repos and project, then the blobs their files named (the generated
 * files, the copies, the spec and the jobs' meta files) once no file or file set names them: a
 * blob is only removed when its bytes contain the run's project name, which no other data holds.
 */
async function cleanUp(
  deps: { pfs: PfsStore; blobs: BlobStore; db: Db; pps: Pps },
  project: string,
  written: Set<string>,
): Promise<void> {
  const { pfs, blobs, db, pps } = deps;
  const candidates = new Set(written);
  const repos = () => pfs.listRepos({ type: null, projects: [project] });
  for (const repo of repos())
    for (const commit of pfs.listRepoCommits(repo))
      for (const file of pfs.allFiles(commit))
        if (file.type === 'FILE' && file.size_bytes > 0) candidates.add(file.hash);
  if (pps.store.findState(project, 'copy'))
    await pps.pipelines.delete(project, 'copy', { keepRepo: false, force: true });
  for (const repo of repos()) pfs.deleteRepo({ project, name: repo.name, type: repo.type });
  pfs.deleteProject(project, true);
  if (candidates.size === 0) return;
  const hashes = JSON.stringify([...candidates]);
  const stillUsed = new Set(
    db
      .prepare(
        `SELECT DISTINCT hash FROM files WHERE hash IN (SELECT value FROM json_each(?))
         UNION SELECT DISTINCT hash FROM pfs_file_set_files
           WHERE hash IN (SELECT value FROM json_each(?))`,
      )
      .pluck()
      .all(hashes, hashes) as string[],
  );
  const marker = Buffer.from(project);
  for (const hash of candidates) {
    if (stillUsed.has(hash) || !(await blobs.has(hash))) continue;
    const bytes = await readFile(blobs.pathOf(hash));
    if (bytes.includes(marker)) await rm(blobs.pathOf(hash), { force: true });
  }
}
