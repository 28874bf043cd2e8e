import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, commitFiles, ok, repo, results, type Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { createPipeline, lastJob, pipeline } from './helpers/pps.ts';

/** Defaults saves validate every affected pipeline first and store everything or nothing. */

let server: TestServer;
let url: string;
const good = JSON.stringify({ createPipelineRequest: { datumTries: '4' } });

beforeAll(async () => {
  server = await startTestServer();
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('rows') });
  await commitFiles(url, 'rows', { '/a.csv': '1\n' });
  await ok(url, 'pps_v2.API/SetProjectDefaults', {
    project: { name: 'default' },
    projectDefaultsJson: good,
  });
  for (const name of ['first', 'second']) {
    await createPipeline(url, {
      pipeline: pipeline(name),
      transform: { cmd: ['sh', '-c', 'cp /pfs/rows/* /pfs/out/'] },
      input: { pfs: { repo: 'rows', glob: '/*' } },
    });
    await lastJob(url, name);
  }
}, 60_000);
afterAll(() => server.close());

async function state() {
  const defaults = await ok(url, 'pps_v2.API/GetProjectDefaults', {
    project: { name: 'default' },
  });
  const infos = await results(url, 'pps_v2.API/ListPipeline', {});
  const versions = Object.fromEntries(
    infos.map((info: Json) => [info.pipeline.name, info.version]),
  );
  const specCommits = await results(url, 'pfs_v2.API/ListCommit', {
    repo: { ...repo('first'), type: 'spec' },
  });
  return { json: defaults.projectDefaultsJson, versions, specCommits: specCommits.length };
}

describe('SetProjectDefaults', () => {
  it('rejects a document of the wrong type and changes nothing', async () => {
    const before = await state();
    const response = await call(url, 'pps_v2.API/SetProjectDefaults', {
      project: { name: 'default' },
      projectDefaultsJson: JSON.stringify({ createPipelineRequest: { datumTries: 'three' } }),
      regenerate: true,
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(3);
    expect(response.body.message).toMatch(/datumTries/);
    expect(await state()).toEqual(before);
    expect(JSON.parse(before.json)).toEqual(JSON.parse(good));
    // Pipelines can still be created in the project.
    const effective = await createPipeline(
      url,
      {
        pipeline: pipeline('third'),
        transform: { cmd: ['true'] },
        input: { pfs: { repo: 'rows', glob: '/' } },
      },
      { dryRun: true },
    );
    expect(effective.datumTries).toBe('4');
  });

  it('rejects defaults under which an affected pipeline could not run, naming it, and changes nothing', async () => {
    const before = await state();
    const response = await call(url, 'pps_v2.API/SetProjectDefaults', {
      project: { name: 'default' },
      // Valid alone; merged into each pipeline's pfs input it names that input "out".
      projectDefaultsJson: JSON.stringify({
        createPipelineRequest: { input: { pfs: { repo: 'rows', name: 'out' } } },
      }),
      regenerate: true,
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(3);
    expect(response.body.message).toMatch(/pipeline first under these defaults.*named out/);
    expect(await state()).toEqual(before);
  });

  it('a good save stores the document and regenerates every affected pipeline together', async () => {
    const before = await state();
    const response = await ok(url, 'pps_v2.API/SetProjectDefaults', {
      project: { name: 'default' },
      projectDefaultsJson: JSON.stringify({ createPipelineRequest: { datumTries: '5' } }),
      regenerate: true,
    });
    expect(response.affectedPipelines.map((p: Json) => p.name).sort()).toEqual(['first', 'second']);
    const after = await state();
    expect(JSON.parse(after.json).createPipelineRequest.datumTries).toBe('5');
    expect(after.versions).toEqual({
      first: String(Number(before.versions.first) + 1),
      second: String(Number(before.versions.second) + 1),
    });
    expect(after.specCommits).toBe(before.specCommits + 1);
    const info = await ok(url, 'pps_v2.API/InspectPipeline', {
      pipeline: pipeline('first'),
      details: true,
    });
    expect(info.details.datumTries).toBe('5');
  });

  it('SetClusterDefaults checks pipelines the same way', async () => {
    const before = await state();
    const response = await call(url, 'pps_v2.API/SetClusterDefaults', {
      clusterDefaultsJson: JSON.stringify({ createPipelineRequest: { jobTimeout: 'never' } }),
      regenerate: true,
    });
    expect(response.body.code).toBe(3);
    expect(await state()).toEqual(before);
  });
});
