import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, ok, repo, type Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { createPipeline, lastJob, listDatums, pipeline, readAll } from './helpers/pps.ts';

let server: TestServer;
let url: string;

beforeAll(async () => {
  server = await startTestServer();
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  for (const name of ['left', 'right'])
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo(name) });
  await commitFiles(url, 'left', { '/a-1.txt': 'A1', '/b-2.txt': 'B2', '/c-3.txt': 'C3' });
  await commitFiles(url, 'right', { '/1.csv': 'one', '/2.csv': 'two', '/9.csv': 'nine' });
});
afterAll(() => server.close());

/** Each datum writes the list of the files it saw (relative to its /pfs) to /pfs/out/<datum>. */
const listFiles = {
  cmd: [
    'sh',
    '-c',
    'cd /pfs && find left right -type f 2>/dev/null | sort | tr "\\n" " " > /pfs/out/$PACH_DATUM_ID',
  ],
};

const seen = (datums: Json[]) =>
  datums
    .map((d: Json) =>
      d.data.map((f: Json) => `${f.file.commit.repo.name}:${f.file.path}`).join(' '),
    )
    .sort();

describe('inputs', () => {
  it('cross: every file of one input with every file of the other', async () => {
    await createPipeline(url, {
      pipeline: pipeline('crossed'),
      transform: listFiles,
      input: {
        cross: [
          { pfs: { repo: 'left', glob: '/*' } },
          { pfs: { repo: 'right', glob: '/[12].csv' } },
        ],
      },
    });
    const job = await lastJob(url, 'crossed');
    expect(job.state).toBe('JOB_SUCCESS');
    const datums = await listDatums(url, job.job);
    expect(datums).toHaveLength(6);
    expect(seen(datums)).toEqual([
      'left:/a-1.txt right:/1.csv',
      'left:/a-1.txt right:/2.csv',
      'left:/b-2.txt right:/1.csv',
      'left:/b-2.txt right:/2.csv',
      'left:/c-3.txt right:/1.csv',
      'left:/c-3.txt right:/2.csv',
    ]);
    const outputs = await readAll(url, 'crossed', job.job.id);
    const first = datums[0];
    expect(outputs[`/${first.datum.id}`]).toBe(
      first.data
        .map((f: Json) => `${f.file.commit.repo.name}${f.file.path}`)
        .sort()
        .join(' ') + ' ',
    );
  });

  it('join: files whose capture groups match ($1), and outerJoin keeps the unmatched', async () => {
    await createPipeline(url, {
      pipeline: pipeline('joined'),
      transform: listFiles,
      input: {
        join: [
          { pfs: { repo: 'left', glob: '/*-(*).txt', joinOn: '$1' } },
          { pfs: { repo: 'right', glob: '/(*).csv', joinOn: '$1', outerJoin: true } },
        ],
      },
    });
    const job = await lastJob(url, 'joined');
    expect(job.state).toBe('JOB_SUCCESS');
    const datums = await listDatums(url, job.job);
    expect(seen(datums)).toEqual([
      'left:/a-1.txt right:/1.csv',
      'left:/b-2.txt right:/2.csv',
      'right:/9.csv',
    ]);
    const outputs = Object.values(await readAll(url, 'joined', job.job.id)).sort();
    expect(outputs).toEqual([
      'left/a-1.txt right/1.csv ',
      'left/b-2.txt right/2.csv ',
      'right/9.csv ',
    ]);
  });

  it('union and group', async () => {
    await createPipeline(url, {
      pipeline: pipeline('grouped'),
      transform: listFiles,
      input: {
        group: [
          { pfs: { repo: 'left', glob: '/(*)-*.txt', groupBy: 'all' } },
          { pfs: { repo: 'right', glob: '/*.csv', groupBy: 'all' } },
        ],
      },
    });
    const grouped = await listDatums(url, (await lastJob(url, 'grouped')).job);
    expect(grouped).toHaveLength(1);
    expect(grouped[0].data).toHaveLength(6);

    await createPipeline(url, {
      pipeline: pipeline('unioned'),
      transform: listFiles,
      input: {
        union: [{ pfs: { repo: 'left', glob: '/' } }, { pfs: { repo: 'right', glob: '/*' } }],
      },
    });
    const unioned = await listDatums(url, (await lastJob(url, 'unioned')).job);
    expect(unioned).toHaveLength(4);
  });

  it('rejects specs the schema or the engine cannot take', async () => {
    const { call } = await import('./helpers/api-client.ts');
    const bad = await call(url, 'pps_v2.API/CreatePipelineV2', {
      createPipelineRequestJson: JSON.stringify({
        pipeline: { name: 'x' },
        transform: { cmd: 'echo' },
      }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/cmd/);
    const schema = await fetch(`${url}/api-schema/pipeline-spec.json`);
    expect(schema.status).toBe(200);
    expect(((await schema.json()) as Json).properties.transform).toBeTruthy();
  });
});
