import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, ok, repo, results, type Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { createPipeline, pipeline } from './helpers/pps.ts';

// A real two-stage flow: `demo-train` reads the trial's /params.json from `demo-params` and
// writes /metrics.json; `demo-eval` reads that and writes its own (its `accuracy` wins).

let server: TestServer;
let url: string;

const node = process.execPath;
const train = `
const fs = require('fs');
const dir = process.env.PFS_DEMO_PARAMS;
const p = JSON.parse(fs.readFileSync(dir + '/params.json', 'utf8'));
const trial = JSON.parse(fs.readFileSync(dir + '/trial.json', 'utf8'));
const lr = Number(p.lr), epochs = Number(p.epochs);
if (!Number.isFinite(lr)) { console.error('bad lr ' + p.lr); process.exit(1); }
const loss = [];
for (let i = 1; i <= epochs; i++) loss.push({ step: i, value: 1 / (i * (1 + lr)) });
fs.writeFileSync(process.env.PFS_OUT + '/metrics.json', JSON.stringify({ accuracy: 1 - lr, loss }));
fs.writeFileSync(process.env.PFS_OUT + '/trial-id', trial.id);
`;
const evaluate = `
const fs = require('fs');
const m = JSON.parse(fs.readFileSync(process.env.PFS_DEMO_TRAIN + '/metrics.json', 'utf8'));
const accuracy = Number((m.accuracy + 0.005).toFixed(3));
fs.writeFileSync(process.env.PFS_OUT + '/metrics.json', JSON.stringify({ accuracy, evalScore: accuracy * 100 }));
`;

beforeAll(async () => {
  server = await startTestServer();
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  for (const name of ['demo-params', 'plug-params', 'plug-bolt', 'other'])
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo(name) });
  await createPipeline(url, {
    pipeline: pipeline('demo-train'),
    metadata: { labels: { flow: 'demo', stage: 'train', 'param.lr': '0.1', 'param.epochs': '3' } },
    transform: { cmd: [node, '-e', train] },
    datumTries: 1,
    input: { pfs: { repo: 'demo-params', glob: '/' } },
  });
  await createPipeline(url, {
    pipeline: pipeline('demo-eval'),
    metadata: { labels: { flow: 'demo', stage: 'evaluate' } },
    transform: { cmd: [node, '-e', evaluate] },
    datumTries: 1,
    input: { pfs: { repo: 'demo-train', glob: '/' } },
  });
  // A flow described by a plugin file in its bolt repo.
  await commitFiles(url, 'plug-bolt', {
    '/user_plugin/plugin.json': JSON.stringify({
      stages: [
        {
          name: 'prep',
          parameters: [
            { name: 'size', type: 'int', default: 8, description: 'rows to keep' },
            { name: 'mode', type: 'string', default: 'fast', description: '' },
          ],
        },
      ],
    }),
  });
  await createPipeline(url, {
    pipeline: pipeline('plug-prep'),
    metadata: { labels: { flow: 'plug', stage: 'prep', bolt: 'plug-bolt' } },
    transform: { cmd: ['sh', '-c', 'cp $PFS_PLUG_PARAMS/params.json $PFS_OUT/'] },
    input: { pfs: { repo: 'plug-params', glob: '/' } },
  });
  // A flow none of whose stages reads its params repo.
  await createPipeline(url, {
    pipeline: pipeline('orphan-stage'),
    metadata: { labels: { flow: 'orphan' } },
    transform: { cmd: ['true'] },
    input: { pfs: { repo: 'other', glob: '/' } },
  });
});
afterAll(() => server.close());

async function waitFinished(id: string, timeoutMs = 45_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const trial = await ok(url, 'omni_v1.API/InspectTrial', { trial: { id } });
    if (trial.finished) return trial;
    if (Date.now() > deadline) throw new Error(`trial ${id} still ${trial.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const metric = (trial: Json, name: string) =>
  trial.metrics.find((m: Json) => m.name === name) as Json;

describe('running trials', () => {
  it('describes a flow from its pipelines’ labels, and from a plugin file', async () => {
    const demo = await ok(url, 'omni_v1.API/InspectFlowPlugin', {
      project: { name: 'default' },
      flow: 'demo',
    });
    expect(demo).toMatchObject({
      flow: 'demo',
      source: 'LABELS',
      paramsRepo: { name: 'demo-params' },
      paramsRepoExists: true,
      stages: [
        {
          name: 'train',
          pipeline: { name: 'demo-train' },
          parameters: [
            { name: 'epochs', type: 'number', default: '3', description: '' },
            { name: 'lr', type: 'number', default: '0.1', description: '' },
          ],
        },
        { name: 'evaluate', pipeline: { name: 'demo-eval' }, parameters: [] },
      ],
    });
    const plug = await ok(url, 'omni_v1.API/InspectFlowPlugin', { flow: 'plug' });
    expect(plug).toMatchObject({
      source: 'PLUGIN',
      bolt: 'plug-bolt',
      stages: [
        {
          name: 'prep',
          pipeline: { name: 'plug-prep' },
          parameters: [
            { name: 'size', type: 'int', default: '8', description: 'rows to keep' },
            { name: 'mode', type: 'string', default: 'fast' },
          ],
        },
      ],
    });
    const none = await ok(url, 'omni_v1.API/InspectFlowPlugin', { flow: 'ghost' }).catch(
      (e: Error) => e.message,
    );
    expect(String(none)).toContain('"code":5');
  });

  it('runs the flow with the parameters, reads the metrics, filters on them, and reruns', async () => {
    const first = await ok(url, 'omni_v1.API/CreateTrial', {
      project: { name: 'default' },
      flow: 'demo',
      parameters: { lr: '0.1' },
      labels: { team: 'a' },
      description: 'first try',
      author: 'ana',
    });
    expect(['PENDING', 'STARTED']).toContain(first.state);
    // Defaults from the flow's labels fill what is not given.
    expect(first.parameters).toEqual({ lr: '0.1', epochs: '3' });
    expect(first.jobSetId).toMatch(/^[0-9a-f]{32}$/);
    const second = await ok(url, 'omni_v1.API/CreateTrial', {
      flow: 'demo',
      parameters: { lr: 0.3, epochs: '2' },
      author: 'bo',
    });

    const done = await waitFinished(first.id);
    expect(done).toMatchObject({ state: 'STARTED', jobState: 'JOB_SUCCESS', reason: '' });
    expect(done.started).not.toBeNull();
    expect(metric(done, 'accuracy').value).toBeCloseTo(0.905); // evaluate's value wins
    expect(metric(done, 'evalScore').value).toBeCloseTo(90.5);
    const loss = metric(done, 'loss');
    expect(loss.history.map((p: Json) => Number(p.step))).toEqual([1, 2, 3]);
    expect(loss.value).toBeCloseTo(1 / (3 * 1.1));

    // The trial's job set: both stages ran under the params commit's global ID.
    const jobs = await results(url, 'pps_v2.API/InspectJobSet', {
      jobSet: { id: first.jobSetId },
    });
    expect(jobs.map((j: Json) => j.job.pipeline.name).sort()).toEqual(['demo-eval', 'demo-train']);
    const trainOut = await results(url, 'pfs_v2.API/GetFile', {
      file: { commit: { repo: repo('demo-train'), id: first.jobSetId }, path: '/trial-id' },
    });
    expect(Buffer.concat(trainOut.map((c: string) => Buffer.from(c, 'base64'))).toString()).toBe(
      first.id,
    );

    const doneSecond = await waitFinished(second.id);
    expect(metric(doneSecond, 'accuracy').value).toBeCloseTo(0.705);
    expect(metric(doneSecond, 'loss').history).toHaveLength(2);

    const good = await results(url, 'omni_v1.API/ListTrial', {
      flow: 'demo',
      filters: [{ field: 'metric.accuracy', operator: 'GT', value: '0.8' }],
    });
    expect(good.map((t: Json) => t.id)).toEqual([first.id]);
    const ordered = await results(url, 'omni_v1.API/ListTrial', {
      flow: 'demo',
      orderBy: [{ field: 'metric.accuracy', order: 'ASC' }],
    });
    expect(ordered.map((t: Json) => t.id)).toEqual([second.id, first.id]);

    const rerun = await ok(url, 'omni_v1.API/RerunTrial', { trial: { id: first.id } });
    expect(rerun.id).not.toBe(first.id);
    expect(rerun.rerunOf).toBe(first.id);
    expect(rerun.parameters).toEqual(first.parameters);
    expect(rerun.labels).toEqual({ team: 'a' });
    expect(rerun.jobSetId).not.toBe(first.jobSetId);
    const rerunDone = await waitFinished(rerun.id);
    expect(rerunDone.state).toBe('STARTED');
    expect(metric(rerunDone, 'accuracy').value).toBeCloseTo(0.905);
    const reruns = await results(url, 'omni_v1.API/ListTrial', {
      filters: [{ field: 'rerunOf', operator: 'EQ', value: first.id }],
    });
    expect(reruns.map((t: Json) => t.id)).toEqual([rerun.id]);
  });

  it('marks a trial whose job fails, or whose flow is missing, UNRUNNABLE', async () => {
    const broken = await ok(url, 'omni_v1.API/CreateTrial', {
      flow: 'demo',
      parameters: { lr: 'boom' },
    });
    const failed = await waitFinished(broken.id);
    expect(failed.state).toBe('UNRUNNABLE');
    expect(failed.jobState).toBe('JOB_FAILURE');
    expect(failed.reason).toMatch(/^stage train failed: datum [0-9a-f]{64}/);
    expect(failed.metrics).toEqual([]);

    const ghost = await ok(url, 'omni_v1.API/CreateTrial', { flow: 'ghost', parameters: {} });
    expect(ghost.state).toBe('UNRUNNABLE');
    expect(ghost.reason).toContain('no pipelines');
    expect(ghost.jobSetId).toBe('');

    const orphan = await ok(url, 'omni_v1.API/CreateTrial', { flow: 'orphan' });
    expect(orphan.state).toBe('SKIPPED');
    expect(orphan.reason).toContain('orphan-params');

    const bad = await ok(url, 'omni_v1.API/CreateTrial', { flow: 'no/such' }).catch(
      (e: Error) => e.message,
    );
    expect(String(bad)).toContain('"code":3');
  });

  it('fills parameters from a plugin description and runs a one-stage flow', async () => {
    const trial = await ok(url, 'omni_v1.API/CreateTrial', {
      flow: 'plug',
      parameters: { mode: 'slow' },
    });
    expect(trial.parameters).toEqual({ size: '8', mode: 'slow' });
    const done = await waitFinished(trial.id);
    expect(done).toMatchObject({ state: 'STARTED', jobState: 'JOB_SUCCESS', metrics: [] });
    const out = await results(url, 'pfs_v2.API/GetFile', {
      file: { commit: { repo: repo('plug-prep'), id: trial.jobSetId }, path: '/params.json' },
    });
    expect(
      JSON.parse(Buffer.concat(out.map((c: string) => Buffer.from(c, 'base64'))).toString()),
    ).toEqual({
      mode: 'slow',
      size: '8',
    });
    const counted = await ok(url, 'omni_v1.API/CountTrial', { flow: 'plug' });
    expect(counted).toEqual({ count: '1' });
  });
});
