// Ported from Pachyderm's src/server/pps/server/api_server_test.go: pipeline specs, their
// validation and versions, ListDatum over an input, secrets and templates, over the API. Tests
// that count what the whole cluster holds get a server of their own (withFreshServer), as each Go
// test gets a fresh pachd.
import { fromJson, type JsonValue } from '@bufbuild/protobuf';
import { pps_v2 } from '@ivory/api/proto';
import { describe, expect, it } from 'vitest';
import {
  failure,
  inputs,
  PipelineState,
  type PeerClient,
  type PipelineInfo,
} from '../support/peer-client.ts';
import { eventually, unique, usePeerServer, withFreshServer } from '../support/peer-server.ts';

const env = usePeerServer();
const project = 'default';

/** The spec the Go tests fill their template with: `cp r /pfs/in /pfs/out` over `repo`. */
function templateSpec(pipeline: string, repo: string, extra: object = {}): string {
  return JSON.stringify({
    pipeline: { project: { name: project }, name: pipeline },
    transform: { cmd: ['cp', 'r', '/pfs/in', '/pfs/out'] },
    input: { pfs: { project: 'default', repo, glob: '/*', name: 'in' } },
    ...extra,
  });
}

/** A spec's JSON read as the request message, strictly (as the Go tests' protojson.Unmarshal). */
const effectiveRequest = (json: string): pps_v2.CreatePipelineRequest =>
  fromJson(pps_v2.CreatePipelineRequestSchema, JSON.parse(json) as JsonValue);

async function cpPipeline(c: PeerClient, proj: string, name: string, repo: string, update = true) {
  await c.createPipeline(
    proj,
    name,
    ['cp', '-r', '/pfs/in', '/pfs/out'],
    {
      pfs: { project: 'default', repo, glob: '/*', name: 'in' },
    },
    { update, parallelism: 0 },
  );
}

describe('api_server_test.go: datums and pipelines', () => {
  it("TestListDatum: an input's datums, in pages of 3 forward and backward", async () => {
    const c = env.client();
    const repo = unique('TestListDatum');
    await c.createRepo(project, repo);
    const commit1 = await c.startCommit(project, repo, 'master');
    for (let i = 0; i < 9; i++)
      await c.putFile(c.commit(project, repo, '', commit1.id), `/file${i}`, '');
    await c.finishCommit(project, repo, 'master', commit1.id);
    await c.waitCommit(project, repo, 'master', commit1.id);

    const input = { pfs: { repo, glob: '/*' } };
    let dis = await c.listDatumInput(input);
    expect(dis).toHaveLength(9);
    const datumIDs = dis.map((di) => di.datum!.id);
    // three pages of 3
    const paged: string[] = [];
    dis = await c.listDatumInput(input, { number: 3n });
    expect(dis).toHaveLength(3);
    paged.push(...dis.map((di) => di.datum!.id));
    for (let i = 0; i < 2; i++) {
      dis = await c.listDatumInput(input, { number: 3n, paginationMarker: dis[2]!.datum!.id });
      expect(dis).toHaveLength(3);
      paged.push(...dis.map((di) => di.datum!.id));
    }
    expect([...paged].sort()).toEqual([...datumIDs].sort());
    dis = await c.listDatumInput(input, { number: 1n, paginationMarker: dis[2]!.datum!.id });
    expect(dis).toHaveLength(0);
    // three pages of 3 in reverse
    const reverse: string[] = [];
    dis = await c.listDatumInput(input, { number: 3n, reverse: true });
    expect(dis).toHaveLength(3);
    reverse.push(...dis.map((di) => di.datum!.id));
    for (let i = 0; i < 2; i++) {
      dis = await c.listDatumInput(input, {
        number: 3n,
        paginationMarker: dis[2]!.datum!.id,
        reverse: true,
      });
      expect(dis).toHaveLength(3);
      reverse.push(...dis.map((di) => di.datum!.id));
    }
    dis = await c.listDatumInput(input, {
      number: 1n,
      paginationMarker: dis[2]!.datum!.id,
      reverse: true,
    });
    expect(dis).toHaveLength(0);
    datumIDs.forEach((id, i) => expect(reverse[reverse.length - 1 - i]).toBe(id));
  });

  it('TestRenderTemplate: a jsonnet template with an argument renders one spec', async () => {
    const c = env.client();
    const res = await c.grpc.unary(pps_v2.API.method.renderTemplate, {
      args: { arg1: 'value1' },
      template: `
        function (arg1) {
          pipeline: {name: arg1},
        }
      `,
    });
    expect(res.specs).toHaveLength(1);
  });

  it('TestDeletePipelines: all: true deletes both pipelines (across projects, an updated one too)', async () => {
    await withFreshServer(async (c) => {
      const inputRepo = unique('repo');
      await c.createRepo(project, inputRepo);
      const proj = unique('project-');
      const pipeline1 = unique('pipeline1-');
      const pipeline2 = unique('pipeline2-');
      await c.createProject(proj);
      await cpPipeline(c, project, pipeline1, inputRepo);
      await c.createPipeline(
        proj,
        pipeline2,
        ['cp', '-r', '/pfs/in', '/pfs/out'],
        {
          pfs: { project: 'default', repo: pipeline1, glob: '/*', name: 'in' },
        },
        { update: true, parallelism: 0 },
      );
      await cpPipeline(c, project, pipeline1, inputRepo);
      const info = await c.inspectPipeline(project, pipeline1, false);
      expect(info.version).toBe(2n);
      const deleted = await c.deletePipelines({ all: true });
      expect(deleted.pipelines).toHaveLength(2);
    });
  });

  it('TestUpdatePipelineInputBranch: an update may read another branch of its input', async () => {
    const c = env.client();
    const repo = unique('input');
    const pipeline = unique('pipeline');
    await c.createRepo(project, repo);
    await cpPipeline(c, project, pipeline, repo);
    const commit1 = await c.startCommit(project, repo, 'master');
    await c.putFile(c.commit(project, repo, '', commit1.id), '/foo', 'foo');
    await c.finishCommit(project, repo, 'master', commit1.id);
    await c.createBranch(project, repo, 'pin', 'master');
    await c.createPipeline(
      project,
      pipeline,
      ['cp', '-r', '/pfs/in', '/pfs/out'],
      {
        pfs: { project: 'default', repo, branch: 'pin', glob: '/*', name: 'in' },
      },
      { update: true, parallelism: 0 },
    );
  });

  it('TestPipelineUniqueness: a second pipeline of the same name is refused ("already exists")', async () => {
    const c = env.client();
    const repo = unique('data');
    await c.createRepo(project, repo);
    const pipelineName = unique('pipeline');
    const create = () =>
      c.createPipeline(project, pipelineName, ['bash'], inputs.pfs(project, repo, '/'), {
        stdin: [''],
        parallelism: 1,
      });
    await create();
    const { details } = await failure(create());
    expect(details).toMatch(/pipeline .*? already exists/);
  });

  it('TestSelfReferentialPipeline: a pipeline cannot read its own output', async () => {
    const c = env.client();
    const pipeline = unique('pipeline');
    await failure(
      c.createPipeline(project, pipeline, ['true'], inputs.pfs(project, pipeline, '/')),
    );
  });

  it('TestPipelineDescription: the description is in the details', async () => {
    const c = env.client();
    const dataRepo = unique('TestPipelineDescription_data');
    await c.createRepo(project, dataRepo);
    const description = 'pipeline description';
    const pipeline = unique('TestPipelineDescription');
    await c.createPipelineRequest({
      pipeline: { project: { name: project }, name: pipeline },
      transform: { cmd: ['true'] },
      description,
      input: inputs.pfs(project, dataRepo, '/'),
    });
    const pi = await c.inspectPipeline(project, pipeline, true);
    expect(pi.details?.description).toBe(description);
  });

  it('TestPipelineVersions: "p~n" inspects the version n before the current one', async () => {
    const c = env.client();
    const dataRepo = unique('TestPipelineVersions_data');
    await c.createRepo(project, dataRepo);
    const pipeline = unique('TestPipelineVersions');
    const nVersions = 5;
    for (let i = 0; i < nVersions; i++)
      // an obviously illegal command, but the pipeline never runs (its input has no commit)
      await c.createPipeline(project, pipeline, [`${i}`], inputs.pfs(project, dataRepo, '/*'), {
        parallelism: 1,
        update: i !== 0,
      });
    for (let i = 0; i < nVersions; i++) {
      const ancestors = nVersions - 1 - i;
      const name = ancestors > 0 ? `${pipeline}~${ancestors}` : pipeline;
      const pi = await c.inspectPipeline(project, name, true);
      expect(pi.details?.transform?.cmd[0]).toBe(`${i}`);
    }
  });

  it('TestCreatePipelineErrorNoPipeline: no pipeline field is an error naming it', async () => {
    const c = env.client();
    const dataRepo = unique('TestCreatePipelineErrorNoPipeline-data');
    await c.createRepo(project, dataRepo);
    const { details } = await failure(
      c.createPipelineRequest({
        transform: { cmd: ['/bin/bash'], stdin: ['cat foo >/pfs/out/file'] },
        input: inputs.pfs(project, dataRepo, '/*'),
      }),
    );
    expect(details).toMatch(/request.Pipeline/);
  });

  it('TestCreatePipelineError: a spec with "transform": null is an error naming transform', async () => {
    const c = env.client();
    const dataRepo = unique('TestCreatePipelineError-data');
    await c.createRepo(project, dataRepo);
    const pipeline = unique('no-transform-');
    const { details } = await failure(
      c.createPipelineV2({
        createPipelineRequestJson: JSON.stringify({
          pipeline: { project: { name: project }, name: pipeline },
          transform: null,
          input: { pfs: { project, repo: dataRepo, glob: '/*' } },
        }),
      }),
    );
    expect(details).toMatch(/transform/);
  });

  it('TestCreatePipelineErrorNoCmd: a pipeline with no cmd is created and fails', async () => {
    const c = env.client();
    const dataRepo = unique('TestCreatePipelineErrorNoCmd-data');
    await c.createRepo(project, dataRepo);
    await c.putFile(c.commit(project, dataRepo, 'master'), 'file', 'foo', { append: true });
    const pipeline = unique('no-cmd-');
    await c.createPipelineRequest({
      pipeline: { project: { name: project }, name: pipeline },
      transform: { stdin: ['cat foo >/pfs/out/file'] },
      input: inputs.pfs(project, dataRepo, '/*'),
    });
    await eventually(async () => {
      const info = await c.inspectPipeline(project, pipeline, false);
      expect(info.state).toBe(PipelineState.PIPELINE_FAILURE);
    });
  });

  it('TestSecrets: a secret is created, inspected (no values), listed and deleted', async () => {
    const c = env.client();
    const manifest = {
      kind: 'Secret',
      apiVersion: 'v1',
      type: 'Opaque',
      metadata: { name: 'test-secret', creationTimestamp: null },
      data: { mykey: 'bXktdmFsdWU=' },
    };
    await c.createSecret(Buffer.from(JSON.stringify(manifest)));
    const secretInfo = await c.inspectSecret('test-secret');
    expect(secretInfo.secret?.name).toBe('test-secret');
    expect(secretInfo.type).toBe('Opaque');
    const initialLength = (await c.listSecret()).secretInfo.length;
    await c.deleteSecret('test-secret');
    expect((await c.listSecret()).secretInfo).toHaveLength(initialLength - 1);
    await failure(c.inspectSecret('test-secret'));
  });

  it("TestMalformedPipeline: each malformed request answers pachd's message", async () => {
    const c = env.client();
    const pipelineName = unique('MalformedPipeline');
    const pipeline = { project: { name: project }, name: pipelineName };
    const refused = async (
      request: Parameters<typeof c.createPipelineRequest>[0],
      pattern: RegExp,
    ) => expect((await failure(c.createPipelineRequest(request))).details).toMatch(pattern);

    await refused({}, /request.Pipeline cannot be nil/);
    const v2 = await failure(
      c.createPipelineV2({
        createPipelineRequestJson: JSON.stringify({ pipeline, transform: null }),
      }),
    );
    expect(v2.details).toMatch(/must specify a transform/);
    await refused({ pipeline, transform: {}, input: {} }, /no input set/);
    await refused(
      { pipeline, transform: {}, service: { type: 'NodePort' }, parallelismSpec: {} },
      /services can only be run with a constant parallelism of 1/,
    );
    await refused({ pipeline, transform: {}, specCommit: {} }, /cannot pick commit/);
    await refused({ pipeline, transform: {}, specCommit: { branch: {} } }, /cannot pick commit/);

    const dataRepo = unique('TestMalformedPipeline_data');
    await c.createRepo(project, dataRepo);
    await c.putFile(c.commit(project, dataRepo, 'master'), 'file', 'foo', { append: true });

    await refused({ pipeline, transform: {}, input: { pfs: {} } }, /input must specify a name/);
    await refused(
      { pipeline, transform: {}, input: { pfs: { name: 'data' } } },
      /input must specify a repo/,
    );
    await refused(
      { pipeline, transform: {}, input: { pfs: { repo: dataRepo } } },
      /input must specify a glob/,
    );
    await refused(
      { pipeline, transform: {}, input: inputs.pfs(project, 'out', '/*') },
      /input cannot be named out/,
    );
    await refused(
      { pipeline, transform: {}, input: { pfs: { name: 'out', repo: dataRepo, glob: '/*' } } },
      /input cannot be named out/,
    );
    await refused(
      { pipeline, transform: {}, input: { pfs: { name: 'data', repo: 'dne', glob: '/*' } } },
      /dne[^ ]* not found/,
    );
    await refused(
      {
        pipeline,
        transform: {},
        input: inputs.cross(inputs.pfs(project, 'foo', '/*'), inputs.pfs(project, 'foo', '/*')),
      },
      /name "foo" was used more than once/,
    );
    await refused({ pipeline, transform: {}, input: { cron: {} } }, /input must specify a name/);
    await refused(
      { pipeline, transform: {}, input: { cron: { name: 'cron' } } },
      /Empty spec string/,
    );
    await refused({ pipeline, transform: {}, input: { cross: [] } }, /no input set/);
    await refused({ pipeline, transform: {}, input: { union: [] } }, /no input set/);
    await refused({ pipeline, transform: {}, input: { join: [] } }, /no input set/);
  });

  it('TestPipelineAncestry: "p^n" versions, ListPipeline, and its history newest first', async () => {
    const c = env.client();
    const dataRepo = unique('TestPipelineAncestry');
    await c.createRepo(project, dataRepo);
    const pipeline = unique('pipeline');
    // three versions differing only in transform.user (basicPipelineReq, autoscaling on)
    for (let i = 1; i <= 3; i++)
      await c.createPipelineRequest({
        pipeline: { project: { name: project }, name: pipeline },
        transform: { cmd: ['bash'], stdin: [`cp /pfs/${dataRepo}/* /pfs/out/`], user: `user:${i}` },
        parallelismSpec: { constant: 1n },
        input: inputs.pfs(project, dataRepo, '/*'),
        autoscaling: true,
        update: i !== 1,
      });
    for (let i = 1; i <= 3; i++) {
      const info = await c.inspectPipeline(project, `${pipeline}^${3 - i}`, true);
      expect(info.details?.transform?.user).toBe(`user:${i}`);
    }
    const infos = (await c.listPipeline()).filter((info) => info.pipeline?.name === pipeline);
    expect(infos).toHaveLength(1);
    expect(infos[0]!.details?.transform?.user).toBe('user:3');
    const checkInfos = (list: PipelineInfo[]) =>
      list.forEach((info, i) => {
        expect(Number(info.version)).toBe(3 - i);
        expect(info.details?.transform?.user).toBe(`user:${3 - i}`);
      });
    for (const [history, count] of [
      [-1n, 3],
      [3n, 3],
      [1n, 2],
    ] as const) {
      const list = await c.listPipelineHistory(project, pipeline, history);
      expect(list).toHaveLength(count);
      checkInfos(list);
    }
  });
});

describe('api_server_test.go: cluster defaults and effective specs', () => {
  it('TestGetClusterDefaults: the cluster defaults are JSON that reads as ClusterDefaults', async () => {
    await withFreshServer(async (c) => {
      const resp = await c.getClusterDefaults();
      expect(resp.clusterDefaultsJson).not.toBe('');
      fromJson(pps_v2.ClusterDefaultsSchema, JSON.parse(resp.clusterDefaultsJson));
    });
  });

  it('TestSetClusterDefaults: bad JSON and unknown fields are INVALID_ARGUMENT', async () => {
    const c = env.client();
    expect(
      (await failure(c.setClusterDefaults({ clusterDefaultsJson: '#<this is not JSON>' }))).code,
    ).toBe(3);
    const invalid = await failure(
      c.setClusterDefaults({ clusterDefaultsJson: '{"not an valid spec field":123}' }),
    );
    expect(invalid.code).toBe(3);
  });

  it('TestSetClusterDefaults: DryRun names the affected pipeline and changes nothing', async () => {
    await withFreshServer(async (c) => {
      const original = (await c.getClusterDefaults()).clusterDefaultsJson;
      const repo = unique('input');
      const pipeline = unique('pipeline');
      await c.createRepo(project, repo);
      const cpr = await c.createPipelineV2({
        createPipelineRequestJson: templateSpec(pipeline, repo),
      });
      expect(cpr.effectiveCreatePipelineRequestJson).not.toBe('');
      expect(effectiveRequest(cpr.effectiveCreatePipelineRequestJson).autoscaling).toBe(false);
      const resp = await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"autoscaling": true, "datumTries": 1234}}',
        regenerate: true,
        dryRun: true,
      });
      expect(resp.affectedPipelines).toHaveLength(1);
      expect((await c.getClusterDefaults()).clusterDefaultsJson).toBe(original);
      const pr = await c.inspectPipeline(project, pipeline, false);
      expect(pr.effectiveSpecJson).not.toBe('');
      expect(effectiveRequest(pr.effectiveSpecJson).autoscaling).toBe(false);
    });
  });

  it('TestSetClusterDefaults: ValidDetails regenerate the pipeline under the new defaults', async () => {
    await withFreshServer(async (c) => {
      const repo = unique('input');
      const pipeline = unique('pipeline');
      await c.createRepo(project, repo);
      const cpr = await c.createPipelineV2({
        createPipelineRequestJson: templateSpec(pipeline, repo),
      });
      expect(effectiveRequest(cpr.effectiveCreatePipelineRequestJson).autoscaling).toBe(false);
      const resp = await c.setClusterDefaults({
        clusterDefaultsJson: '{"create_pipeline_request": {"autoscaling": true}}',
        regenerate: true,
      });
      expect(resp.affectedPipelines).toHaveLength(1);
      const defaults = fromJson(
        pps_v2.ClusterDefaultsSchema,
        JSON.parse((await c.getClusterDefaults()).clusterDefaultsJson),
      );
      expect(defaults.createPipelineRequest?.autoscaling).toBe(true);
      const pr = await c.inspectPipeline(project, pipeline, false);
      expect(effectiveRequest(pr.effectiveSpecJson).autoscaling).toBe(true);
    });
  });

  it('TestCreatePipelineMultipleNames: snake_case and camelCase name the same field; user and effective specs', async () => {
    await withFreshServer(async (c) => {
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 17, "autoscaling": true, "salt": "mysalt"}}',
      });
      await c.createRepo(project, 'input');
      const resp = await c.createPipelineV2({
        createPipelineRequestJson: templateSpec('pipeline', 'input', {
          datumTries: 4,
          autoscaling: false,
        }),
      });
      const req = effectiveRequest(resp.effectiveCreatePipelineRequestJson);
      expect(req.datumTries).toBe(4n);
      expect(req.autoscaling).toBe(false);
      expect(req.salt).toBe('mysalt');
      const r = await c.inspectPipelineRequest({ pipeline: { name: 'pipeline' } });
      const user = JSON.parse(r.userSpecJson);
      expect('salt' in user).toBe(false);
      expect(user.autoscaling).toBe(false);
      const effective = JSON.parse(r.effectiveSpecJson);
      expect(effective.salt).toBe('mysalt');
      expect(effective.autoscaling).toBe(false);
      expect(Number(effective.datumTries)).toBe(4);
    });
  });

  it('TestDefaultPropagation: defaults apply, and propagate only with regenerate (salt only with reprocess)', async () => {
    await withFreshServer(async (c) => {
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 17, "autoscaling": true, "metadata": {"annotations": {"foo": "bar"}}}}',
      });
      await c.createRepo(project, 'input');
      const resp = await c.createPipelineV2({
        createPipelineRequestJson: templateSpec('pipeline', 'input', { datumTries: 4 }),
      });
      const req = effectiveRequest(resp.effectiveCreatePipelineRequestJson);
      expect(req.datumTries).toBe(4n);
      expect(req.autoscaling).toBe(true);
      expect(req.metadata?.annotations.foo).toBe('bar');
      let r = await c.inspectPipelineRequest({ pipeline: { name: 'pipeline' }, details: true });
      const user = JSON.parse(r.userSpecJson);
      expect('metadata' in user).toBe(false);
      expect('autoscaling' in user).toBe(false);
      const effective = JSON.parse(r.effectiveSpecJson);
      expect('metadata' in effective).toBe(true);
      expect(effective.autoscaling).toBe(true);
      expect(Number(effective.datumTries)).toBe(4);

      const version = r.version;
      const salt = r.details?.salt;
      const inspect = () => c.inspectPipelineRequest({ pipeline: r.pipeline, details: true });
      // without regenerate: no effect
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 17, "autoscaling": false, "metadata": {"annotations": {"baz": "quux"}}}}',
      });
      r = await inspect();
      expect(r.version).toBe(version);
      expect(r.details?.autoscaling).toBe(true);
      expect(r.details?.metadata?.annotations.foo).toBe('bar');
      expect(r.details?.metadata?.annotations.baz ?? '').toBe('');
      // with regenerate: an effect, but not on the salt
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 17, "autoscaling": true, "metadata": {"annotations": {"baz": "quux"}}, "salt": "mysalt2"}}',
        regenerate: true,
      });
      r = await inspect();
      expect(r.version).not.toBe(version);
      expect(r.details?.autoscaling).toBe(true);
      expect(r.details?.metadata?.annotations.foo ?? '').toBe('');
      expect(r.details?.metadata?.annotations.baz).toBe('quux');
      expect(r.details?.salt).toBe(salt);
      // regenerate with no effective change: no effect
      const version2 = r.version;
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 12, "autoscaling": true, "metadata": {"annotations": {"baz": "quux"}}, "salt": "mysalt2"}}',
        regenerate: true,
      });
      r = await inspect();
      expect(r.version).toBe(version2);
      expect(r.details?.datumTries).toBe(4n);
      expect(r.details?.autoscaling).toBe(true);
      expect(r.details?.salt).toBe(salt);
      // reprocess: a new salt
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 17, "autoscaling": true, "metadata": {"annotations": {"foobar": "bazquux"}}, "salt": "mysalt2"}}',
        regenerate: true,
        reprocess: true,
      });
      r = await inspect();
      expect(r.version).not.toBe(version2);
      expect(r.details?.autoscaling).toBe(true);
      expect(r.details?.metadata?.annotations.foo ?? '').toBe('');
      expect(r.details?.metadata?.annotations.baz ?? '').toBe('');
      expect(r.details?.metadata?.annotations.foobar).toBe('bazquux');
      expect(r.details?.salt).not.toBe(salt);
    });
  });

  it('TestCreatePipelineDryRun: a dry run answers the effective spec and creates nothing', async () => {
    await withFreshServer(async (c) => {
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 17, "autoscaling": true}}',
      });
      await c.createRepo(project, 'input');
      const resp = await c.createPipelineV2({
        createPipelineRequestJson: templateSpec('pipeline', 'input', {
          datumTries: 4,
          autoscaling: false,
        }),
        dryRun: true,
      });
      const req = effectiveRequest(resp.effectiveCreatePipelineRequestJson);
      expect(req.datumTries).toBe(4n);
      expect(req.autoscaling).toBe(false);
      await failure(c.inspectPipeline(project, 'pipeline'));
    });
  });

  it('TestListPipelinePagination: pages of the most recently changed pipelines, by project too', async () => {
    await withFreshServer(async (c) => {
      const page = async (pageSize: bigint, pageIndex: bigint, projects: string[] = []) =>
        (
          await c.listPipelineRequest({
            page: { pageSize, pageIndex },
            projects: projects.map((name) => ({ name })),
          })
        ).map((info) => info.pipeline?.name);
      await c.createRepo(project, 'input');
      for (const name of ['a', 'b']) await c.createProject(name);
      for (const [i, p] of ['A', 'B', 'C', 'D', 'E'].entries())
        await c.createPipeline(
          i % 2 === 1 ? 'b' : 'a',
          p,
          ['cp', '-r', '/pfs/in', '/pfs/out'],
          {
            pfs: { project: 'default', repo: 'input', glob: '/*', name: 'in' },
          },
          { update: true, parallelism: 0 },
        );
      expect(await page(20n, 0n)).toHaveLength(5);
      expect(await page(3n, 0n)).toEqual(['E', 'D', 'C']);
      expect(await page(3n, 1n)).toEqual(['B', 'A']);
      expect(await page(3n, 2n)).toEqual([]);
      expect(await page(2n, 1n)).toEqual(['C', 'B']);
      expect(await page(1n, 1n, ['b'])).toEqual(['B']);
    });
  });

  it('TestCreatePipeline: the effective spec, and updatedAt not before createdAt', async () => {
    await withFreshServer(async (c) => {
      await c.setClusterDefaults({
        clusterDefaultsJson:
          '{"create_pipeline_request": {"datum_tries": 17, "autoscaling": true}}',
      });
      await c.createRepo(project, 'input');
      const resp = await c.createPipelineV2({
        createPipelineRequestJson: templateSpec('pipeline', 'input', {
          datumTries: 4,
          autoscaling: false,
        }),
      });
      const req = effectiveRequest(resp.effectiveCreatePipelineRequestJson);
      expect(req.datumTries).toBe(4n);
      expect(req.autoscaling).toBe(false);
      const ir = await c.inspectPipeline(project, 'pipeline', true);
      expect(ir.details?.updatedAt).toBeDefined();
      const ms = (t: { seconds: bigint; nanos: number } | undefined) =>
        Number(t!.seconds) * 1000 + t!.nanos / 1e6;
      expect(ms(ir.details?.updatedAt)).toBeGreaterThanOrEqual(ms(ir.details?.createdAt));
    });
  });
});
