import { pfs_v2, pps_v2 } from '@ivory/api/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient, grpcFailure } from './helpers/grpc-client.ts';
import { startSignedInTestServer, type SignedInTestServer } from './helpers/in-process-server.ts';
import { branchRef, putText, repoRef, signedInApi, type Json } from './helpers/signed-in-api.ts';

// Everything a pipeline refers to is checked against its creator's roles, at creation (its
// defaults merged in, inputs nested at any depth) and when it runs; commit sets and job sets show
// only what the caller may read. Over HTTP and gRPC, with the real identity provider's key.
// carol: admin, owns project q (repo victim, holding a file; a secret). alice owns project p
// (repo data). bob: projectWriter in p, repoReader on q/victim.

let server: SignedInTestServer;
let api: ReturnType<typeof signedInApi>['api'];
let ok: ReturnType<typeof signedInApi>['ok'];

const pipelineSpec = (name: string, input: Json, extra: Json = {}) => ({
  pipeline: { name, project: { name: 'p' } },
  transform: { cmd: ['true'] },
  input,
  ...extra,
});
const pfsInput = (project: string, repo: string) => ({ pfs: { project, repo, glob: '/*' } });
const create = (who: string, spec: Json) =>
  api(who, 'pps_v2.API/CreatePipelineV2', { createPipelineRequestJson: JSON.stringify(spec) });

/** CreatePipelineV2 over gRPC as `who`: the failure's code and message. */
async function createOverGrpc(who: string, spec: Json) {
  const client = grpcClient(server.grpcAddress, server.tokens[who]);
  try {
    return await grpcFailure(
      client.unary(pps_v2.API.method.createPipelineV2, {
        createPipelineRequestJson: JSON.stringify(spec),
      }),
    );
  } finally {
    client.close();
  }
}

const victimFiles = async () =>
  (
    await ok('carol', 'pfs_v2.API/ListFile', {
      file: { commit: branchRef('q', 'victim'), path: '/' },
    })
  ).lines.map((line) => line.result.file.path as string);

beforeAll(async () => {
  server = await startSignedInTestServer(['alice', 'bob', 'carol'], {
    admins: ['carol@example.com'],
    grpc: { port: 0, optional: false },
  });
  ({ api, ok } = signedInApi(server));
  await ok('carol', 'pfs_v2.API/CreateProject', { project: { name: 'q' } });
  await ok('carol', 'pfs_v2.API/CreateRepo', { repo: repoRef('q', 'victim') });
  await ok('carol', 'pfs_v2.API/ModifyFile', putText('q', 'victim', '/keep.txt', 'precious'));
  await ok('carol', 'pps_v2.API/CreateSecret', {
    file: Buffer.from(
      JSON.stringify({
        kind: 'Secret',
        metadata: { name: 'admin-secret' },
        stringData: { k: 'v' },
      }),
    ).toString('base64'),
  });
  await ok('alice', 'pfs_v2.API/CreateProject', { project: { name: 'p' } });
  await ok('alice', 'pfs_v2.API/CreateRepo', { repo: repoRef('p', 'data') });
  await ok('alice', 'pfs_v2.API/ModifyFile', putText('p', 'data', '/a.txt', 'alpha'));
  await ok('alice', 'auth_v2.API/ModifyRoleBinding', {
    resource: { type: 'PROJECT', name: 'p' },
    principal: 'user:bob@example.com',
    roles: ['projectWriter'],
  });
  await ok('carol', 'auth_v2.API/ModifyRoleBinding', {
    resource: { type: 'REPO', name: 'q/victim' },
    principal: 'user:bob@example.com',
    roles: ['repoReader'],
  });
}, 60_000);

afterAll(() => server?.close());

describe('cron inputs write: their creator needs write there', () => {
  const overwriteVictim = pipelineSpec('clobber', {
    cron: { name: 'tick', spec: '@every 1h', project: 'q', repo: 'victim', overwrite: true },
  });

  it('refuses a cron input naming a repo the creator may only read (7), HTTP and gRPC', async () => {
    const answer = await create('bob', overwriteVictim);
    expect(answer.status).toBe(403);
    expect(answer.body.message).toMatch(/needs permissions \[REPO_WRITE\] on REPO q\/victim/);
    const overGrpc = await createOverGrpc('bob', overwriteVictim);
    expect(overGrpc.code).toBe(7);
    expect(overGrpc.details).toBe(answer.body.message);
    expect(
      (
        await api('bob', 'pps_v2.API/InspectPipeline', {
          pipeline: { name: 'clobber', project: { name: 'p' } },
        })
      ).status,
    ).toBe(404);
    expect(await victimFiles()).toEqual(['/keep.txt']);
  });

  it('refuses a cron input that would make a repo in a project the creator has no role in', async () => {
    const answer = await create(
      'bob',
      pipelineSpec('elsewhere', { cron: { name: 'tick', spec: '@every 1h', project: 'q' } }),
    );
    expect(answer.body.code).toBe(7);
    expect(answer.body.message).toMatch(/\[PROJECT_CREATE_REPO\] on PROJECT q/);
    const repos = await ok('carol', 'pfs_v2.API/ListRepo', { projects: [{ name: 'q' }] });
    expect(repos.lines.map((line) => line.result.repo.name)).not.toContain('elsewhere_tick');
  });

  it('checks the creator again at each tick: RunCron writes nothing once they may not', async () => {
    await ok('bob', 'pps_v2.API/CreatePipelineV2', {
      createPipelineRequestJson: JSON.stringify(
        pipelineSpec('ticker', { cron: { name: 'tick', spec: '@every 1h' } }),
      ),
    });
    const pipeline = { name: 'ticker', project: { name: 'p' } };
    await ok('bob', 'pps_v2.API/RunCron', { pipeline });
    const ticks = async () =>
      (await ok('alice', 'pfs_v2.API/ListCommit', { repo: repoRef('p', 'ticker_tick') })).lines
        .length;
    expect(await ticks()).toBe(1);
    // bob made the cron repo (its owner) as a project writer: both taken away.
    await ok('alice', 'auth_v2.API/ModifyRoleBinding', {
      resource: { type: 'REPO', name: 'p/ticker_tick' },
      principal: 'user:bob@example.com',
      roles: [],
    });
    await ok('alice', 'auth_v2.API/ModifyRoleBinding', {
      resource: { type: 'PROJECT', name: 'p' },
      principal: 'user:bob@example.com',
      roles: ['projectViewer'],
    });
    try {
      const refused = await api('alice', 'pps_v2.API/RunCron', { pipeline });
      expect(refused.body.code).toBe(7);
      expect(refused.body.message).toMatch(
        /may no longer write cron input repo p\/ticker_tick: user:bob@example\.com \(its creator\) lacks REPO_WRITE/,
      );
      expect(await ticks()).toBe(1);
    } finally {
      await ok('alice', 'auth_v2.API/ModifyRoleBinding', {
        resource: { type: 'PROJECT', name: 'p' },
        principal: 'user:bob@example.com',
        roles: ['projectWriter'],
      });
    }
  });
});

describe('defaults are checked as if written in the spec', () => {
  it('refuses project defaults pointing a cron input at another project’s repo', async () => {
    const answer = await api('alice', 'pps_v2.API/SetProjectDefaults', {
      project: { name: 'p' },
      projectDefaultsJson: JSON.stringify({
        createPipelineRequest: {
          input: {
            cron: { name: 't', spec: '@every 1h', project: 'q', repo: 'victim', overwrite: true },
          },
        },
      }),
    });
    expect(answer.body.code).toBe(7);
    expect(answer.body.message).toMatch(
      /\[PROJECT_CREATE_REPO\] on PROJECT q|\[REPO_WRITE\] on REPO q\/victim/,
    );
  });

  it('refuses a spec whose merged defaults name a secret or a cron repo the creator may not use', async () => {
    await ok('carol', 'pps_v2.API/SetProjectDefaults', {
      project: { name: 'p' },
      projectDefaultsJson: JSON.stringify({
        createPipelineRequest: {
          transform: { secrets: [{ name: 'admin-secret', key: 'k', envVar: 'S' }] },
        },
      }),
    });
    try {
      const withSecret = await create('bob', pipelineSpec('quiet', pfsInput('p', 'data')));
      expect(withSecret.body.code).toBe(7);
      expect(withSecret.body.message).toMatch(/\[SECRET_INSPECT\] on CLUSTER/);
      await ok('carol', 'pps_v2.API/SetProjectDefaults', {
        project: { name: 'p' },
        projectDefaultsJson: JSON.stringify({
          createPipelineRequest: {
            input: { cron: { name: 't', spec: '@every 1h', project: 'q', repo: 'victim' } },
          },
        }),
      });
      const withCron = await create('bob', { ...pipelineSpec('quiet', {}), input: undefined });
      expect(withCron.body.code).toBe(7);
      expect(withCron.body.message).toMatch(/\[REPO_WRITE\] on REPO q\/victim/);
    } finally {
      await ok('carol', 'pps_v2.API/SetProjectDefaults', {
        project: { name: 'p' },
        projectDefaultsJson: '{}',
      });
    }
  });
});

describe('secrets named in a pipeline need what reading them needs', () => {
  it('refuses a writer naming an admin’s secret (7), HTTP and gRPC', async () => {
    expect(
      (await api('bob', 'pps_v2.API/InspectSecret', { secret: { name: 'admin-secret' } })).body
        .code,
    ).toBe(7);
    const spec = pipelineSpec('leak', pfsInput('p', 'data'), {
      transform: {
        cmd: ['sh', '-c', 'echo $S > /pfs/out/s'],
        secrets: [{ name: 'admin-secret', key: 'k', envVar: 'S' }],
      },
    });
    const answer = await create('bob', spec);
    expect(answer.body.code).toBe(7);
    expect(answer.body.message).toMatch(
      /^user:bob@example\.com is not authorized.*\[SECRET_INSPECT\] on CLUSTER/,
    );
    expect((await createOverGrpc('bob', spec)).code).toBe(7);
  });
});

describe('nested inputs are checked at any depth, at creation', () => {
  it('refuses an unreadable input six crosses deep (7), HTTP and gRPC', async () => {
    let input: Json = pfsInput('q', 'victim');
    // bob may read q/victim; q/hidden he may not.
    await ok('carol', 'pfs_v2.API/CreateRepo', { repo: repoRef('q', 'hidden') });
    input = { pfs: { project: 'q', repo: 'hidden', glob: '/*' } };
    for (let depth = 0; depth < 6; depth++)
      input = {
        cross: [{ pfs: { project: 'p', repo: 'data', glob: '/*', name: `d${depth}` } }, input],
      };
    const spec = pipelineSpec('deep', input);
    const answer = await create('bob', spec);
    expect(answer.body.code).toBe(7);
    expect(answer.body.message).toMatch(/\[REPO_READ\] on REPO q\/hidden/);
    expect((await createOverGrpc('bob', spec)).code).toBe(7);
  });
});

describe('commit sets and job sets show only what the caller may read', () => {
  it('keeps another project’s commits out of ListCommitSet and InspectCommitSet', async () => {
    // carol's pipeline in q reads p/data: a commit alice makes there starts a job whose output
    // commit in q shares its ID.
    await ok('carol', 'pps_v2.API/CreatePipelineV2', {
      createPipelineRequestJson: JSON.stringify({
        ...pipelineSpec('mirror', pfsInput('p', 'data')),
        pipeline: { name: 'mirror', project: { name: 'q' } },
      }),
    });
    await ok('alice', 'pfs_v2.API/ModifyFile', putText('p', 'data', '/b.txt', 'beta'));
    const id = (await ok('alice', 'pfs_v2.API/InspectCommit', { commit: branchRef('p', 'data') }))
      .body.commit.id as string;
    const repos = (lines: Json[]) =>
      lines.map((line) => `${line.commit.repo.project.name}/${line.commit.repo.name}`).sort();
    // The job's output commit joins the set when the job starts.
    const deadline = Date.now() + 20_000;
    let full: string[] = [];
    while (!full.includes('q/mirror') && Date.now() < deadline) {
      const set = await ok('carol', 'pfs_v2.API/InspectCommitSet', { commitSet: { id } });
      full = repos(set.lines.map((line) => line.result));
      if (!full.includes('q/mirror')) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(full).toContain('q/mirror');

    const inspected = await ok('alice', 'pfs_v2.API/InspectCommitSet', { commitSet: { id } });
    expect(repos(inspected.lines.map((line) => line.result))).toEqual(['p/data']);
    const listed = await ok('alice', 'pfs_v2.API/ListCommitSet', {});
    const set = listed.lines.map((line) => line.result).find((s) => s.commitSet.id === id);
    expect(repos(set.commits)).toEqual(['p/data']);
    for (const other of listed.lines)
      for (const commit of other.result.commits) expect(commit.commit.repo.project.name).toBe('p');
    const jobSets = await ok('alice', 'pps_v2.API/ListJobSet', {});
    const jobProjects = jobSets.lines.flatMap((line) =>
      line.result.jobs.map((job: Json) => job.job.pipeline.project.name),
    );
    expect(jobProjects).not.toContain('q');
    const seenByCarol = await ok('carol', 'pps_v2.API/ListJobSet', {});
    expect(
      seenByCarol.lines.flatMap((line) =>
        line.result.jobs.map((job: Json) => job.job.pipeline.project.name),
      ),
    ).toContain('q');

    const client = grpcClient(server.grpcAddress, server.tokens.alice);
    const sets = await client.serverStream(pfs_v2.API.method.listCommitSet, {});
    const commits = await client.serverStream(pfs_v2.API.method.inspectCommitSet, {
      commitSet: { id },
    });
    client.close();
    const projects = sets.flatMap((s) => s.commits.map((c) => c.commit?.repo?.project?.name));
    expect(new Set(projects)).toEqual(new Set(['p']));
    expect(commits.map((c) => `${c.commit?.repo?.project?.name}/${c.commit?.repo?.name}`)).toEqual([
      'p/data',
    ]);
  });
});
