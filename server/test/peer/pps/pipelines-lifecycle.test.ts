// Ported from Pachyderm's src/server/pachyderm_test.go: a pipeline's life — created (its name's
// limits), fed commits, stopped and started, its jobs stopped and deleted, deleted and created
// again, cron ticks on demand, its logs, and outputs that collide. The pipelines run shell tools
// (bash, sh, cp, cat, sleep) in the embedded runner's sandbox.
import { pfs_v2 } from '@ivory/api/proto';
import { describe, expect, it } from 'vitest';
import { failure, inputs, JobState, type PeerClient } from '../support/peer-client.ts';
import { eventually, newVersionJob, unique, usePeerServer } from '../support/peer-server.ts';

const env = usePeerServer();
const project = 'default';

/** A commit of one appended file on master, finished; its ID. */
async function commitFile(c: PeerClient, proj: string, repo: string, path: string, data: string) {
  const commit = await c.startCommit(proj, repo, 'master');
  await c.putFile(c.commit(proj, repo, '', commit.id), path, data, { append: true });
  await c.finishCommit(proj, repo, '', commit.id);
  return commit.id;
}

const cpPipeline = (c: PeerClient, proj: string, name: string, repo: string, inputProject = proj) =>
  c.createPipeline(proj, name, ['bash'], inputs.pfs(inputProject, repo, '/*'), {
    stdin: [`cp /pfs/${repo}/* /pfs/out/`],
    parallelism: 1,
  });

describe('pachyderm_test.go: creating pipelines', () => {
  // Known difference, listed in ../README.md: fails until the behaviour lands.
  it.fails(
    'TestCreatePipeline: a commit set of four; project and pipeline names within 59 characters',
    async () => {
      const c = env.client();
      const projectName = unique('project');
      await c.createProject(projectName);
      const dataRepoName = unique('TestSimplePipeline_data');
      await c.createRepo(projectName, dataRepoName);
      await commitFile(c, projectName, dataRepoName, 'file', 'foo');
      let pipeline = unique('TestSimplePipeline');
      await cpPipeline(c, projectName, pipeline, dataRepoName);
      const commitInfo = await c.inspectCommit(projectName, pipeline, 'master');
      const commitInfos = await c.waitCommitSetAll(commitInfo.commit!.id);
      // data, spec, then the output and meta commits that depend on them
      expect(commitInfos).toHaveLength(4);
      const repos = commitInfos.map(
        (info) => `${info.commit?.repo?.name}.${info.commit?.repo?.type}`,
      );
      expect(repos.slice(0, 2).sort()).toEqual([`${dataRepoName}.user`, `${pipeline}.spec`].sort());
      expect(repos.slice(2).sort()).toEqual([`${pipeline}.meta`, `${pipeline}.user`]);
      const output = commitInfos.find(
        (info) => info.commit?.repo?.type === 'user' && info.commit.repo.name === pipeline,
      );
      expect(await c.getFile(output!.commit!, 'file')).toBe('foo');

      // 59 characters with the project's name and a hyphen are fine; 60 are not.
      pipeline = 'x'.repeat(59 - projectName.length - 1);
      await cpPipeline(c, projectName, pipeline, dataRepoName);
      pipeline = 'x'.repeat(60 - projectName.length - 1);
      await failure(cpPipeline(c, projectName, pipeline, dataRepoName));
    },
  );

  // Known difference, listed in ../README.md: fails until the behaviour lands.

  it.fails('TestCrossProjectPipeline: a pipeline reads a repo of another project', async () => {
    const c = env.client();
    const inputProjectName = unique('input');
    await c.createProject(inputProjectName);
    const dataRepoName = unique('TestSimplePipeline_data');
    await c.createRepo(inputProjectName, dataRepoName);
    await commitFile(c, inputProjectName, dataRepoName, 'file', 'foo');
    const pipelineProjectName = unique('pipeline');
    await c.createProject(pipelineProjectName);
    const pipeline = unique('TestPipeline');
    await cpPipeline(c, pipelineProjectName, pipeline, dataRepoName, inputProjectName);
    const commitInfo = await c.inspectCommit(pipelineProjectName, pipeline, 'master');
    const commitInfos = await c.waitCommitSetAll(commitInfo.commit!.id);
    expect(commitInfos).toHaveLength(4);
    const output = commitInfos.find(
      (info) =>
        info.commit?.repo?.type === 'user' &&
        info.commit.repo.name === pipeline &&
        info.commit.repo.project?.name === pipelineProjectName,
    );
    expect(await c.getFile(output!.commit!, 'file')).toBe('foo');
  });

  // Known difference, listed in ../README.md: fails until the behaviour lands.

  it.fails(
    "TestPipelineWithExistingInputCommits: one output commit over the inputs' head",
    async () => {
      const c = env.client();
      const dataRepo = unique('TestPipeline_data');
      await c.createRepo(project, dataRepo);
      await commitFile(c, project, dataRepo, 'file', 'foo\n');
      await commitFile(c, project, dataRepo, 'file', 'bar\n');
      const pipelineName = unique('pipeline');
      await c.createPipeline(
        project,
        pipelineName,
        ['cp', `/pfs/${dataRepo}/file`, '/pfs/out/file'],
        inputs.pfs(project, dataRepo, '/*'),
        { parallelism: 1 },
      );
      const commitInfo = await c.inspectCommit(project, pipelineName, 'master');
      expect(await c.waitCommitSetAll(commitInfo.commit!.id)).toHaveLength(4);
      expect(
        await c.getFile(c.commit(project, pipelineName, 'master', commitInfo.commit!.id), 'file'),
      ).toBe('foo\nbar\n');
      const commits = await c.listCommit({
        repo: c.repo(project, pipelineName),
        to: c.commit(project, pipelineName, 'master'),
      });
      expect(commits).toHaveLength(1);
    },
  );

  it('TestKeepRepo: DeletePipeline keepRepo keeps the output, drops spec and meta; the name stays taken', async () => {
    const c = env.client();
    const dataRepo = unique('TestKeepRepo_data');
    await c.createRepo(project, dataRepo);
    await c.putFile(c.commit(project, dataRepo, 'master'), 'file', 'foo', { append: true });
    const pipeline = unique('TestKeepRepo');
    await cpPipeline(c, project, pipeline, dataRepo);
    const commitInfo = await c.inspectCommit(project, pipeline, 'master');
    await c.waitCommitSetAll(commitInfo.commit!.id);
    await c.deletePipeline(project, pipeline, false, true);
    await c.inspectRepo(project, pipeline);
    for (const type of ['spec', 'meta']) {
      const { code } = await failure(
        c.grpc.unary(pfs_v2.API.method.inspectRepo, {
          repo: c.repo(project, pipeline, type),
        }),
      );
      expect(code).toBe(5);
    }
    expect(await c.getFile(c.commit(project, pipeline, 'master'), 'file')).toBe('foo');
    await failure(cpPipeline(c, project, pipeline, dataRepo));
  });
});

describe('pachyderm_test.go: feeding pipelines', () => {
  // Known difference, listed in ../README.md: fails until the behaviour lands.
  it.fails("TestPFSPipeline: a commit's file lands in the output commit of its ID", async () => {
    const c = env.client();
    const dataRepo = unique('TestPFSPipeline_data');
    await c.createRepo(project, dataRepo);
    const pipeline = unique('TestPFSPipeline');
    await cpPipeline(c, project, pipeline, dataRepo);
    const id = await commitFile(c, project, dataRepo, 'file', 'foo');
    expect(await c.waitCommitSetAll(id)).toHaveLength(4);
    expect(await c.getFile(c.commit(project, pipeline, 'master', id), 'file')).toBe('foo');
  });

  // Known difference, listed in ../README.md: fails until the behaviour lands.

  it.fails(
    'TestPipelineWithFullObjects: appends reach the output, commit after commit',
    async () => {
      const c = env.client();
      const dataRepo = unique('TestPipeline_data');
      await c.createRepo(project, dataRepo);
      const pipelineName = unique('pipeline');
      await c.createPipeline(
        project,
        pipelineName,
        ['cp', `/pfs/${dataRepo}/file`, '/pfs/out/file'],
        inputs.pfs(project, dataRepo, '/*'),
        { parallelism: 1 },
      );
      const id1 = await commitFile(c, project, dataRepo, 'file', 'foo\n');
      expect(await c.waitCommitSetAll(id1)).toHaveLength(4);
      expect(await c.getFile(c.commit(project, pipelineName, 'master', id1), 'file')).toBe('foo\n');
      const id2 = await commitFile(c, project, dataRepo, 'file', 'bar\n');
      expect(await c.waitCommitSetAll(id2)).toHaveLength(4);
      expect(await c.getFile(c.commit(project, pipelineName, 'master', id2), 'file')).toBe(
        'foo\nbar\n',
      );
    },
  );

  // Known difference, listed in ../README.md: fails until the behaviour lands.

  it.fails(
    'TestPipelineInputDataModification: replaced, deleted and added input files',
    async () => {
      const c = env.client();
      const dataRepo = unique('TestPipelineInputDataModification_data');
      await c.createRepo(project, dataRepo);
      const pipeline = unique('pipeline');
      await c.createPipeline(project, pipeline, ['bash'], inputs.pfs(project, dataRepo, '/*'), {
        stdin: [`cp /pfs/${dataRepo}/* /pfs/out/`],
      });
      const id1 = await commitFile(c, project, dataRepo, 'file', 'foo');
      expect(await c.waitCommitSetAll(id1)).toHaveLength(4);
      expect(await c.getFile(c.commit(project, pipeline, 'master', id1), 'file')).toBe('foo');
      // replace the contents of 'file' ("foo" → "bar")
      const commit2 = await c.startCommit(project, dataRepo, 'master');
      await c.deleteFile(c.commit(project, dataRepo, '', commit2.id), 'file');
      await c.putFile(c.commit(project, dataRepo, '', commit2.id), 'file', 'bar', { append: true });
      await c.finishCommit(project, dataRepo, '', commit2.id);
      expect(await c.waitCommitSetAll(commit2.id)).toHaveLength(4);
      expect(await c.getFile(c.commit(project, pipeline, 'master', commit2.id), 'file')).toBe(
        'bar',
      );
      // delete it, add file2
      const commit3 = await c.startCommit(project, dataRepo, 'master');
      await c.deleteFile(c.commit(project, dataRepo, '', commit3.id), 'file');
      await c.putFile(c.commit(project, dataRepo, '', commit3.id), 'file2', 'foo', {
        append: true,
      });
      await c.finishCommit(project, dataRepo, '', commit3.id);
      expect(await c.waitCommitSetAll(commit3.id)).toHaveLength(4);
      const out3 = c.commit(project, pipeline, 'master', commit3.id);
      await failure(c.getFile(out3, 'file'));
      expect(await c.getFile(out3, 'file2')).toBe('foo');
      const commits = await c.listCommit({
        repo: c.repo(project, pipeline),
        to: c.commit(project, pipeline, 'master'),
      });
      expect(commits).toHaveLength(4);
    },
  );

  // Known difference, listed in ../README.md: fails until the behaviour lands.

  it.fails('TestLazyPipeline: a lazy input reads the same files', async () => {
    const c = env.client();
    const dataRepo = unique('TestLazyPipeline_data');
    await c.createRepo(project, dataRepo);
    const pipelineName = unique('pipeline');
    await c.createPipelineRequest({
      pipeline: { project: { name: project }, name: pipelineName },
      transform: { cmd: ['cp', `/pfs/${dataRepo}/file`, '/pfs/out/file'] },
      parallelismSpec: { constant: 1n },
      input: { pfs: { repo: dataRepo, glob: '/', lazy: true } },
    });
    const commit = await c.startCommit(project, dataRepo, 'master');
    // two files, one of which the pipeline never reads
    await c.putFile(c.commit(project, dataRepo, 'master'), 'file', 'foo\n', { append: true });
    await c.putFile(c.commit(project, dataRepo, 'master'), 'file2', 'foo\n', { append: true });
    await c.finishCommit(project, dataRepo, 'master');
    expect(await c.waitCommitSetAll(commit.id)).toHaveLength(4);
    expect(await c.getFile(c.commit(project, pipelineName, 'master', commit.id), 'file')).toBe(
      'foo\n',
    );
  });

  // Known difference, listed in ../README.md: fails until the behaviour lands.

  it.fails('TestCopyOutToIn: an output copied back into an input repo', async () => {
    const c = env.client();
    const dataRepo = unique('TestCopyOutToIn_data');
    await c.createRepo(project, dataRepo);
    const dataCommit = c.commit(project, dataRepo, 'master');
    await c.putFile(dataCommit, 'file', 'foo', { append: true });
    const pipeline = unique('TestCopyOutToIn');
    const pipelineCommit = c.commit(project, pipeline, 'master');
    await c.createPipeline(project, pipeline, ['bash'], inputs.pfs(project, dataRepo, '/*'), {
      stdin: [`cp -R /pfs/${dataRepo}/* /pfs/out/`],
      parallelism: 1,
    });
    const settle = async (repo: string) =>
      c.waitCommitSetAll((await c.inspectCommit(project, repo, 'master')).commit!.id);
    await settle(pipeline);
    await c.copyFile(dataCommit, 'file2', pipelineCommit, 'file', true);
    await settle(dataRepo);
    await c.putFile(dataCommit, 'file2', 'foo', { append: true });
    expect(await c.getFile(pipelineCommit, 'file2')).toBe('foo');
    await c.modifyFile(dataCommit, [
      {
        body: {
          case: 'addFile',
          value: {
            path: 'dir/file3',
            source: { case: 'raw', value: { value: Buffer.from('foo') } },
          },
        },
      },
      {
        body: {
          case: 'addFile',
          value: {
            path: 'dir/file4',
            source: { case: 'raw', value: { value: Buffer.from('bar') } },
          },
        },
      },
    ]);
    await settle(dataRepo);
    await c.copyFile(dataCommit, 'dir2', pipelineCommit, 'dir', true);
    await settle(dataRepo);
    expect(await c.getFile(pipelineCommit, 'dir/file3')).toBe('foo');
    expect(await c.getFile(pipelineCommit, 'dir/file4')).toBe('bar');
  });
});

describe('pachyderm_test.go: stopping and deleting', () => {
  // Known difference, listed in ../README.md: fails until the behaviour lands.
  it.fails(
    'TestStopPipeline: a stopped pipeline makes no output commit until it is started',
    async () => {
      const c = env.client();
      const dataRepo = unique('TestPipeline_data');
      await c.createRepo(project, dataRepo);
      const pipelineName = unique('pipeline');
      await c.createPipeline(
        project,
        pipelineName,
        ['cp', `/pfs/${dataRepo}/file`, '/pfs/out/file'],
        inputs.pfs(project, dataRepo, '/*'),
        { parallelism: 1 },
      );
      const outputCommits = () =>
        c.listCommit({
          repo: c.repo(project, pipelineName),
          to: c.commit(project, pipelineName, 'master'),
        });
      // just the initial output branch head commit
      expect(await outputCommits()).toHaveLength(1);
      await c.stopPipeline(project, pipelineName);
      await commitFile(c, project, dataRepo, 'file', 'foo\n');
      expect(await outputCommits()).toHaveLength(1);
      await c.startPipeline(project, pipelineName);
      expect(await outputCommits()).toHaveLength(2);
      const commitInfo = await c.waitCommit(project, pipelineName, 'master');
      expect(await c.getFile(commitInfo.commit!, 'file')).toBe('foo\n');
    },
  );

  // Known difference, listed in ../README.md: fails until the behaviour lands.

  it.fails('TestStopJob: a stopped job is KILLED, the next one runs to success', async () => {
    const c = env.client();
    const proj = unique('project');
    await c.createProject(proj);
    const dataRepo = unique('TestStopJob');
    await c.createRepo(proj, dataRepo);
    const pipelineName = unique('pipeline-stop-job');
    // (The Go test sleeps 10 s per datum; 3 s keeps the first job running long enough here.)
    await c.createPipeline(proj, pipelineName, ['sleep', '3'], inputs.pfs(proj, dataRepo, '/'), {
      parallelism: 1,
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await commitFile(c, proj, dataRepo, 'file', 'foo\n'));
    const jobInfos = await c.listJob(proj, pipelineName, -1n, true);
    expect(jobInfos).toHaveLength(4);
    expect(jobInfos.slice(0, 3).map((j) => j.job!.id)).toEqual([ids[2], ids[1], ids[0]]);
    await eventually(async () => {
      const jobInfo = await c.inspectJob(proj, pipelineName, ids[0]!);
      expect(jobInfo.state).toBe(JobState.JOB_RUNNING);
    });
    await c.stopJob(proj, pipelineName, ids[1]!);
    expect((await c.waitJob(proj, pipelineName, ids[1]!)).state).toBe(JobState.JOB_KILLED);
    expect((await c.waitJob(proj, pipelineName, ids[2]!)).state).toBe(JobState.JOB_SUCCESS);
  });

  it('TestJobDeletion: DeleteJob in the wrong project fails, in the right one succeeds', async () => {
    const c = env.client();
    const proj = unique('project');
    await c.createProject(proj);
    const dataRepo = unique('TestPipeline_data');
    await c.createRepo(project, dataRepo);
    const pipelineName = unique('pipeline');
    await c.createPipeline(
      proj,
      pipelineName,
      ['cp', `/pfs/${dataRepo}/file`, '/pfs/out/file'],
      inputs.pfs(project, dataRepo, '/'),
      { parallelism: 1 },
    );
    const id = await commitFile(c, project, dataRepo, 'file', 'foo\n');
    await c.waitCommitSetAll(id);
    await failure(c.deleteJob(project, pipelineName, id));
    await c.deleteJob(proj, pipelineName, id);
  });

  it('TestRecreatePipeline: a deleted pipeline created again runs again', async () => {
    const c = env.client();
    const repo = unique('data');
    await c.createRepo(project, repo);
    const id = await commitFile(c, project, repo, 'file', 'foo');
    const pipeline = unique('pipeline');
    const create = async () => {
      await c.createPipeline(
        project,
        pipeline,
        ['cp', `/pfs/${repo}/file`, '/pfs/out/file'],
        inputs.pfs(project, repo, '/*'),
        { parallelism: 1 },
      );
      await c.waitCommitSetAll(id);
    };
    await create();
    await c.deletePipeline(project, pipeline);
    await create();
  });

  it('TestDeletePipeline: not from the middle of a DAG unless forced; jobs go with their pipelines', async () => {
    const c = env.client();
    const proj = unique('prj');
    await c.createProject(proj);
    const repo = unique('data');
    await c.createRepo(project, repo);
    await commitFile(c, project, repo, unique('file'), 'foo');
    const pipelines = [unique('TestDeletePipeline1'), unique('TestDeletePipeline2')];
    const createPipelines = async () => {
      await c.createPipeline(
        project,
        pipelines[0]!,
        ['sleep', '20'],
        inputs.pfs(project, repo, '/*'),
        { parallelism: 1 },
      );
      await c.createPipeline(
        proj,
        pipelines[1]!,
        ['sleep', '20'],
        inputs.pfs(project, pipelines[0]!, '/*'),
        { parallelism: 1 },
      );
      await eventually(async () => {
        const infos = (await c.listPipeline()).filter((pi) =>
          pipelines.includes(pi.pipeline!.name),
        );
        expect(infos).toHaveLength(2);
      });
    };
    await createPipelines();
    // can't delete a pipeline from the middle of the DAG
    await failure(c.deletePipeline(project, pipelines[0]!));
    await c.deletePipeline(proj, pipelines[1]!);
    await failure(c.inspectPipeline(proj, pipelines[1]!));
    await c.deletePipeline(project, pipelines[0]!);
    await failure(c.inspectPipeline(project, pipelines[0]!));
    // the jobs are gone; listing them for the deleted pipelines is an error
    expect(
      (await c.listJob(project, '', -1n, true)).filter((j) =>
        pipelines.includes(j.job!.pipeline!.name),
      ),
    ).toHaveLength(0);
    expect(await c.listJob(proj, '', -1n, true)).toHaveLength(0);
    await failure(c.listJob(project, pipelines[0]!, -1n, true));
    await failure(c.listJob(proj, pipelines[1]!, -1n, true));
    await createPipelines();
    // force deletes from the middle of the DAG
    await c.deletePipeline(project, pipelines[0]!, true);
  });
});

describe('pachyderm_test.go: TestCronPipeline', () => {
  // Known difference, listed in ../README.md: fails until the behaviour lands.
  it.fails(
    'RunCron: each RunCron ticks, and the downstream pipeline gets a commit per tick',
    async () => {
      const c = env.client();
      const pipeline5 = unique('cron5-');
      await c.createPipeline(project, pipeline5, ['/bin/bash'], inputs.cron('time', '@every 1h'), {
        stdin: ['cp /pfs/time/* /pfs/out/'],
      });
      const pipeline6 = unique('cron6-');
      await c.createPipeline(
        project,
        pipeline6,
        ['/bin/bash'],
        inputs.pfs(project, pipeline5, '/*'),
        {
          stdin: [`cp /pfs/${pipeline5}/* /pfs/out/`],
        },
      );
      for (let i = 0; i < 3; i++) await c.runCron(project, pipeline5);
      // (Go subscribes to pipeline6's master for four commits: its first and one per tick.)
      await eventually(async () => {
        const commits = await c.listCommit({
          repo: c.repo(project, pipeline6),
          to: c.commit(project, pipeline6, 'master'),
        });
        expect(commits).toHaveLength(4);
        for (const info of commits)
          await c.waitCommit(project, pipeline6, 'master', info.commit!.id);
      });
    },
  );

  // Known difference, listed in ../README.md: fails until the behaviour lands.

  it.fails('RunCronCross: each RunCron ticks both cron inputs, a commit each', async () => {
    const c = env.client();
    const pipeline9 = unique('cron9-');
    // ticks scheduled so that they never come during the test
    const futureMonth = ((new Date().getUTCMonth() + 2) % 12) + 1;
    await c.createPipeline(
      project,
      pipeline9,
      ['/bin/bash'],
      inputs.cross(
        inputs.cron('time1', `0 0 1 ${futureMonth} *`),
        inputs.cron('time2', `0 0 15 ${futureMonth} *`),
      ),
      { stdin: ["echo 'tick'"] },
    );
    for (let i = 0; i < 3; i++) await c.runCron(project, pipeline9);
    // an initial empty commit, then two per RunCron
    const commits = await c.listCommit({ repo: c.repo(project, pipeline9) });
    expect(commits).toHaveLength(7);
  });
});

describe('pachyderm_test.go: outputs and logs', () => {
  it('TestValidationFailure: two datums writing one path fail the job; fixed by an update', async () => {
    const c = env.client();
    const repo = unique('TestValidationFailure');
    const pipeline = unique('pipeline-TestValidationFailure');
    await c.createRepo(project, repo);
    await c.putFile(c.commit(project, repo, 'master'), 'foo', 'baz');
    await c.putFile(c.commit(project, repo, 'master'), 'bar', 'baz');
    const request = (stdin: string[], update = false) =>
      c.createPipelineRequest({
        pipeline: { project: { name: project }, name: pipeline },
        transform: { cmd: ['bash'], stdin },
        parallelismSpec: { constant: 1n },
        input: inputs.pfs(project, repo, '/*'),
        update,
      });
    // every datum writes the same path
    await request([`cat /pfs/${repo}/* > /pfs/out/overlap`]);
    let commitInfo = await c.waitCommit(project, pipeline, 'master');
    expect(commitInfo.error).not.toBe('');
    await request([`cp /pfs/${repo}/* /pfs/out`], true);
    await newVersionJob(c, project, pipeline);
    commitInfo = await c.waitCommit(project, pipeline, 'master');
    expect(commitInfo.error).toBe('');
  });

  // Known difference, listed in ../README.md: fails until the behaviour lands.

  it.fails(
    'TestGetLogs: by pipeline, job, datum and input; refusals name what is missing',
    async () => {
      const c = env.client();
      await c.getLogs({});
      const dataRepo = unique('data');
      await c.createRepo(project, dataRepo);
      const pipelineName = unique('pipeline');
      await c.createPipelineRequest({
        pipeline: { project: { name: project }, name: pipelineName },
        transform: {
          cmd: ['sh'],
          // %s tests a formatting bug pachd had (#2729)
          stdin: [`cp /pfs/${dataRepo}/file /pfs/out/file`, 'echo foo', 'echo %s'],
        },
        input: inputs.pfs(project, dataRepo, '/*'),
        parallelismSpec: { constant: 4n },
      });
      const commit = await c.startCommit(project, dataRepo, 'master');
      await c.putFile(c.commit(project, dataRepo, '', commit.id), 'file', 'foo\n', {
        append: true,
      });
      await c.finishCommit(project, dataRepo, 'master');
      await c.waitJobSetAll(commit.id);
      const pipelineRef = (name: string) => ({ project: { name: project }, name });
      // a pipeline, then a job, that do not exist
      let error = await failure(c.getLogs({ pipeline: pipelineRef('__DOES_NOT_EXIST__') }));
      expect(error.details).toMatch(/could not get/);
      error = await failure(
        c.getLogs({
          pipeline: pipelineRef(pipelineName),
          job: { pipeline: pipelineRef(pipelineName), id: '__DOES_NOT_EXIST__' },
        }),
      );
      expect(error.details).toMatch(/could not get/);
      // the pipeline's user lines
      const lines = await c.getLogs({ pipeline: pipelineRef(pipelineName) });
      const user = lines.filter((l) => l.user);
      expect(user.length).toBeGreaterThanOrEqual(2);
      for (const line of user) {
        expect(line.message).not.toBe('');
        expect(line.message).not.toContain('MISSING');
      }
      const jobInfos = await c.listJob(project, pipelineName, -1n, true);
      expect(jobInfos).toHaveLength(2);
      const job = jobInfos[0]!.job!;
      const jobLines = await c.getLogs({ pipeline: pipelineRef(pipelineName), job });
      expect(jobLines.length).toBeGreaterThan(0);
      for (const line of jobLines) expect(line.message).not.toBe('');
      // a datum's lines without its pipeline or job are refused
      await failure(c.getLogs({ dataFilters: ['/foo'] }));
      const dis = await c.listDatumAll(project, pipelineName, job.id);
      expect(dis.length).toBeGreaterThan(0);
      await failure(c.getLogs({ datum: { id: dis[0]!.datum!.id } }));
      // by input: its path and its hash (base64) give the same lines
      const fileInfo = await c.inspectFile(c.commit(project, dataRepo, 'master'), '/file');
      const base64Hash = 'kstrTGrFE58QWlxEpCRBt3aT8NJPNY0rso6XK7a4+wM=';
      expect(Buffer.from(fileInfo.hash).toString('base64')).toBe(base64Hash);
      const byPath = await c.getLogs({
        pipeline: pipelineRef(pipelineName),
        job,
        dataFilters: ['/file'],
      });
      const byHash = await c.getLogs({
        pipeline: pipelineRef(pipelineName),
        job,
        dataFilters: [base64Hash],
      });
      expect(byPath.length).toBeGreaterThan(0);
      expect(byHash.map((l) => l.message)).toEqual(byPath.map((l) => l.message));
      // a file that does not exist: no lines
      expect(
        await c.getLogs({
          pipeline: pipelineRef(pipelineName),
          job,
          dataFilters: ['__DOES_NOT_EXIST__'],
        }),
      ).toHaveLength(0);
    },
  );
});
