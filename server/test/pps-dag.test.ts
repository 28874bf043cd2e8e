import { describe, expect, it } from 'vitest';
import { commitFiles, ok, results, type Json } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { createPipeline, listDatums, pipeline, readAll, waitJob } from './helpers/pps.ts';

const { url } = useTestServer({ projects: ['default'], repos: ['texts'] });

const wordCount = {
  pipeline: pipeline('wc'),
  transform: {
    image: 'busybox',
    cmd: [
      'sh',
      '-c',
      'for f in /pfs/texts/*; do wc -w < "$f" | tr -d " " > /pfs/out/$(basename "$f"); echo "counted $f"; done',
    ],
  },
  input: { pfs: { repo: 'texts', glob: '/*' } },
};
const sum = {
  pipeline: pipeline('total'),
  transform: {
    cmd: ['sh'],
    stdin: [
      't=0',
      'for f in "$PFS_WC"/*; do t=$((t + $(cat "$f"))); done',
      'echo $t > $PFS_OUT/total',
    ],
  },
  input: { pfs: { repo: 'wc', glob: '/' } },
};

describe('a two-stage DAG', () => {
  it('counts words per file, sums them, and only processes new datums on a new commit', async () => {
    const first = await commitFiles(url(), 'texts', {
      '/a.txt': 'one two three',
      '/b.txt': 'four five',
    });
    await createPipeline(url(), wordCount);
    await createPipeline(url(), sum);

    // The pipelines process the existing commit under their spec commits' IDs; a new commit
    // lands under its own ID through the whole DAG.
    const second = await commitFiles(url(), 'texts', { '/c.txt': 'six seven eight nine' });
    const wcJob = await waitJob(url(), 'wc', second);
    expect(wcJob.state).toBe('JOB_SUCCESS');
    expect(wcJob.dataTotal).toBe('3');
    expect(wcJob.dataSkipped).toBe('2');
    expect(wcJob.dataProcessed).toBe('1');
    const totalJob = await waitJob(url(), 'total', second);
    expect(totalJob.state).toBe('JOB_SUCCESS');

    expect(await readAll(url(), 'wc', second)).toEqual({
      '/a.txt': '3\n',
      '/b.txt': '2\n',
      '/c.txt': '4\n',
    });
    expect(await readAll(url(), 'total', second)).toEqual({ '/total': '9\n' });

    // Provenance: the commit set of the new ID holds the input, both outputs and both jobs'
    // metadata commits (meta repos, as in Pachyderm).
    const set = await results(url(), 'pfs_v2.API/InspectCommitSet', {
      commitSet: { id: second },
      wait: true,
    });
    expect(set.map((c: Json) => `${c.commit.repo.name}/${c.commit.repo.type}`).sort()).toEqual([
      'texts/user',
      'total/meta',
      'total/user',
      'wc/meta',
      'wc/user',
    ]);
    const wcCommit = set.find(
      (c: Json) => c.commit.repo.name === 'wc' && c.commit.repo.type === 'user',
    );
    expect(wcCommit.directProvenance.map((c: Json) => `${c.repo.name}@${c.id}`)).toEqual([
      `texts@${second}`,
    ]);
    expect(wcCommit.error).toBe('');

    const datums = await listDatums(url(), wcJob.job);
    expect(datums.map((d: Json) => d.state).sort()).toEqual(['SKIPPED', 'SKIPPED', 'SUCCESS']);
    const fresh = datums.find((d: Json) => d.state === 'SUCCESS');
    expect(fresh.data.map((f: Json) => f.file.path)).toEqual(['/c.txt']);
    expect(first).not.toBe(second);
  });

  it('describes pipelines, versions, repos and jobs', async () => {
    const info = await ok(url(), 'pps_v2.API/InspectPipeline', {
      pipeline: pipeline('wc'),
      details: true,
    });
    expect(info.state).toMatch(/PIPELINE_(STANDBY|RUNNING)/);
    expect(info.lastJobState).toBe('JOB_SUCCESS');
    expect(info.details.input.pfs.glob).toBe('/*');
    expect(info.version).toBe('1');
    const repos = await results(url(), 'pfs_v2.API/ListRepo', { type: '' });
    const wcRepos = repos.filter((r: Json) => r.repo.name === 'wc').map((r: Json) => r.repo.type);
    expect(wcRepos.sort()).toEqual(['meta', 'spec', 'user']);

    await createPipeline(url(), { ...wordCount, description: 'v2' }, { update: true });
    const listed = await results(url(), 'pps_v2.API/ListPipeline', { history: -1 });
    expect(
      listed.filter((p: Json) => p.pipeline.name === 'wc').map((p: Json) => p.version),
    ).toEqual(['2', '1']);
    const summary = await ok(url(), 'pps_v2.API/PipelinesSummary', {
      projects: [{ name: 'default' }],
    });
    expect(summary.summaries[0].activePipelines).toBe('2');

    const jobSets = await results(url(), 'pps_v2.API/ListJobSet', {});
    expect(jobSets.length).toBeGreaterThan(0);
  });

  it('answers cluster-only calls with UNIMPLEMENTED', async () => {
    const { call } = await import('./helpers/api-client.ts');
    const response = await call(url(), 'pps_v2.API/GetKubeEvents', {});
    expect(response.status).toBe(501);
    expect(response.body.message).toMatch(/Kubernetes cluster/);
  });
});
