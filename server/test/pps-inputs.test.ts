import { beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, ok, repo, results, type Json } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { createPipeline, lastJob, listDatums, pipeline, readAll } from './helpers/pps.ts';

const { url } = useTestServer({ projects: ['default'], repos: ['left', 'right'] });
beforeAll(async () => {
  await commitFiles(url(), 'left', { '/a-1.txt': 'A1', '/b-2.txt': 'B2', '/c-3.txt': 'C3' });
  await commitFiles(url(), 'right', { '/1.csv': 'one', '/2.csv': 'two', '/9.csv': 'nine' });
});

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
    await createPipeline(url(), {
      pipeline: pipeline('crossed'),
      transform: listFiles,
      input: {
        cross: [
          { pfs: { repo: 'left', glob: '/*' } },
          { pfs: { repo: 'right', glob: '/[12].csv' } },
        ],
      },
    });
    const job = await lastJob(url(), 'crossed');
    expect(job.state).toBe('JOB_SUCCESS');
    const datums = await listDatums(url(), job.job);
    expect(datums).toHaveLength(6);
    expect(seen(datums)).toEqual([
      'left:/a-1.txt right:/1.csv',
      'left:/a-1.txt right:/2.csv',
      'left:/b-2.txt right:/1.csv',
      'left:/b-2.txt right:/2.csv',
      'left:/c-3.txt right:/1.csv',
      'left:/c-3.txt right:/2.csv',
    ]);
    const outputs = await readAll(url(), 'crossed', job.job.id);
    const first = datums[0];
    expect(outputs[`/${first.datum.id}`]).toBe(
      first.data
        .map((f: Json) => `${f.file.commit.repo.name}${f.file.path}`)
        .sort()
        .join(' ') + ' ',
    );
  });

  it('join: files whose capture groups match ($1), and outerJoin keeps the unmatched', async () => {
    await createPipeline(url(), {
      pipeline: pipeline('joined'),
      transform: listFiles,
      input: {
        join: [
          { pfs: { repo: 'left', glob: '/*-(*).txt', joinOn: '$1' } },
          { pfs: { repo: 'right', glob: '/(*).csv', joinOn: '$1', outerJoin: true } },
        ],
      },
    });
    const job = await lastJob(url(), 'joined');
    expect(job.state).toBe('JOB_SUCCESS');
    const datums = await listDatums(url(), job.job);
    expect(seen(datums)).toEqual([
      'left:/a-1.txt right:/1.csv',
      'left:/b-2.txt right:/2.csv',
      'right:/9.csv',
    ]);
    const outputs = Object.values(await readAll(url(), 'joined', job.job.id)).sort();
    expect(outputs).toEqual([
      'left/a-1.txt right/1.csv ',
      'left/b-2.txt right/2.csv ',
      'right/9.csv ',
    ]);
  });

  it('union and group', async () => {
    await createPipeline(url(), {
      pipeline: pipeline('grouped'),
      transform: listFiles,
      input: {
        group: [
          { pfs: { repo: 'left', glob: '/(*)-*.txt', groupBy: 'all' } },
          { pfs: { repo: 'right', glob: '/*.csv', groupBy: 'all' } },
        ],
      },
    });
    const grouped = await listDatums(url(), (await lastJob(url(), 'grouped')).job);
    expect(grouped).toHaveLength(1);
    expect(grouped[0].data).toHaveLength(6);

    await createPipeline(url(), {
      pipeline: pipeline('unioned'),
      transform: listFiles,
      input: {
        union: [{ pfs: { repo: 'left', glob: '/' } }, { pfs: { repo: 'right', glob: '/*' } }],
      },
    });
    const unioned = await listDatums(url(), (await lastJob(url(), 'unioned')).job);
    expect(unioned).toHaveLength(4);
  });

  it('datums run one after another in one folder each see only their own files', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`/f${String(i).padStart(2, '0')}.txt`] = `file ${i}`;
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('many') });
    await commitFiles(url(), 'many', files);
    // Every datum lists what it sees under /pfs, then litters its outputs (and, where it may
    // write there — not in a sandbox — its inputs and /pfs) with folders and files; the first
    // tries of two datums also fail after littering. Marks of a first try go to /tmp: a worker
    // slot's sandbox (its private /tmp) lasts for the job, and a retry runs in the same slot.
    const marks = '/tmp';
    const script = [
      'cd /pfs && find . -path ./out -prune -o -print | sort | tr "\\n" " " > /tmp-list',
      'mkdir -p /pfs/many/sub /pfs/stray 2>/dev/null; touch /pfs/many/sub/x /pfs/stray/y 2>/dev/null',
      'echo "$PACH_DATUM_ID" 2>/dev/null > /pfs/many/extra',
      'mkdir -p /pfs/out/nested && echo "$PACH_DATUM_ID" > /pfs/out/nested/$PACH_DATUM_ID',
      'mv /tmp-list /pfs/out/$PACH_DATUM_ID',
      'if [ -e /pfs/many/f03.txt ] || [ -e /pfs/many/f07.txt ]; then',
      '  if [ ! -e "$MARKS/$PACH_DATUM_ID" ]; then touch "$MARKS/$PACH_DATUM_ID"; exit 1; fi',
      'fi',
    ]
      .join('\n')
      .replaceAll('/tmp-list', '"$MARKS/list-$PACH_DATUM_ID"');
    await createPipeline(url(), {
      pipeline: pipeline('reused'),
      transform: { cmd: ['sh', '-c', script], env: { MARKS: marks } },
      parallelismSpec: { constant: 1 },
      datumTries: 2,
      input: { pfs: { repo: 'many', glob: '/*' } },
    });
    const job = await lastJob(url(), 'reused');
    expect(job.state).toBe('JOB_SUCCESS');
    const datums = await listDatums(url(), job.job);
    expect(datums).toHaveLength(12);
    const logs = await results(url(), 'pps_v2.API/GetLogs', { job: job.job });
    const failures = logs.filter((l: Json) =>
      /^errored running user code after \S+: exit code 1$/.test(l.message),
    );
    expect(failures).toHaveLength(2);
    const outputs = await readAll(url(), 'reused', job.job.id);
    for (const datum of datums) {
      const own = datum.data[0].file.path as string;
      expect(outputs[`/${datum.datum.id}`]).toBe(`. ./many ./many${own} `);
      expect(outputs[`/nested/${datum.datum.id}`]).toBe(`${datum.datum.id}\n`);
    }
  });

  it('outputs that are links to their inputs keep their bytes after later datums ran', async () => {
    await createPipeline(url(), {
      pipeline: pipeline('linked'),
      // Hard links where the filesystem allows them (not across a sandbox's mounts), else
      // symbolic links to the inputs (which become copies of them).
      transform: {
        cmd: [
          'sh',
          '-c',
          'for f in /pfs/many/*; do ln "$f" /pfs/out/ 2>/dev/null || ln -s "$f" /pfs/out/; done',
        ],
      },
      parallelismSpec: { constant: 1 },
      input: { pfs: { repo: 'many', glob: '/*' } },
    });
    const job = await lastJob(url(), 'linked');
    expect(job.state).toBe('JOB_SUCCESS');
    const outputs = await readAll(url(), 'linked', job.job.id);
    const expected: Record<string, string> = {};
    for (let i = 0; i < 12; i++) expected[`/f${String(i).padStart(2, '0')}.txt`] = `file ${i}`;
    expect(outputs).toEqual(expected);
  });

  it('rejects specs the schema or the engine cannot take', async () => {
    const { call } = await import('./helpers/api-client.ts');
    const bad = await call(url(), 'pps_v2.API/CreatePipelineV2', {
      createPipelineRequestJson: JSON.stringify({
        pipeline: { name: 'x' },
        transform: { cmd: 'echo' },
      }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/cmd/);
    const schema = await fetch(`${url()}/api-schema/pipeline-spec.json`);
    expect(schema.status).toBe(200);
    expect(((await schema.json()) as Json).properties.transform).toBeTruthy();
  });
});
