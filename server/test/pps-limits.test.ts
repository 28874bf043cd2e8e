import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, commitFiles, ok, repo } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { createPipeline, lastJob, pipeline, readAll } from './helpers/pps.ts';

/**
 * Limits on pipeline code, in the real sandbox (bubblewrap) with this machine's control groups
 * (or rlimits where it has none): a fork bomb, a memory hog, a /tmp filler and a file over the
 * disk limit each fail their datum with a reason naming the limit, while another job runs to
 * success beside them and the server answers; no datum may make a user namespace.
 */
let server: TestServer;
let url: string;

// The server's own setting for processes (a spec cannot set it): read when a job starts.
const previousLimits = process.env.IVORY_DATUM_LIMITS;
process.env.IVORY_DATUM_LIMITS = 'pids=64';

beforeAll(async () => {
  server = await startTestServer();
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('in') });
  await commitFiles(url, 'in', { '/x': 'x' });
});
afterAll(async () => {
  await server?.close();
  if (previousLimits === undefined) delete process.env.IVORY_DATUM_LIMITS;
  else process.env.IVORY_DATUM_LIMITS = previousLimits;
});

const limited = (name: string, script: string, resourceLimits: object = {}) =>
  createPipeline(url, {
    pipeline: pipeline(name),
    transform: { cmd: ['sh', '-c', script] },
    input: { pfs: { repo: 'in', glob: '/*' } },
    datumTries: 1,
    resourceLimits: { memory: '128Mi', disk: '16Mi', ...resourceLimits },
  });

describe('limits on a datum', () => {
  it('end a fork bomb, a memory hog and a /tmp filler with the limit named; others carry on', async () => {
    await limited(
      'forks',
      // 200 processes against a limit of 64; whatever was refused, it exits 0.
      'for i in $(seq 200); do sleep 2 & done 2>/dev/null; wait; exit 0',
    );
    await limited('hog', `python3 -c "b = bytearray(b'x') * (512 * 1024 * 1024); print(len(b))"`);
    // Files under the size limit each, filling /tmp together.
    await limited('filler', 'for i in 1 2 3 4; do head -c 8M /dev/zero > /tmp/f$i || exit 1; done');
    await limited('bigfile', 'head -c 64M /dev/zero > /pfs/out/big');
    await createPipeline(url, {
      pipeline: pipeline('fine'),
      transform: { cmd: ['sh', '-c', 'sleep 1; echo fine > /pfs/out/ok'] },
      input: { pfs: { repo: 'in', glob: '/*' } },
    });

    const reasons: Record<string, string> = {};
    for (const name of ['forks', 'hog', 'filler', 'bigfile']) {
      const job = await lastJob(url, name);
      expect(job.state, name).toBe('JOB_FAILURE');
      reasons[name] = job.reason as string;
    }
    expect(reasons.forks).toMatch(/hit its process limit \(64 processes and threads\)/);
    expect(reasons.hog).toMatch(/over its memory limit \(128 MiB\)/);
    expect(reasons.filler).toMatch(/its \/tmp is full: over its disk limit \(16 MiB\)/);
    expect(reasons.bigfile).toMatch(/a file grew over its disk limit \(16 MiB\)/);

    const fine = await lastJob(url, 'fine');
    expect(fine.state).toBe('JOB_SUCCESS');
    expect(await readAll(url, 'fine', 'master')).toEqual({ '/ok': 'fine\n' });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  }, 60_000);

  it('makes no user namespace (unshare -U answers EPERM inside)', async () => {
    await createPipeline(url, {
      pipeline: pipeline('userns'),
      transform: {
        cmd: [
          'sh',
          '-c',
          'unshare -U -r id -u > /pfs/out/inside 2>/pfs/out/error; echo $? > /pfs/out/status',
        ],
      },
      input: { pfs: { repo: 'in', glob: '/*' } },
    });
    const job = await lastJob(url, 'userns');
    expect(job.state).toBe('JOB_SUCCESS');
    const files = await readAll(url, 'userns', 'master');
    expect(files['/status']).toBe('1\n');
    expect(files['/inside']).toBe('');
    expect(files['/error']).toMatch(/Operation not permitted/);
  });

  it('refuses limits over the server’s maximum, and requests over their limit (3)', async () => {
    const over = await call(url, 'pps_v2.API/CreatePipelineV2', {
      createPipelineRequestJson: JSON.stringify({
        pipeline: pipeline('greedy'),
        transform: { cmd: ['true'] },
        input: { pfs: { repo: 'in', glob: '/*' } },
        resourceLimits: { memory: '100Ei' },
      }),
    });
    expect(over.body.code).toBe(3);
    expect(over.body.message).toMatch(/resourceLimits.memory .* is over the server's maximum/);
    const request = await call(url, 'pps_v2.API/CreatePipelineV2', {
      createPipelineRequestJson: JSON.stringify({
        pipeline: pipeline('greedy'),
        transform: { cmd: ['true'] },
        input: { pfs: { repo: 'in', glob: '/*' } },
        resourceLimits: { memory: '64Mi' },
        resourceRequests: { memory: '1Gi' },
      }),
    });
    expect(request.body.code).toBe(3);
    expect(request.body.message).toMatch(/resourceRequests.memory 1 GiB is over its limit 64 MiB/);
  });
});
