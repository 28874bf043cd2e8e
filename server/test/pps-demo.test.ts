import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, results, type Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { lastJob, pipeline, readAll } from './helpers/pps.ts';

let server: TestServer;
let url: string;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  url = server.url;
});
afterAll(() => server.close());

describe('the seeded demo project', () => {
  it('has a working samples → row-counts → summary DAG with jobs and logs', async () => {
    const pipelines = await results(url, 'pps_v2.API/ListPipeline', {
      projects: [{ name: 'default' }],
    });
    expect(pipelines.map((p: Json) => p.pipeline.name).sort()).toEqual(['row-counts', 'summary']);
    let summary: Json | undefined;
    for (let i = 0; i < 200 && !summary; i++) {
      const jobs = await results(url, 'pps_v2.API/ListJob', { pipeline: pipeline('summary') });
      summary = jobs[0];
      if (!summary) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const rowCounts = await lastJob(url, 'row-counts');
    expect(rowCounts.state).toBe('JOB_SUCCESS');
    const done = await ok(url, 'pps_v2.API/InspectJob', { job: summary.job, wait: true });
    expect(done.state).toBe('JOB_SUCCESS');
    expect(done.job.id).toBe(rowCounts.job.id);
    expect(await readAll(url, 'row-counts', rowCounts.job.id)).toEqual({
      '/config.json.count': '5\n',
      '/iris.csv.count': '6\n',
    });
    expect(await readAll(url, 'summary', done.job.id)).toEqual({ '/total-lines.txt': '11\n' });
    const logs = await results(url, 'pps_v2.API/GetLogs', { pipeline: pipeline('row-counts') });
    expect(logs.map((l: Json) => l.message)).toContain('iris.csv has 6 lines');
  });
});
