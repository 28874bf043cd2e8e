import { beforeAll, describe, expect, it } from 'vitest';
import { callStream, commitFiles, results, type Json } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { createPipeline, lastJob, pipeline } from './helpers/pps.ts';

/** `jqFilter` on ListJob, ListJobSet and ListPipeline: real jq over each item's wire JSON. */

const { url } = useTestServer({ projects: ['default'], repos: ['rows'] });

beforeAll(async () => {
  await commitFiles(url(), 'rows', { '/a.csv': '1\n2\n' });
  for (const name of ['row-counts', 'copies']) {
    await createPipeline(url(), {
      pipeline: pipeline(name),
      transform: { cmd: ['sh', '-c', 'cp /pfs/rows/* /pfs/out/'] },
      input: { pfs: { repo: 'rows', glob: '/*' } },
    });
    await lastJob(url(), name);
  }
  // A second round of jobs so that `number` has something to cut.
  await commitFiles(url(), 'rows', { '/b.csv': '3\n' });
  await lastJob(url(), 'row-counts');
  await lastJob(url(), 'copies');
}, 60_000);

describe('jqFilter', () => {
  it("ListJob: the console's side-panel query returns that pipeline's newest job", async () => {
    const all = await results(url(), 'pps_v2.API/ListJob', { number: '1' });
    expect(all).toHaveLength(1);
    const newest = all[0];
    const other = newest.job.pipeline.name === 'copies' ? 'row-counts' : 'copies';
    const filtered = await results(url(), 'pps_v2.API/ListJob', {
      number: '1',
      jqFilter: `select(.job.pipeline.name | IN("${other}"))`,
    });
    expect(filtered).toHaveLength(1);
    expect(filtered[0].job.pipeline.name).toBe(other);
    const jobsOfOther = await results(url(), 'pps_v2.API/ListJob', {
      pipeline: pipeline(other),
      number: 1,
    });
    expect(filtered[0].job.id).toBe(jobsOfOther[0].job.id);
  });

  it('ListJob: false, null and no output drop an item; any other first output keeps it', async () => {
    const count = async (jqFilter: string) =>
      (await results(url(), 'pps_v2.API/ListJob', { jqFilter })).length;
    expect(await count('.')).toBe(4);
    expect(await count('false')).toBe(0);
    expect(await count('null')).toBe(0);
    expect(await count('empty')).toBe(0);
    expect(await count('.state == "JOB_SUCCESS"')).toBe(4);
    expect(await count('.dataTotal == "1"')).toBe(2);
    expect(await count('[.job.pipeline.name] | inside(["copies"])')).toBe(2);
  });

  it('ListJobSet: keeps the matching jobs of each set', async () => {
    const sets = await results(url(), 'pps_v2.API/ListJobSet', {
      jqFilter: 'select(.job.pipeline.name == "copies")',
    });
    expect(sets.length).toBeGreaterThan(0);
    const names = sets.flatMap((set: Json) => set.jobs.map((job: Json) => job.job.pipeline.name));
    expect(new Set(names)).toEqual(new Set(['copies']));
  });

  it('ListPipeline: filters pipeline infos', async () => {
    const infos = await results(url(), 'pps_v2.API/ListPipeline', {
      jqFilter: 'select(.pipeline.name | test("^row"))',
    });
    expect(infos.map((info: Json) => info.pipeline.name)).toEqual(['row-counts']);
  });

  it("a filter jq cannot compile is code 3 with jq's message, before any item", async () => {
    for (const method of ['ListJob', 'ListJobSet', 'ListPipeline']) {
      const response = await callStream(url(), `pps_v2.API/${method}`, { jqFilter: '.job |||' });
      expect(response.status).toBe(400);
      expect(response.lines[0].code).toBe(3);
      expect(response.lines[0].message).toMatch(/jq: error: syntax error/);
    }
  });

  it("a filter that fails on an item is code 3 with jq's message", async () => {
    const response = await callStream(url(), 'pps_v2.API/ListJob', { jqFilter: '.job | .[0]' });
    expect(response.status).toBe(400);
    expect(response.lines[0].code).toBe(3);
    expect(response.lines[0].message).toMatch(/Cannot index object with number/);
  });
});
