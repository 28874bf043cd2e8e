import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedInTestServer, type SignedInTestServer } from './helpers/in-process-server.ts';

// A pipeline runs as its creator's permissions, checked again when each job starts: with
// sign-in on (a real identity provider's signing key), a pipeline whose creator lost access to
// its input fails its next job with the reason and writes nothing to its output repo.
// alice owns project w; bob is a projectWriter there until alice revokes it.

let server: SignedInTestServer;
let tokens: Record<string, string>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function api(who: string, method: string, body: unknown = {}) {
  const isModifyFile = method === 'pfs_v2.API/ModifyFile';
  const response = await fetch(`${server.url}/api/${method}`, {
    method: 'POST',
    headers: {
      'content-type': isModifyFile ? 'application/x-ndjson' : 'application/json',
      authorization: `Bearer ${tokens[who]}`,
    },
    body: isModifyFile
      ? (body as unknown[]).map((line) => JSON.stringify(line)).join('\n')
      : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const lines = (await response.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Json);
  return { status: response.status, body: (lines.length === 1 ? lines[0] : null) as Json, lines };
}

async function ok(who: string, method: string, body: unknown = {}) {
  const answer = await api(who, method, body);
  if (answer.status !== 200)
    throw new Error(`${who} ${method}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

const repo = (name: string) => ({ name, type: 'user', project: { name: 'w' } });
const master = (name: string) => ({ branch: { repo: repo(name), name: 'master' } });

async function push(who: string, name: string, path: string, text: string): Promise<string> {
  await ok(who, 'pfs_v2.API/ModifyFile', [
    { setCommit: master(name) },
    { addFile: { path, raw: Buffer.from(text).toString('base64') } },
  ]);
  return (await ok(who, 'pfs_v2.API/InspectCommit', { commit: master(name) })).body.commit
    .id as string;
}

async function jobOf(pipeline: string, id: string): Promise<Json> {
  return (
    await ok('alice', 'pps_v2.API/InspectJob', {
      job: { pipeline: { name: pipeline, project: { name: 'w' } }, id },
      wait: true,
    })
  ).body;
}

beforeAll(async () => {
  server = await startSignedInTestServer(['alice', 'bob']);
  ({ tokens } = server);
  await ok('alice', 'pfs_v2.API/CreateProject', { project: { name: 'w' } });
  await ok('alice', 'pfs_v2.API/CreateRepo', { repo: repo('in') });
  await ok('alice', 'auth_v2.API/ModifyRoleBinding', {
    resource: { type: 'PROJECT', name: 'w' },
    principal: 'user:bob@example.com',
    roles: ['projectWriter'],
  });
}, 60_000);

afterAll(() => server?.close());

describe('a pipeline’s permissions, when its job starts', () => {
  it('runs while its creator may read the input and write the output', async () => {
    await ok('bob', 'pps_v2.API/CreatePipeline', {
      pipeline: { name: 'copy', project: { name: 'w' } },
      transform: { cmd: ['sh', '-c', 'cp -r /pfs/in/. /pfs/out/'] },
      input: { pfs: { project: 'w', repo: 'in', glob: '/*' } },
    });
    const id = await push('alice', 'in', '/first.txt', 'one');
    const job = await jobOf('copy', id);
    expect(job.state).toBe('JOB_SUCCESS');
    const files = await ok('alice', 'pfs_v2.API/ListFile', {
      file: { commit: { ...master('copy'), id }, path: '/' },
    });
    expect(files.lines.map((line: Json) => line.result.file.path)).toEqual(['/first.txt']);
  }, 60_000);

  it('fails with the repo and permission, and writes nothing, once the creator’s binding is revoked', async () => {
    await ok('alice', 'auth_v2.API/ModifyRoleBinding', {
      resource: { type: 'PROJECT', name: 'w' },
      principal: 'user:bob@example.com',
      roles: [],
    });
    const id = await push('alice', 'in', '/second.txt', 'two');
    const job = await jobOf('copy', id);
    expect(job.state).toBe('JOB_FAILURE');
    expect(job.reason).toBe(
      'pipeline w/copy may no longer read input repo w/in: user:bob@example.com (its creator) ' +
        'lacks REPO_READ on it',
    );
    expect(job.dataProcessed ?? '0').toBe('0');
    // No output commit for this job, and the output branch still holds only the first job's.
    const commit = await api('alice', 'pfs_v2.API/InspectCommit', {
      commit: { ...master('copy'), id },
    });
    expect(commit.status).toBe(404);
    const files = await ok('alice', 'pfs_v2.API/ListFile', {
      file: { commit: master('copy'), path: '/' },
    });
    expect(files.lines.map((line: Json) => line.result.file.path)).toEqual(['/first.txt']);
    // Listings are checked before their first line: bob may no longer read the input.
    const glob = { commit: master('in'), pattern: '/**' };
    const denied = await api('bob', 'pfs_v2.API/GlobFile', glob);
    expect([denied.status, denied.lines.length]).toEqual([403, 1]);
    expect(denied.body.code).toBe(7);
    const found = await ok('alice', 'pfs_v2.API/GlobFile', glob);
    expect(found.lines.map((line: Json) => line.result.file.path)).toEqual([
      '/first.txt',
      '/second.txt',
    ]);
  }, 60_000);

  it('fails when the robot principal’s own binding on the output is revoked', async () => {
    // bob may read the input again; the robot loses repoWriter on the output repo.
    await ok('alice', 'auth_v2.API/ModifyRoleBinding', {
      resource: { type: 'PROJECT', name: 'w' },
      principal: 'user:bob@example.com',
      roles: ['projectWriter'],
    });
    await ok('alice', 'auth_v2.API/ModifyRoleBinding', {
      resource: { type: 'REPO', name: 'w/copy' },
      principal: 'robot:pipeline-w-copy',
      roles: [],
    });
    const id = await push('alice', 'in', '/third.txt', 'three');
    const job = await jobOf('copy', id);
    expect(job.state).toBe('JOB_FAILURE');
    expect(job.reason).toBe(
      'pipeline w/copy may no longer write output repo w/copy: robot:pipeline-w-copy lacks ' +
        'REPO_WRITE on it',
    );
  }, 60_000);
});
