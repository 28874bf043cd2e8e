import { describe, expect, it } from 'vitest';
import { call, commitFiles, commitId, ok, repo, results, type Json } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { createPipeline, pipeline, readAll, waitJob } from './helpers/pps.ts';

const { url } = useTestServer({ projects: ['default'] });

const ids = async (name: string) =>
  (await results(url(), 'pfs_v2.API/ListCommit', { repo: repo(name) })).map(
    (c: Json) => c.commit.id,
  );

describe('squash and drop', () => {
  it('squashes a middle commit: its child keeps every file, history skips it', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('sq') });
    const c1 = await commitFiles(url(), 'sq', { '/a': '1' });
    const c2 = await commitFiles(url(), 'sq', { '/b': '2' });
    const c3 = await commitFiles(url(), 'sq', { '/c': '3' });
    await ok(url(), 'pfs_v2.API/SquashCommitSet', { commitSet: { id: c2 } });
    expect(await ids('sq')).toEqual([c3, c1]);
    expect(await readAll(url(), 'sq', c3)).toEqual({ '/a': '1', '/b': '2', '/c': '3' });
    const head = await ok(url(), 'pfs_v2.API/InspectCommit', { commit: commitId('sq', c3) });
    expect(head.parentCommit.id).toBe(c1);
    // The head has no children: nothing to squash into.
    const headSquash = await call(url(), 'pfs_v2.API/SquashCommit', { commit: commitId('sq', c3) });
    expect(headSquash.body.code).toBe(9);
  });

  it('drops only the newest commit of a branch; the branch moves back', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('dr') });
    const c1 = await commitFiles(url(), 'dr', { '/a': '1' });
    const c2 = await commitFiles(url(), 'dr', { '/b': '2' });
    const middle = await call(url(), 'pfs_v2.API/DropCommitSet', { commitSet: { id: c1 } });
    expect(middle.body.code).toBe(9);
    await ok(url(), 'pfs_v2.API/DropCommit', { commit: commitId('dr', c2) });
    expect(await ids('dr')).toEqual([c1]);
    expect(await readAll(url(), 'dr', 'master')).toEqual({ '/a': '1' });
    // Dropping the root leaves the branch on a new empty commit.
    await ok(url(), 'pfs_v2.API/DropCommit', { commit: commitId('dr', c1) });
    expect(await readAll(url(), 'dr', 'master')).toEqual({});
    expect(
      (await call(url(), 'pfs_v2.API/DropCommitSet', { commitSet: { id: 'nope' } })).status,
    ).toBe(404);
  });

  it('needs recursive (or the whole commit set) when pipelines consumed the commit', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('src') });
    await commitFiles(url(), 'src', { '/x': 'x1' });
    await createPipeline(url(), {
      pipeline: pipeline('copy'),
      transform: { cmd: ['sh', '-c', 'cp -r /pfs/src/* /pfs/out/'] },
      input: { pfs: { repo: 'src', glob: '/' } },
    });
    const id = await commitFiles(url(), 'src', { '/y': 'y' });
    expect((await waitJob(url(), 'copy', id)).state).toBe('JOB_SUCCESS');
    const plain = await call(url(), 'pfs_v2.API/DropCommit', { commit: commitId('src', id) });
    expect(plain.body.code).toBe(9);
    expect(plain.body.message).toMatch(/recursive/);
    await ok(url(), 'pfs_v2.API/DropCommit', { commit: commitId('src', id), recursive: true });
    expect(await readAll(url(), 'src', 'master')).toEqual({ '/x': 'x1' });
    expect(await readAll(url(), 'copy', 'master')).toEqual({ '/x': 'x1' });
    expect(
      (await call(url(), 'pfs_v2.API/InspectCommit', { commit: commitId('copy', id) })).status,
    ).toBe(404);
    const jobs = await results(url(), 'pps_v2.API/ListJob', {
      pipeline: pipeline('copy'),
      history: -1,
    });
    expect(jobs.map((j: Json) => j.job.id)).not.toContain(id);
  });
});
