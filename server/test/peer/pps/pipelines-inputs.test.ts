// Ported from Pachyderm's src/server/pachyderm_test.go: pipelines over join, group, union and
// cross inputs, the datum variables, empty files and links, and ListDatum over an input. The
// pipelines run shell tools (bash, cp, ls, touch) in the embedded runner's sandbox.
import { describe, expect, it } from 'vitest';
import { DatumState, inputs, JobState, type PeerClient } from '../support/peer-client.ts';
import { unique, usePeerServer } from '../support/peer-server.ts';

const env = usePeerServer();
const project = 'default';

/** Go's `fmt.Sprintf("%4b", i)`: binary, padded with spaces to four characters. */
const bits4 = (i: number) => i.toString(2).padStart(4, ' ');

/** PutFile with append (`client.WithAppendPutFile()`) into a branch head. */
const append = (c: PeerClient, repo: string, path: string, data: string) =>
  c.putFile(c.commit(project, repo, 'master'), path, data, { append: true });

/** The paths of the files in a commit's root (ListFileAll(commit, "")). */
const rootPaths = async (c: PeerClient, repo: string, id = '', path = '') =>
  (await c.listFileAll(c.commit(project, repo, 'master', id), path)).map((f) => f.file?.path);

/** Each datum's data paths, sorted, datums sorted by their first path (as the Go tests do). */
async function datumPaths(c: PeerClient, pipeline: string, jobId: string): Promise<string[][]> {
  const datums = await c.listDatumAll(project, pipeline, jobId);
  return datums
    .map((d) => d.data.map((f) => f.file?.path ?? '').sort())
    .sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : 1));
}

/** The job of a pipeline's output head (InspectCommit on master, then WaitJobSetAll of its ID). */
async function headJobs(c: PeerClient, pipeline: string) {
  const commitInfo = await c.inspectCommit(project, pipeline, 'master');
  return c.waitJobSetAll(commitInfo.commit!.id);
}

describe('pachyderm_test.go: join inputs', () => {
  it('TestJoinInput: files whose captures match are joined; folders too', async () => {
    const c = env.client();
    const repos = [unique('TestJoinInput0'), unique('TestJoinInput1')];
    for (const [r, repo] of repos.entries()) {
      await c.createRepo(project, repo);
      const commit = await c.startCommit(project, repo, 'master');
      for (let i = 0; i < 16; i++)
        await c.putFile(c.commit(project, repo, '', commit.id), `file-${r}.${bits4(i)}`, `${i}\n`, {
          append: true,
        });
      await c.finishCommit(project, repo, 'master');
    }
    let pipeline = unique('join-pipeline');
    await c.createPipeline(
      project,
      pipeline,
      ['bash'],
      inputs.join(
        inputs.pfsOpts('', project, repos[0]!, '', '/file-?.(11*)', '$1', '', false, false),
        inputs.pfsOpts('', project, repos[1]!, '', '/file-?.(*0)', '$1', '', false, false),
      ),
      {
        stdin: [`touch /pfs/out/$(echo $(ls -r /pfs/${repos[0]}/)$(ls -r /pfs/${repos[1]}/))`],
        parallelism: 1,
      },
    );
    let commitInfo = await c.waitCommit(project, pipeline, 'master');
    expect(await rootPaths(c, pipeline, commitInfo.commit!.id)).toEqual([
      '/file-0.1100file-1.1100',
      '/file-0.1110file-1.1110',
    ]);

    const dataRepo0 = unique('TestJoinInputDirectory-0');
    const dataRepo1 = unique('TestJoinInputDirectory-1');
    await c.createRepo(project, dataRepo0);
    await c.putFile(c.commit(project, dataRepo0, 'master'), '/dir-01/foo', 'foo');
    await c.createRepo(project, dataRepo1);
    await c.putFile(c.commit(project, dataRepo1, 'master'), '/dir-10/bar', 'bar');
    pipeline = unique('join-pipeline-directory');
    await c.createPipeline(
      project,
      pipeline,
      ['bash'],
      inputs.join(
        inputs.pfsOpts('', project, dataRepo0, '', '/dir-(?)(?)', '$2', '', false, false),
        inputs.pfsOpts('', project, dataRepo1, '', '/dir-(?)(?)', '$1', '', false, false),
      ),
      {
        stdin: [`cp -r /pfs/${dataRepo0}/*/. /pfs/out`, `cp -r /pfs/${dataRepo1}/*/. /pfs/out`],
        parallelism: 1,
      },
    );
    commitInfo = await c.waitCommit(project, pipeline, 'master');
    expect(await rootPaths(c, pipeline, commitInfo.commit!.id)).toEqual(['/bar', '/foo']);
  });
});

describe('pachyderm_test.go: TestGroupInput', () => {
  async function sixteen(c: PeerClient, repo: string, prefix: string) {
    for (let i = 0; i < 16; i++) await append(c, repo, `${prefix}${bits4(i)}`, `${i}\n`);
  }

  it('Basic: one datum per third binary digit', async () => {
    const c = env.client();
    const repo = unique('TestGroupInput');
    await c.createRepo(project, repo);
    await sixteen(c, repo, 'file.');
    const pipeline = unique('group-pipeline');
    await c.createPipeline(
      project,
      pipeline,
      ['bash'],
      inputs.group(
        inputs.pfsOpts('', project, repo, '', '/file.(?)(?)(?)(?)', '', '$3', false, false),
      ),
      { stdin: [], parallelism: 1 },
    );
    const jobs = await headJobs(c, pipeline);
    expect(jobs).toHaveLength(1);
    expect(await datumPaths(c, pipeline, jobs[0]!.job!.id)).toEqual([
      ['/file.   0', '/file.   1'],
      [
        '/file.  10',
        '/file.  11',
        '/file. 110',
        '/file. 111',
        '/file.1010',
        '/file.1011',
        '/file.1110',
        '/file.1111',
      ],
      ['/file. 100', '/file. 101', '/file.1000', '/file.1001', '/file.1100', '/file.1101'],
    ]);
  });

  it('MultiInput: two repos grouped by different digits', async () => {
    const c = env.client();
    const repos = [unique('TestGroupInput0'), unique('TestGroupInput1')];
    for (const [r, repo] of repos.entries()) {
      await c.createRepo(project, repo);
      await sixteen(c, repo, `file-${r}.`);
    }
    const pipeline = unique('group-pipeline-multi-input');
    await c.createPipeline(
      project,
      pipeline,
      ['bash'],
      inputs.group(
        inputs.pfsOpts('', project, repos[0]!, '', '/file-?.(?)(?)(?)(?)', '', '$3', false, false),
        inputs.pfsOpts('', project, repos[1]!, '', '/file-?.(?)(?)(?)(?)', '', '$2', false, false),
      ),
      { stdin: [], parallelism: 1 },
    );
    const jobs = await headJobs(c, pipeline);
    expect(jobs).toHaveLength(1);
    expect(await datumPaths(c, pipeline, jobs[0]!.job!.id)).toEqual([
      [
        '/file-0.   0',
        '/file-0.   1',
        '/file-1.   0',
        '/file-1.   1',
        '/file-1.  10',
        '/file-1.  11',
      ],
      [
        ...['/file-0.  10', '/file-0.  11', '/file-0. 110', '/file-0. 111'],
        ...['/file-0.1010', '/file-0.1011', '/file-0.1110', '/file-0.1111'],
        ...['/file-1. 100', '/file-1. 101', '/file-1. 110', '/file-1. 111'],
        ...['/file-1.1100', '/file-1.1101', '/file-1.1110', '/file-1.1111'],
      ],
      [
        ...['/file-0. 100', '/file-0. 101', '/file-0.1000', '/file-0.1001', '/file-0.1100'],
        ...['/file-0.1101', '/file-1.1000', '/file-1.1001', '/file-1.1010', '/file-1.1011'],
      ],
    ]);
  });

  it("GroupJoinCombo: pairs joined on reversed digits, then regrouped by each side's digit", async () => {
    const c = env.client();
    const repos = [unique('TestGroupInput0'), unique('TestGroupInput1')];
    for (const [r, repo] of repos.entries()) {
      await c.createRepo(project, repo);
      await sixteen(c, repo, `file-${r}.`);
    }
    const pipeline = unique('group-join-pipeline');
    await c.createPipeline(
      project,
      pipeline,
      ['bash'],
      inputs.group(
        inputs.join(
          inputs.pfsOpts(
            '',
            project,
            repos[0]!,
            '',
            '/file-?.(?)(?)(?)(?)',
            '$1$2$3$4',
            '$3',
            false,
            false,
          ),
          inputs.pfsOpts(
            '',
            project,
            repos[1]!,
            '',
            '/file-?.(?)(?)(?)(?)',
            '$4$3$2$1',
            '$2',
            false,
            false,
          ),
        ),
      ),
      { stdin: [], parallelism: 1 },
    );
    const jobs = await headJobs(c, pipeline);
    expect(jobs).toHaveLength(1);
    expect(await datumPaths(c, pipeline, jobs[0]!.job!.id)).toEqual([
      ['/file-0.1001', '/file-0.1101', '/file-1.1001', '/file-1.1011'],
      ['/file-0.1011', '/file-0.1111', '/file-1.1101', '/file-1.1111'],
    ]);
  });

  it('Symlink: a group by a capture in the middle of names, the datums run to success', async () => {
    const c = env.client();
    const repo = unique('TestGroupInputSymlink');
    await c.createRepo(project, repo);
    const names = [
      '/T1606331395-LIPID-PATID2-CLIA24D9871327.txt',
      '/T1606707579-LIPID-PATID3-CLIA24D9871327.txt',
      '/T1606707597-LIPID-PATID4-CLIA24D9871327.txt',
      '/T1606707557-LIPID-PATID1-CLIA24D9871327.txt',
      '/T1606707613-LIPID-PATID1-CLIA24D9871328.txt',
      '/T1606707635-LIPID-PATID3-CLIA24D9871328.txt',
    ];
    for (const name of names) await append(c, repo, name, '');
    const pipeline = unique('group-pipeline-symlink');
    await c.createPipelineRequest({
      pipeline: { project: { name: project }, name: pipeline },
      transform: {
        cmd: ['bash'],
        stdin: [
          'PATTERN=.*-PATID\\(.*\\)-.*.txt',
          `FILES=/pfs/${repo}/*`,
          'for f in $FILES',
          'do',
          '[[ $(basename $f) =~ $PATTERN ]]',
          'mkdir -p /pfs/out/${BASH_REMATCH[1]}/',
          'cp $f /pfs/out/${BASH_REMATCH[1]}/',
          'done',
        ],
      },
      input: inputs.group(
        inputs.pfsOpts('', project, repo, 'master', '/*-PATID(*)-*.txt', '', '$1', false, false),
      ),
      parallelismSpec: { constant: 1n },
    });
    const jobs = await headJobs(c, pipeline);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.state).toBe(JobState.JOB_SUCCESS);
    expect(await datumPaths(c, pipeline, jobs[0]!.job!.id)).toEqual([
      ['/T1606331395-LIPID-PATID2-CLIA24D9871327.txt'],
      [
        '/T1606707557-LIPID-PATID1-CLIA24D9871327.txt',
        '/T1606707613-LIPID-PATID1-CLIA24D9871328.txt',
      ],
      [
        '/T1606707579-LIPID-PATID3-CLIA24D9871327.txt',
        '/T1606707635-LIPID-PATID3-CLIA24D9871328.txt',
      ],
      ['/T1606707597-LIPID-PATID4-CLIA24D9871327.txt'],
    ]);
  });
});

describe('pachyderm_test.go: TestUnionInput', () => {
  let made: Promise<string[]> | undefined;
  /** Four repos TestUnionInput<hex> with file-0 and file-1 each. */
  const repos = () =>
    (made ??= (async () => {
      const c = env.client();
      const list = Array.from({ length: 4 }, () => unique('TestUnionInput'));
      for (const repo of list) {
        await c.createRepo(project, repo);
        const commit = await c.startCommit(project, repo, 'master');
        for (let i = 0; i < 2; i++)
          await c.putFile(c.commit(project, repo, '', commit.id), `file-${i}`, `${i}`, {
            append: true,
          });
        await c.finishCommit(project, repo, 'master');
      }
      return list;
    })());
  const renameToDatum = [
    'cp -r -L /pfs/TestUnionInput* /pfs/out',
    'for dir in /pfs/out/*',
    'do',
    'for file in ${dir}/*',
    'do',
    'new_name=${dir}/${PACH_DATUM_ID}',
    'mv ${file} ${new_name}',
    'done',
    'done',
  ];

  it('union all: each datum one file of one repo, 8 outputs', async () => {
    const c = env.client();
    const [a, b, cc, d] = await repos();
    const pipeline = unique('pipeline');
    await c.createPipeline(
      project,
      pipeline,
      ['bash'],
      inputs.union(...[a, b, cc, d].map((r) => inputs.pfs(project, r!, '/*'))),
      { stdin: ['cp /pfs/*/* /pfs/out/$PACH_DATUM_ID'], parallelism: 1 },
    );
    const commitInfo = await c.waitCommit(project, pipeline, 'master');
    expect(await rootPaths(c, pipeline, commitInfo.commit!.id)).toHaveLength(8);
  });

  it('union crosses: only the crossed pair of repos is under /pfs in a datum', async () => {
    const c = env.client();
    const [a, b, cc, d] = await repos();
    const pipeline = unique('pipeline');
    await c.createPipeline(
      project,
      pipeline,
      ['bash'],
      inputs.union(
        inputs.cross(inputs.pfs(project, a!, '/*'), inputs.pfs(project, b!, '/*')),
        inputs.cross(inputs.pfs(project, cc!, '/*'), inputs.pfs(project, d!, '/*')),
      ),
      { stdin: renameToDatum, parallelism: 1 },
    );
    const commitInfo = await c.waitCommit(project, pipeline, 'master');
    for (const repo of [a, b, cc, d])
      expect(await rootPaths(c, pipeline, commitInfo.commit!.id, repo)).toHaveLength(4);
  });

  it('cross unions: one repo of each union under /pfs in a datum', async () => {
    const c = env.client();
    const [a, b, cc, d] = await repos();
    const pipeline = unique('pipeline');
    await c.createPipeline(
      project,
      pipeline,
      ['bash'],
      inputs.cross(
        inputs.union(inputs.pfs(project, a!, '/*'), inputs.pfs(project, b!, '/*')),
        inputs.union(inputs.pfs(project, cc!, '/*'), inputs.pfs(project, d!, '/*')),
      ),
      { stdin: renameToDatum, parallelism: 1 },
    );
    const commitInfo = await c.waitCommit(project, pipeline, 'master');
    for (const repo of [a, b, cc, d])
      expect(await rootPaths(c, pipeline, commitInfo.commit!.id, repo)).toHaveLength(8);
  });

  it('union alias: four repos under one name "in"', async () => {
    const c = env.client();
    const list = await repos();
    const pipeline = unique('pipeline');
    await c.createPipeline(
      project,
      pipeline,
      ['bash'],
      inputs.union(
        ...list.map((r) => inputs.pfsOpts('in', project, r, '', '/*', '', '', false, false)),
      ),
      { stdin: ['cp /pfs/in/* /pfs/out/$PACH_DATUM_ID'], parallelism: 1 },
    );
    const commitInfo = await c.waitCommit(project, pipeline, 'master');
    expect(await rootPaths(c, pipeline, commitInfo.commit!.id)).toHaveLength(8);
    expect(await c.listDatumAll(project, pipeline, commitInfo.commit!.id)).toHaveLength(8);
  });
});

describe('pachyderm_test.go: datum variables and inputs', () => {
  it('TestPipelineEnvVarJoinOn: PACH_DATUM_<input>_JOIN_ON is the join key', async () => {
    const c = env.client();
    const repo1 = unique('TestPipelineEnvVarJoinOn_repo1');
    const repo2 = unique('TestPipelineEnvVarJoinOn_repo2');
    await c.createRepo(project, repo1);
    await c.createRepo(project, repo2);
    const input = inputs.join(
      inputs.pfs(project, repo1, '/(*)'),
      inputs.pfs(project, repo2, '/(*)'),
    );
    input.join![0]!.pfs!.name = 'repo1';
    input.join![1]!.pfs!.name = 'repo2';
    input.join![0]!.pfs!.joinOn = '$1';
    input.join![1]!.pfs!.joinOn = '$1';
    await c.putFile(c.commit(project, repo1, 'master'), 'a', 'foo');
    await c.putFile(c.commit(project, repo2, 'master'), 'a', 'bar');
    const pipeline = unique('pipeline');
    await c.createPipelineRequest({
      pipeline: { project: { name: project }, name: pipeline },
      transform: {
        cmd: ['bash'],
        stdin: [
          'touch /pfs/out/repo1-$PACH_DATUM_repo1_JOIN_ON',
          'touch /pfs/out/repo2-$PACH_DATUM_repo2_JOIN_ON',
        ],
      },
      input,
      update: true,
    });
    const jobs = await c.listJob(project, pipeline, 0n);
    expect(jobs).toHaveLength(1);
    const jobInfo = await c.waitJob(project, pipeline, jobs[0]!.job!.id);
    expect(jobInfo.state).toBe(JobState.JOB_SUCCESS);
    await c.getFile(jobInfo.outputCommit!, 'repo1-a');
    await c.getFile(jobInfo.outputCommit!, 'repo2-a');
  });

  it('TestPipelineEnvVarGroupBy: PACH_DATUM_<input>_GROUP_BY is the group key', async () => {
    const c = env.client();
    const repo = unique('TestPipelineEnvVarGroupBy_repo');
    await c.createRepo(project, repo);
    const input = inputs.group(inputs.pfs(project, repo, '/(*)-*'));
    input.group![0]!.pfs!.name = 'repo';
    input.group![0]!.pfs!.groupBy = '$1';
    const commit = await c.startCommit(project, repo, 'master');
    for (const name of ['a-1', 'a-2', 'b-1', 'b-2'])
      await c.putFile(c.commit(project, repo, '', commit.id), name, 'foo');
    await c.finishCommit(project, repo, '', commit.id);
    const pipeline = unique('pipeline');
    await c.createPipelineRequest({
      pipeline: { project: { name: project }, name: pipeline },
      transform: { cmd: ['bash'], stdin: ['touch /pfs/out/$PACH_DATUM_repo_GROUP_BY'] },
      input,
      update: true,
    });
    const jobs = await c.listJob(project, pipeline, 0n);
    expect(jobs).toHaveLength(1);
    const jobInfo = await c.waitJob(project, pipeline, jobs[0]!.job!.id);
    expect(jobInfo.state).toBe(JobState.JOB_SUCCESS);
    await c.getFile(jobInfo.outputCommit!, 'a');
    await c.getFile(jobInfo.outputCommit!, 'b');
  });

  it('TestListDatum: a cross of two inputs of five files lists 25 datums', async () => {
    const c = env.client();
    const repo1 = unique('TestListDatum1');
    const repo2 = unique('TestListDatum2');
    await c.createRepo(project, repo1);
    await c.createRepo(project, repo2);
    for (let i = 0; i < 5; i++) {
      await append(c, repo1, `file-${i}`, 'foo');
      await append(c, repo2, `file-${i}`, 'foo');
    }
    for (const repo of [repo1, repo2])
      await c.waitCommitSetAll((await c.inspectCommit(project, repo, 'master')).commit!.id);
    const dis = await c.listDatumInput({
      cross: [{ pfs: { repo: repo1, glob: '/*' } }, { pfs: { repo: repo2, glob: '/*' } }],
    });
    expect(dis).toHaveLength(25);
  });

  it("TestListDatumFilter: a dry run's datums are UNKNOWN: none FAILED, 25 UNKNOWN", async () => {
    const c = env.client();
    const repo1 = unique('TestListDatum1');
    const repo2 = unique('TestListDatum2');
    await c.createRepo(project, repo1);
    await c.createRepo(project, repo2);
    for (let i = 0; i < 5; i++) {
      await append(c, repo1, `file-${i}`, 'foo');
      await append(c, repo2, `file-${i}`, 'foo');
    }
    const input = {
      cross: [{ pfs: { repo: repo1, glob: '/*' } }, { pfs: { repo: repo2, glob: '/*' } }],
    };
    const failed = await c.listDatum({ input, filter: { state: [DatumState.FAILED] } });
    expect(failed).toHaveLength(0);
    const unknown = await c.listDatum({ input, filter: { state: [DatumState.UNKNOWN] } });
    expect(unknown).toHaveLength(25);
    for (const d of unknown) expect(d.state).toBe(DatumState.UNKNOWN);
  });
});
