import { fromJson } from '@bufbuild/protobuf';
import { omni_v1, protoMethod, protoRegistry } from '@ivory/api/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, results } from './helpers/api-client.ts';
import { grpcClient, grpcFailure, type GrpcTestClient } from './helpers/grpc-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { createPipeline, pipeline } from './helpers/pps.ts';

// The trial service (omni_v1, Ivory's own protocol file) over gRPC: a one-stage flow run with
// parameters, its metrics read back, listed, counted, updated and deleted.

let server: TestServer;
let client: GrpcTestClient;
const project = { name: 'default' };

beforeAll(async () => {
  server = await startTestServer({ grpc: { port: 0, optional: false } });
  client = grpcClient(`127.0.0.1:${server.server.grpc!.port}`);
  await ok(server.url, 'pfs_v2.API/CreateProject', { project });
  await ok(server.url, 'pfs_v2.API/CreateRepo', {
    repo: { name: 'g-params', type: 'user', project },
  });
  await createPipeline(server.url, {
    pipeline: pipeline('g-train'),
    metadata: { labels: { flow: 'g', stage: 'train', 'param.lr': '0.1' } },
    transform: {
      cmd: [
        'sh',
        '-c',
        `echo '{"accuracy": 0.9, "loss": [{"step": 1, "value": 0.5}]}' > $PFS_OUT/metrics.json`,
      ],
    },
    input: { pfs: { repo: 'g-params', glob: '/' } },
  });
}, 30_000);

afterAll(async () => {
  client?.close();
  await server?.close();
});

describe('trials over gRPC', () => {
  it('runs a flow with parameters and reads its metrics back', async () => {
    const plugin = await client.unary(omni_v1.API.method.inspectFlowPlugin, { project, flow: 'g' });
    expect(plugin.source).toBe(omni_v1.FlowPluginInfo_Source.LABELS);
    expect(plugin.stages.map((stage) => stage.pipeline?.name)).toEqual(['g-train']);

    const created = await client.unary(omni_v1.API.method.createTrial, {
      project,
      flow: 'g',
      parameters: { lr: '0.2' },
      labels: { team: 'a' },
      author: 'ana',
    });
    expect(created.parameters).toEqual({ lr: '0.2' });
    expect([omni_v1.Trial_State.PENDING, omni_v1.Trial_State.STARTED]).toContain(created.state);

    let trial = created;
    for (let tries = 0; !trial.finished && tries < 400; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      trial = await client.unary(omni_v1.API.method.inspectTrial, { trial: { id: created.id } });
    }
    expect(trial.jobState).toBe('JOB_SUCCESS');
    const accuracy = trial.metrics.find((metric) => metric.name === 'accuracy');
    expect(accuracy?.value).toBeCloseTo(0.9);
    expect(trial.metrics.find((metric) => metric.name === 'loss')?.history).toHaveLength(1);
    // The gateway's Trial fits the protocol file exactly.
    const overHttp = await ok(server.url, 'omni_v1.API/InspectTrial', {
      trial: { id: created.id },
    });
    fromJson(protoMethod('omni_v1.API/InspectTrial')!.output, overHttp, {
      registry: protoRegistry,
      ignoreUnknownFields: false,
    });
    expect(overHttp.id).toBe(trial.id);

    const listed = await client.serverStream(omni_v1.API.method.listTrial, {
      flow: 'g',
      filters: [
        { field: 'metric.accuracy', operator: omni_v1.TrialFilter_Operator.GT, value: '0.8' },
      ],
    });
    expect(listed.map((t) => t.id)).toEqual([created.id]);
    const none = await client.unary(omni_v1.API.method.countTrial, {
      flow: 'g',
      filters: [
        { field: 'metric.accuracy', operator: omni_v1.TrialFilter_Operator.LT, value: '0.8' },
      ],
    });
    expect(none.count).toBe(0n);

    const updated = await client.unary(omni_v1.API.method.updateTrial, {
      trial: { id: created.id },
      description: 'tuned',
    });
    expect(updated.description).toBe('tuned');
    expect(updated.labels).toEqual({ team: 'a' });

    await client.unary(omni_v1.API.method.deleteTrial, { trial: { id: created.id } });
    const remaining = await results(server.url, 'omni_v1.API/ListTrial', { flow: 'g' });
    expect(remaining).toEqual([]);
    const missing = await grpcFailure(
      client.unary(omni_v1.API.method.rerunTrial, { trial: { id: 'no-such-trial' } }),
    );
    expect(missing.code).toBe(5);
  }, 60_000);
});
