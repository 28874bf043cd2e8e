// Ported from Pachyderm's src/server/pps/server/defaults_test.go (each Go test has a fresh pachd:
// here withFreshServer) and internal_test.go's TestAPIServer_validatePipelineRequest (through
// CreatePipeline).
import { fromJson, type JsonValue } from '@bufbuild/protobuf';
import { pps_v2 } from '@ivory/api/proto';
import { describe, expect, it } from 'vitest';
import { failure, type PeerClient } from '../support/peer-client.ts';
import { withFreshServer } from '../support/peer-server.ts';

const project = 'default';

/** The Go tests' template: pipeline "pipeline" over repo "input", `autoscaling: false`. */
const templateSpec = JSON.stringify({
  pipeline: { project: { name: project }, name: 'pipeline' },
  transform: { cmd: ['cp', 'r', '/pfs/in', '/pfs/out'] },
  input: { pfs: { project: 'default', repo: 'input', glob: '/*', name: 'in' } },
  autoscaling: false,
});

const request = (json: string) =>
  fromJson(pps_v2.CreatePipelineRequestSchema, JSON.parse(json) as JsonValue);

async function createTemplatePipeline(c: PeerClient): Promise<pps_v2.CreatePipelineRequest> {
  await c.createRepo(project, 'input');
  const resp = await c.createPipelineV2({ createPipelineRequestJson: templateSpec });
  expect(resp.effectiveCreatePipelineRequestJson).not.toBe('');
  return request(resp.effectiveCreatePipelineRequestJson);
}

async function effectiveNow(c: PeerClient): Promise<pps_v2.CreatePipelineRequest> {
  const ir = await c.inspectPipelineRequest({
    pipeline: { project: { name: project }, name: 'pipeline' },
    details: true,
  });
  return request(ir.effectiveSpecJson);
}

describe('defaults_test.go', () => {
  it('TestAPIServer_CreatePipelineV2_defaults: cluster defaults apply, the spec overrides them', async () => {
    await withFreshServer(async (c) => {
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 17, "autoscaling": true}}',
      });
      const req = await createTemplatePipeline(c);
      expect(req.datumTries).toBe(17n);
      expect(req.autoscaling).toBe(false);
      expect(req.transform?.cmd).toHaveLength(4);
    });
  });

  it('TestAPIServer_CreatePipelineV2_projectDefaults: project defaults over cluster defaults', async () => {
    await withFreshServer(async (c) => {
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 17, "autoscaling": true}}',
      });
      await c.setProjectDefaults({
        project: { name: 'default' },
        projectDefaultsJson: '{"create_pipeline_request": {"datum_tries": 13}}',
      });
      const req = await createTemplatePipeline(c);
      expect(req.datumTries).toBe(13n);
      expect(req.autoscaling).toBe(false);
      expect(req.transform?.cmd).toHaveLength(4);
    });
  });

  it('TestAPIServer_SetClusterDefaults_regenerate: the project default still wins after a regenerate', async () => {
    await withFreshServer(async (c) => {
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 17, "autoscaling": true}}',
      });
      await c.setProjectDefaults({
        project: { name: 'default' },
        projectDefaultsJson: '{"create_pipeline_request": {"datum_tries": 13}}',
      });
      const req = await createTemplatePipeline(c);
      expect(req.datumTries).toBe(13n);
      await c.setClusterDefaults({
        clusterDefaultsJson: '{"create_pipeline_request": {"datum_tries": 4, "autoscaling": true}}',
        regenerate: true,
      });
      const now = await effectiveNow(c);
      expect(now.datumTries).toBe(13n);
      expect(now.autoscaling).toBe(false);
    });
  });

  it('TestAPIServer_CreatePipelineV2_delete: with "{}" the built-in default applies, then a regenerate', async () => {
    await withFreshServer(async (c) => {
      await c.setClusterDefaults({ clusterDefaultsJson: '{}' });
      const req = await createTemplatePipeline(c);
      expect(req.datumTries).toBe(3n);
      await c.setClusterDefaults({
        clusterDefaultsJson: '{"create_pipeline_request": {"datum_tries": 4, "autoscaling": true}}',
        regenerate: true,
      });
      const now = await effectiveNow(c);
      expect(now.datumTries).toBe(4n);
      expect(now.autoscaling).toBe(false);
    });
  });

  it('TestAPIServer_CreatePipelineV2_zero_value: a zero value in the defaults is accepted', async () => {
    await withFreshServer(async (c) => {
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 17, "autoscaling": true, "resource_requests": {"memory": "200Mi", "cpu": 0}}}',
      });
      const req = await createTemplatePipeline(c);
      expect(req.datumTries).toBe(17n);
      expect(req.autoscaling).toBe(false);
      expect(req.transform?.cmd).toHaveLength(4);
    });
  });

  it('TestAPIServer_CreatePipelineV2_reprocessSpec: until_success and every_job only', async () => {
    await withFreshServer(async (c) => {
      const cases: [string, boolean][] = [
        ['{"create_pipeline_request": {}}', false],
        ['{"create_pipeline_request": {"reprocessSpec": "until_success"}}', false],
        ['{"create_pipeline_request": {"reprocessSpec": "every_job"}}', false],
        ['{"create_pipeline_request": {"reprocessSpec": "#<not a reprocess spec>"}}', true],
      ];
      for (const [defaults, wantErr] of cases) {
        const set = c.setClusterDefaults({ clusterDefaultsJson: defaults });
        if (wantErr) await failure(set);
        else await set;
      }
    });
  });

  it('TestAPIServer_GetProjectDefaults: a project with none has "{}"; a bad name is an error', async () => {
    await withFreshServer(async (c) => {
      await c.grpc.unary(pps_v2.API.method.getProjectDefaults, {});
      await c.grpc.unary(pps_v2.API.method.getProjectDefaults, { project: {} });
      await failure(c.getProjectDefaults('#<invalid project>'));
      expect((await c.getProjectDefaults('default')).projectDefaultsJson).toBe('{}');
      await c.createProject('foo');
      expect((await c.getProjectDefaults('foo')).projectDefaultsJson).toBe('{}');
    });
  });

  it('TestAPIServer_SetProjectDefaults: stored as given; no project means the default one', async () => {
    await withFreshServer(async (c) => {
      await c.setProjectDefaults({
        project: { name: 'default' },
        projectDefaultsJson: '{"createPipelineRequest":{}}',
      });
      expect((await c.getProjectDefaults('default')).projectDefaultsJson).toBe(
        '{"createPipelineRequest":{}}',
      );
      await failure(
        c.setProjectDefaults({ project: { name: 'default' }, projectDefaultsJson: '#<invalid>' }),
      );
      await c.setProjectDefaults({
        projectDefaultsJson: '{"createPipelineRequest":{"datum_tries": "24"}}',
      });
      const resp = await c.grpc.unary(pps_v2.API.method.getProjectDefaults, {});
      expect(resp.projectDefaultsJson).toBe('{"createPipelineRequest":{"datum_tries": "24"}}');
      await c.createProject('foo');
      await c.setProjectDefaults({
        project: { name: 'foo' },
        projectDefaultsJson: '{"createPipelineRequest":{}}',
      });
      expect((await c.getProjectDefaults('foo')).projectDefaultsJson).toBe(
        '{"createPipelineRequest":{}}',
      );
    });
  });

  it("TestAPIServer_SetProjectDefaults_regenerate: project defaults shadow the cluster's until removed", async () => {
    await withFreshServer(async (c) => {
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 8, "autoscaling": false}}',
      });
      await c.setProjectDefaults({
        projectDefaultsJson: '{"create_pipeline_request": {"datum_tries": 9, "autoscaling": true}}',
      });
      const req = await createTemplatePipeline(c);
      expect(req.datumTries).toBe(9n);
      expect(req.autoscaling).toBe(false);
      await c.setClusterDefaults({
        clusterDefaultsJson: '{"create_pipeline_request": {"datum_tries": 6, "autoscaling": true}}',
        regenerate: true,
      });
      let now = await effectiveNow(c);
      expect(now.datumTries).toBe(9n);
      expect(now.autoscaling).toBe(false);
      await c.setProjectDefaults({
        projectDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 12, "autoscaling": true}}',
        regenerate: true,
      });
      now = await effectiveNow(c);
      expect(now.datumTries).toBe(12n);
      expect(now.autoscaling).toBe(false);
      await c.setProjectDefaults({
        projectDefaultsJson: '{"create_pipeline_request": {"autoscaling": true}}',
        regenerate: true,
      });
      now = await effectiveNow(c);
      expect(now.datumTries).toBe(6n);
      expect(now.autoscaling).toBe(false);
    });
  });
});

describe('internal_test.go', () => {
  it("TestAPIServer_validatePipelineRequest: a name over 51, then a workers' name over 63, are refused", async () => {
    await withFreshServer(async (c) => {
      const pipeline = {
        project: { name: '0123456789ABCDEF' },
        name: '0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF',
      };
      let { details } = await failure(c.createPipelineRequest({ pipeline }));
      expect(details).toContain(
        `is ${pipeline.name.length - 51} characters longer than the 51 max`,
      );
      pipeline.name = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXY';
      const k8sName = `0123456789abcdef-${pipeline.name.toLowerCase()}-v99`;
      ({ details } = await failure(c.createPipelineRequest({ pipeline })));
      expect(details).toContain(`is ${k8sName.length - 63} characters longer than the 63 max`);
    });
  });
});
