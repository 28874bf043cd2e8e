import { describe, expect, it } from 'vitest';
import { call, callStream, commitFiles, ok, results, type Json } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { createPipeline, pipeline, waitJob } from './helpers/pps.ts';

const { url } = useTestServer({ projects: ['default'], repos: ['raw'] });

const copy = (name: string, input: string) => ({
  pipeline: pipeline(name),
  transform: { cmd: ['sh', '-c', `cp -r /pfs/${input}/* /pfs/out/`] },
  input: { pfs: { repo: input, glob: '/' } },
});

const repoPicker = (name: string, type = 'user') => ({
  name: { project: { name: 'default' }, name, type },
});
const branchPicker = (name: string, type = 'user', branch = 'master') => ({
  name: { repo: repoPicker(name, type), name: branch },
});
const key = (info: Json) => `${info.commit.repo.name}.${info.commit.repo.type}`;
const branchKey = (info: Json) =>
  `${info.branch.repo.name}.${info.branch.repo.type}@${info.branch.name}`;

describe('provenance walks over a two-stage DAG', () => {
  it('walks commit and branch provenance and subvenance, with depth and count limits', async () => {
    await createPipeline(url(), copy('clean', 'raw'));
    await createPipeline(url(), copy('model', 'clean'));
    const id = await commitFiles(url(), 'raw', { '/x.csv': '1,2' });
    expect((await waitJob(url(), 'model', id)).state).toBe('JOB_SUCCESS');

    const start = [{ id: { repo: repoPicker('model'), id } }];
    const up = await results(url(), 'pfs_v2.API/WalkCommitProvenance', { start });
    expect(up.map(key)).toEqual(['model.user', 'clean.user', 'raw.user']);
    expect(up.every((c: Json) => c.commit.id === id)).toBe(true);
    const shallow = await results(url(), 'pfs_v2.API/WalkCommitProvenance', { start, maxDepth: 1 });
    expect(shallow.map(key)).toEqual(['model.user', 'clean.user']);
    const few = await results(url(), 'pfs_v2.API/WalkCommitProvenance', { start, maxCommits: '2' });
    expect(few).toHaveLength(2);
    const down = await results(url(), 'pfs_v2.API/WalkCommitSubvenance', {
      start: [{ branchHead: branchPicker('raw') }],
    });
    expect(down.map(key).filter((k: string) => k.endsWith('.user'))).toEqual([
      'raw.user',
      'clean.user',
      'model.user',
    ]);

    const branchesUp = await results(url(), 'pfs_v2.API/WalkBranchProvenance', {
      start: [branchPicker('model')],
    });
    expect(branchesUp.map(branchKey)).toEqual([
      'model.user@master',
      'clean.user@master',
      'model.spec@master',
      'clean.spec@master',
      'raw.user@master',
    ]);
    const branchesDown = await results(url(), 'pfs_v2.API/WalkBranchSubvenance', {
      start: [branchPicker('raw')],
      maxDepth: 1,
    });
    expect(branchesDown.map(branchKey)).toEqual([
      'raw.user@master',
      'clean.meta@master',
      'clean.user@master',
    ]);
  });
});

describe('pps surface', () => {
  it('UpdateJobState stops a running job in a terminal state; a finished job answers 9', async () => {
    await createPipeline(url(), {
      pipeline: pipeline('slow'),
      transform: { cmd: ['sh', '-c', 'sleep 30'] },
      input: { pfs: { repo: 'raw', glob: '/' } },
    });
    let job: Json;
    for (let i = 0; i < 200; i++) {
      const jobs = await results(url(), 'pps_v2.API/ListJob', {
        pipeline: pipeline('slow'),
        history: -1,
      });
      job = jobs[0];
      if (job && job.state === 'JOB_RUNNING') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(job.state).toBe('JOB_RUNNING');
    await ok(url(), 'pps_v2.API/UpdateJobState', {
      job: job.job,
      state: 'JOB_KILLED',
      reason: 'operator said so',
      dataTotal: '1',
    });
    const done = await ok(url(), 'pps_v2.API/InspectJob', { job: job.job, wait: true });
    expect(done.state).toBe('JOB_KILLED');
    expect(done.reason).toBe('operator said so');
    const again = await call(url(), 'pps_v2.API/UpdateJobState', {
      job: job.job,
      state: 'JOB_RUNNING',
    });
    expect(again.body.code).toBe(9);
    await ok(url(), 'pps_v2.API/StopPipeline', { pipeline: pipeline('slow') });
  });

  it('CheckStatus streams one line per pipeline with its alerts', async () => {
    const lines = await results(url(), 'pps_v2.API/CheckStatus', { all: true });
    const byName = new Map(lines.map((l: Json) => [l.pipeline.name, l]));
    expect([...byName.keys()].sort()).toEqual(['clean', 'model', 'slow']);
    expect(byName.get('clean')).toEqual({
      project: { name: 'default' },
      pipeline: { project: { name: 'default' }, name: 'clean' },
      alerts: [],
    });
    expect((byName.get('slow') as Json).alerts).toContain('pipeline is stopped');
    const scoped = await results(url(), 'pps_v2.API/CheckStatus', { project: { name: 'default' } });
    expect(scoped).toHaveLength(3);
    expect((await callStream(url(), 'pps_v2.API/ListTask', {})).lines).toEqual([]);
  });

  it('GetKubeEvents and QueryLoki answer 12: they need a cluster', async () => {
    for (const method of ['GetKubeEvents', 'QueryLoki']) {
      const response = await call(url(), `pps_v2.API/${method}`, {});
      expect(response.body.code).toBe(12);
      expect(response.body.message).toMatch(/cluster/);
    }
  });

  it('DeleteAll deletes every pipeline, then every repo', async () => {
    await ok(url(), 'pps_v2.API/DeleteAll', {});
    expect(await results(url(), 'pps_v2.API/ListPipeline', {})).toEqual([]);
    expect(await results(url(), 'pfs_v2.API/ListRepo', {})).toEqual([]);
    expect(await results(url(), 'pps_v2.API/ListJob', {})).toEqual([]);
  });
});
