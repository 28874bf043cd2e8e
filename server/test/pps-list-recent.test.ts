import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, repo, results, type Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { createPipeline, pipeline } from './helpers/pps.ts';

/**
 * ListPipeline's page (PipelinePage, ordering RECENT): the most recently changed pipelines
 * first, which the lineage reads as a cheap probe for pipelines changed by other clients.
 */

let server: TestServer;
let url: string;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const firstPage = async (pageSize: number, pageIndex = 0) =>
  (
    await results(url, 'pps_v2.API/ListPipeline', {
      projects: [{ name: 'default' }],
      page: { order: 'RECENT', pageSize: String(pageSize), pageIndex: String(pageIndex) },
    })
  ).map((info: Json) => `${info.pipeline.name}:${info.version}:${info.state}`);

beforeAll(async () => {
  server = await startTestServer();
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('src') });
  for (const name of ['one', 'two', 'three']) {
    await createPipeline(url, {
      pipeline: pipeline(name),
      transform: { cmd: ['true'] },
      input: { pfs: { repo: 'src', glob: '/' } },
    });
    await ok(url, 'pps_v2.API/StopPipeline', { pipeline: pipeline(name) });
    await tick();
  }
}, 60_000);
afterAll(() => server.close());

describe('ListPipeline page, RECENT', () => {
  it('lists the most recently changed pipelines first: stopped, started and updated ones move up', async () => {
    expect(await firstPage(2)).toEqual(['three:1:PIPELINE_PAUSED', 'two:1:PIPELINE_PAUSED']);
    expect(await firstPage(2, 1)).toEqual(['one:1:PIPELINE_PAUSED']);

    await ok(url, 'pps_v2.API/StartPipeline', { pipeline: pipeline('one') });
    await tick();
    expect((await firstPage(1))[0]).toMatch(/^one:1:PIPELINE_(RUNNING|STANDBY)$/);

    // A paused pipeline updated elsewhere: a new version, still paused, no job.
    await createPipeline(
      url,
      {
        pipeline: pipeline('two'),
        transform: { cmd: ['sh', '-c', 'exit 0'] },
        input: { pfs: { repo: 'src', glob: '/*' } },
      },
      { update: true },
    );
    expect(await firstPage(1)).toEqual(['two:2:PIPELINE_PAUSED']);
    // Without a page, the whole list in name order as before.
    const all = await results(url, 'pps_v2.API/ListPipeline', { projects: [{ name: 'default' }] });
    expect(all.map((info: Json) => info.pipeline.name)).toEqual(['one', 'three', 'two']);
  });
});
