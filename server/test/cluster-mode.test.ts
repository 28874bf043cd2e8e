/**
 * Cluster mode end to end: one server in embedded mode plays the Pachyderm cluster, a second
 * one (IVORY_PACHD_ADDRESS) is the console's server in front of it. Two real processes, real HTTP.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterUploadLander } from '../src/proxy/cluster-upload.ts';
import { landStagedUpload, type StagedPart } from '../src/upload/upload-lander.ts';
import { Upstream } from '../src/proxy/upstream.ts';
import {
  call,
  callStream,
  commitFiles,
  commitId,
  getFile,
  ok,
  repo,
  results,
  type Json,
} from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { createPipeline, lastJob, pipeline } from './helpers/pps.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';

let upstream: ServerProcess;
let cluster: ServerProcess;
let upstreamPort: string;
const bigFile = randomBytes(300 * 1024);

beforeAll(async () => {
  upstream = await startServerProcess();
  upstreamPort = new URL(upstream.url).port;
  await ok(upstream.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(upstream.url, 'pfs_v2.API/CreateRepo', { repo: repo('images') });
  await commitFiles(upstream.url, 'images', {
    '/readme.txt': 'hello from the cluster',
    '/photos/big.bin': bigFile,
    '/photos/a.txt': 'a',
  });
  cluster = await startServerProcess({ IVORY_PACHD_ADDRESS: upstream.url });
});

afterAll(async () => {
  await cluster?.kill();
  await upstream?.kill();
});

/** Reads an NDJSON response line by line, as the lines arrive. */
function lineReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<Json> {
      for (;;) {
        const newline = buffer.indexOf('\n');
        if (newline >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          return JSON.parse(line);
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended; pending: ${buffer}`);
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe('cluster mode: /api forwarded to the cluster', () => {
  it('lists projects and repos with the exact content type', async () => {
    const projects = await callStream(cluster.url, 'pfs_v2.API/ListProject', {});
    expect(projects.status).toBe(200);
    expect(projects.contentType).toBe('application/json');
    expect(projects.lines.map((line: Json) => line.result.project.name)).toEqual(['default']);
    const repos = await results(cluster.url, 'pfs_v2.API/ListRepo', { type: 'user' });
    expect(repos.map((info: Json) => info.repo.name)).toEqual(['images']);
    const version = await call(cluster.url, 'versionpb_v2.API/GetVersion', {});
    expect(version.status).toBe(200);
    expect(version.contentType).toBe('application/json');
  });

  it('passes the cluster errors through (status, code, message)', async () => {
    const missing = await call(cluster.url, 'pfs_v2.API/InspectRepo', { repo: repo('nope') });
    const direct = await call(upstream.url, 'pfs_v2.API/InspectRepo', { repo: repo('nope') });
    expect(missing.status).toBe(404);
    expect(missing.contentType).toBe('application/json');
    expect(missing.body).toEqual(direct.body);
    expect(missing.body.code).toBe(5);
  });

  it('browses files: ListFile, InspectFile, GetFile', async () => {
    const listing = await results(cluster.url, 'pfs_v2.API/ListFile', {
      file: { commit: commitId('images', 'master'), path: '/photos' },
    });
    expect(listing.map((info: Json) => info.file.path)).toEqual([
      '/photos/a.txt',
      '/photos/big.bin',
    ]);
    const info = await ok(cluster.url, 'pfs_v2.API/InspectFile', {
      file: { commit: commitId('images', 'master'), path: '/readme.txt' },
    });
    expect(info.sizeBytes).toBe('22');
    const bytes = await getFile(cluster.url, 'images', 'master', '/photos/big.bin');
    expect(bytes.equals(bigFile)).toBe(true);
  });

  it('serves file bytes from the cluster file server with Range passthrough', async () => {
    const ranged = await fetch(`${cluster.url}/files/default/images/master/photos/big.bin`, {
      headers: { range: 'bytes=100-199' },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-199/${bigFile.length}`);
    expect(ranged.headers.get('content-length')).toBe('100');
    expect(ranged.headers.get('accept-ranges')).toBe('bytes');
    expect(ranged.headers.get('content-security-policy')).toBe('sandbox');
    expect(ranged.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bigFile.subarray(100, 200))).toBe(true);

    const whole = await fetch(`${cluster.url}/files/default/images/master/readme.txt?download=1`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment; filename="readme.txt"/);
    expect(await whole.text()).toBe('hello from the cluster');

    const head = await fetch(`${cluster.url}/files/default/images/master/photos/big.bin`, {
      method: 'HEAD',
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bigFile.length));

    const missing = await fetch(`${cluster.url}/files/default/images/master/nope.txt`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json');
    expect(missing.headers.get('content-security-policy')).toBe('sandbox');
    expect(((await missing.json()) as Json).code).toBe(5);
  });

  it('the embedded platform serves /pfs/<project>/<repo>/<commit>/<path> like /files', async () => {
    const response = await fetch(`${upstream.url}/pfs/default/images/master/readme.txt`, {
      headers: { range: 'bytes=0-4' },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-security-policy')).toBe('sandbox');
    expect(await response.text()).toBe('hello');
  });

  it('streams ModifyFile request bodies through (a commit written via the proxy)', async () => {
    const id = await commitFiles(cluster.url, 'images', { '/via-proxy.txt': 'written through' });
    expect((await getFile(upstream.url, 'images', id, '/via-proxy.txt')).toString()).toBe(
      'written through',
    );
  });

  it('lands an upload folder in one commit through the cluster API (cluster-upload.ts)', async () => {
    const lander = new ClusterUploadLander(new Upstream(upstream.url));
    // Over 20 MiB: two addFile messages for one file.
    const large = Buffer.alloc(20 * 1024 * 1024 + 1234, 7);
    large.write('start', 0);
    large.write('end', large.length - 3);
    const folder: Record<string, Buffer> = {
      '/upload/one.txt': Buffer.from('first file'),
      '/upload/empty.txt': Buffer.alloc(0),
      '/upload/nested/large.bin': large,
      '/readme.txt': Buffer.from('replaced by the upload'),
    };
    const before = await results(cluster.url, 'pfs_v2.API/ListCommit', {
      repo: repo('images'),
    });
    const landed = await lander.land(
      { project: 'default', repo: 'images', branch: 'master', description: 'folder upload' },
      Object.entries(folder).map(([path, bytes]) => ({
        path,
        // Several small chunks, as the staged chunk files would be read.
        open: () => Readable.from(chunked(bytes, 3 * 1024 * 1024)),
      })),
    );
    const commit = await ok(cluster.url, 'pfs_v2.API/InspectCommit', {
      commit: commitId('images', landed.id),
    });
    expect(commit.finished).not.toBeNull();
    expect(commit.description).toBe('folder upload');
    const after = await results(cluster.url, 'pfs_v2.API/ListCommit', { repo: repo('images') });
    expect(after).toHaveLength(before.length + 1);
    for (const [path, bytes] of Object.entries(folder)) {
      const read = await getFile(cluster.url, 'images', landed.id, path);
      expect(sha(read), path).toBe(sha(bytes));
    }
  });

  it('lands staged parts (the /upload layout) through the cluster (landStagedUpload)', async () => {
    const uploadsDir = await mkdtemp(path.join(tmpdir(), 'ivory-staged-'));
    const upload = {
      id: 'u1',
      project: 'default',
      repo: 'images',
      branch: 'master',
      path: '/staged',
    };
    // Per file: its parts on disk; a part's file may hold more bytes than the part (a staging
    // file with the tail of an interrupted chunk after the recorded ones).
    const staged: Record<string, { bytes: Buffer; used: number }[]> = {
      'notes/a.txt': [
        { bytes: Buffer.from('chunk one, junk'), used: 11 },
        { bytes: Buffer.from('chunk two'), used: 9 },
      ],
      'b.bin': [{ bytes: randomBytes(1000), used: 1000 }],
    };
    const parts: Record<string, StagedPart[]> = {};
    for (const [name, runs] of Object.entries(staged)) {
      const dir = path.join(uploadsDir, upload.id, encodeURIComponent(name));
      await mkdir(dir, { recursive: true });
      parts[name] = [];
      for (const [index, run] of runs.entries()) {
        await writeFile(path.join(dir, String(index)), run.bytes);
        parts[name].push({ path: path.join(dir, String(index)), bytes: run.used });
      }
    }
    const files = Object.entries(staged).map(([name, runs]) => ({
      file_name: name,
      chunk_total: runs.length,
    }));
    const partsOf = (name: string) => parts[name]!;
    const lander = new ClusterUploadLander(new Upstream(cluster.url));
    const incomplete = landStagedUpload(
      lander,
      { upload, files, receivedChunks: () => 0, partsOf },
      'x',
    );
    await expect(incomplete).rejects.toThrow(/incomplete/);
    const landed = await landStagedUpload(
      lander,
      { upload, files, receivedChunks: (name) => staged[name]!.length, partsOf },
      'staged upload',
    );
    expect(
      (await getFile(upstream.url, 'images', landed.id, '/staged/notes/a.txt')).toString(),
    ).toBe('chunk one, chunk two');
    const binary = await getFile(upstream.url, 'images', landed.id, '/staged/b.bin');
    expect(binary.equals(staged['b.bin']![0]!.bytes)).toBe(true);
    await rm(uploadsDir, { recursive: true, force: true });
  });

  it('shows a job and its logs (GetLogs) through the proxy', async () => {
    await ok(cluster.url, 'pfs_v2.API/CreateRepo', { repo: repo('words') });
    await commitFiles(cluster.url, 'words', { '/w.txt': 'word' });
    await createPipeline(cluster.url, {
      pipeline: pipeline('echoer'),
      transform: {
        cmd: ['sh', '-c', 'echo "seen $(cat /pfs/words/w.txt)"; cp /pfs/words/* /pfs/out/'],
      },
      input: { pfs: { repo: 'words', glob: '/' } },
    });
    const job = await lastJob(cluster.url, 'echoer');
    expect(job.state).toBe('JOB_SUCCESS');
    const logs = await results(cluster.url, 'pps_v2.API/GetLogs', { job: job.job });
    expect(logs.filter((line: Json) => line.user).map((line: Json) => line.message)).toContain(
      'seen word',
    );
  });

  it('serves omni_v1.API from the local registry, never the cluster', async () => {
    // A trial that exists only on the upstream: the cluster-mode server must not see it.
    const upstreamTrial = await ok(upstream.url, 'omni_v1.API/CreateTrial', { flow: 'ghost' });
    expect(await results(upstream.url, 'omni_v1.API/ListTrial', {})).toHaveLength(1);

    const listed = await call(cluster.url, 'omni_v1.API/CountTrial', {});
    expect(listed.status).toBe(200);
    expect(listed.contentType).toBe('application/json');
    expect(listed.body).toEqual({ count: '0' });
    expect(await results(cluster.url, 'omni_v1.API/ListTrial', {})).toEqual([]);
    const missing = await call(cluster.url, 'omni_v1.API/InspectTrial', {
      trial: { id: upstreamTrial.id },
    });
    expect(missing.status).toBe(404);
  });
});

describe('cluster mode: streams pass through incrementally', () => {
  it('delivers the first SubscribeCommit line while the upstream stream is still open', async () => {
    const controller = new AbortController();
    const response = await fetch(`${cluster.url}/api/pfs_v2.API/SubscribeCommit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ repo: repo('images'), branch: 'master', state: 'FINISHED' }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const lines = lineReader(response.body!);
    // The existing commits arrive although the upstream SubscribeCommit never ends.
    const first = await lines.next();
    expect(first.result.commit.repo.name).toBe('images');
    const existing = await results(upstream.url, 'pfs_v2.API/ListCommit', { repo: repo('images') });
    for (let index = 1; index < existing.length; index++) await lines.next();
    // A new commit upstream shows up on the open stream.
    const id = await commitFiles(upstream.url, 'images', { '/later.txt': 'later' });
    const next = await lines.next();
    expect(next.result.commit.id).toBe(id);
    controller.abort();
  });
});

describe('cluster mode: cluster identity (in-process cluster server)', () => {
  let inProcess: TestServer;
  beforeAll(async () => {
    inProcess = await startTestServer({ pachdAddress: upstream.url });
  });
  afterAll(() => inProcess?.close());

  it('reads the cluster id from admin_v2.API/InspectCluster', async () => {
    const expected = (await ok(upstream.url, 'admin_v2.API/InspectCluster', {})).id;
    expect(await inProcess.server.cluster!.identity.fetch()).toBe(expected);
    expect(inProcess.server.cluster!.identity.id).toBe(expected);
    const local = await ok(inProcess.url, 'admin_v2.API/InspectCluster', {});
    expect(local.id).toBe(expected);
  });
});

describe('cluster mode: the cluster goes away and comes back', () => {
  it('answers 503 "upstream connect error" while it is down and recovers on the same port', async () => {
    // An open stream is told when the cluster dies under it.
    const response = await fetch(`${cluster.url}/api/pfs_v2.API/SubscribeCommit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ repo: repo('images'), branch: 'master' }),
    });
    const lines = lineReader(response.body!);
    await lines.next();
    await upstream.kill();
    let last: Json;
    do last = await lines.next();
    while (last.result);
    expect(last.error.code).toBe(14);
    expect(last.error.message).toMatch(/upstream connect error/);

    const down = await call(cluster.url, 'pfs_v2.API/ListRepo', {});
    expect(down.status).toBe(503);
    expect(down.contentType).toBe('application/json');
    expect(down.body.code).toBe(14);
    expect(down.body.message).toMatch(
      /^upstream connect error or disconnect\/reset before headers: .*ECONNREFUSED/,
    );
    expect(down.body.details).toEqual([]);
    const file = await fetch(`${cluster.url}/files/default/images/master/readme.txt`);
    expect(file.status).toBe(503);
    expect(((await file.json()) as Json).message).toMatch(/upstream connect error/);

    upstream = await upstream.restart({ PORT: upstreamPort });
    expect(new URL(upstream.url).port).toBe(upstreamPort);
    const repos = await results(cluster.url, 'pfs_v2.API/ListRepo', { type: 'user' });
    expect(repos.map((info: Json) => info.repo.name).sort()).toEqual(['echoer', 'images', 'words']);
  });
});

function* chunked(bytes: Buffer, size: number): Generator<Buffer> {
  for (let offset = 0; offset < bytes.length; offset += size)
    yield bytes.subarray(offset, offset + size);
}

function sha(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
