import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { anyPack, StringValueSchema } from '@bufbuild/protobuf/wkt';
import { pfs_v2, pps_v2 } from '@ivory/api/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ok, repo } from './helpers/api-client.ts';
import { grpcClient, grpcFailure, type GrpcTestClient } from './helpers/grpc-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

// The handlers that read their request by hand before (PutCache's Any, CreatePipeline's spec)
// now take the generated messages: the same request over the gateway's JSON and over gRPC.

let server: TestServer;
let url: string;
let client: GrpcTestClient;

beforeAll(async () => {
  server = await startTestServer({ grpc: { port: 0, optional: false } });
  url = server.url;
  client = grpcClient(`127.0.0.1:${server.server.grpc!.port}`);
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('in') });
});
afterAll(async () => {
  client?.close();
  await server?.close();
});

describe('the platform’s methods', () => {
  it('each take their generated request message (no hand-read JSON left)', () => {
    const untyped = [...server.server.platform.methods]
      .filter(([, method]) => method.requestSchema === undefined)
      .map(([name]) => name);
    expect(server.server.platform.methods.size).toBeGreaterThan(100);
    expect(untyped).toEqual([]);
  });
});

describe('PutCache takes a pfs_v2.PutCacheRequest', () => {
  it('keeps an Any put over gRPC and answers it over both transports', async () => {
    const value = anyPack(StringValueSchema, create(StringValueSchema, { value: 'from gRPC' }));
    await client.unary(pfs_v2.API.method.putCache, { key: 'g', value, tag: 't' });
    expect(await ok(url, 'pfs_v2.API/GetCache', { key: 'g' })).toEqual({
      value: { '@type': 'type.googleapis.com/google.protobuf.StringValue', value: 'from gRPC' },
    });
    const answer = await client.unary(pfs_v2.API.method.getCache, { key: 'g' });
    expect(answer.value?.typeUrl).toBe('type.googleapis.com/google.protobuf.StringValue');
    expect(fromBinary(StringValueSchema, answer.value!.value).value).toBe('from gRPC');
    const sent = toBinary(StringValueSchema, create(StringValueSchema, { value: 'from gRPC' }));
    expect(Buffer.from(answer.value!.value).equals(Buffer.from(sent))).toBe(true);
  });

  it('reads snake_case JSON, and refuses a wrong type or an Any of an unknown type with 3', async () => {
    await ok(url, 'pfs_v2.API/PutCache', {
      key: 'snake',
      value: { '@type': 'type.googleapis.com/pfs_v2.Repo', name: 'r' },
      file_set_ids: ['a'],
    });
    const got = await ok(url, 'pfs_v2.API/GetCache', { key: 'snake' });
    expect(got.value).toEqual({ '@type': 'type.googleapis.com/pfs_v2.Repo', name: 'r' });
    const unknown = await call(url, 'pfs_v2.API/PutCache', {
      key: 'u',
      value: { '@type': 'type.googleapis.com/nowhere.Thing', a: 1 },
    });
    expect(unknown.body.code).toBe(3);
    expect(unknown.body.message).toMatch(/nowhere\.Thing/);
    const wrong = await call(url, 'pfs_v2.API/PutCache', { key: 'w', tag: 7 });
    expect(wrong.body.code).toBe(3);
    expect(wrong.body.message).toMatch(/^tag:/);
    expect((await call(url, 'pfs_v2.API/GetCache', { key: 'u' })).status).toBe(404);
  });
});

describe('CreatePipeline takes a pps_v2.CreatePipelineRequest', () => {
  it('reads snake_case, int64 as strings and durations, over HTTP; stores protobuf JSON', async () => {
    await ok(url, 'pps_v2.API/CreatePipeline', {
      pipeline: { name: 'snake', project: { name: 'default' } },
      transform: { cmd: ['true'], accept_return_code: ['3'] },
      parallelism_spec: { constant: '2' },
      datum_tries: 5,
      datum_timeout: '1.5s',
      input: { pfs: { repo: 'in', glob: '/*', empty_files: true } },
      not_a_field: 'dropped',
    });
    const info = await ok(url, 'pps_v2.API/InspectPipeline', {
      pipeline: { name: 'snake', project: { name: 'default' } },
      details: true,
    });
    expect(info.details.parallelismSpec).toEqual({ constant: '2' });
    expect(info.details.datumTries).toBe('5');
    expect(info.details.datumTimeout).toBe('1.500s');
    expect(info.details.transform.acceptReturnCode).toEqual(['3']);
    const user = JSON.parse(info.userSpecJson);
    expect(user).toEqual({
      pipeline: { name: 'snake', project: { name: 'default' } },
      transform: { cmd: ['true'], acceptReturnCode: ['3'] },
      parallelismSpec: { constant: '2' },
      input: { pfs: { repo: 'in', glob: '/*', emptyFiles: true } },
      datumTimeout: '1.500s',
      datumTries: '5',
    });
  });

  it('refuses a field of the wrong type with 3 naming it, and a spec without input', async () => {
    const wrong = await call(url, 'pps_v2.API/CreatePipeline', {
      pipeline: { name: 'bad' },
      transform: { cmd: 'true' },
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    expect(wrong.body.code).toBe(3);
    expect(wrong.body.message).toMatch(/^transform\.cmd/);
    const missing = await call(url, 'pps_v2.API/CreatePipeline', {
      pipeline: { name: 'bad' },
      transform: { cmd: ['true'] },
    });
    expect(missing.body.code).toBe(3);
    expect(missing.body.message).toMatch(/input is required/);
  });

  it('creates the same pipeline over gRPC', async () => {
    await client.unary(pps_v2.API.method.createPipeline, {
      pipeline: { name: 'overgrpc', project: { name: 'default' } },
      transform: { cmd: ['true'] },
      parallelismSpec: { constant: 3n },
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    const info = await client.unary(pps_v2.API.method.inspectPipeline, {
      pipeline: { name: 'overgrpc', project: { name: 'default' } },
      details: true,
    });
    expect(info.details?.parallelismSpec?.constant).toBe(3n);
    expect(info.details?.input?.pfs?.repo).toBe('in');
    const refused = await grpcFailure(
      client.unary(pps_v2.API.method.createPipeline, {
        pipeline: { name: 'noinput' },
        transform: { cmd: ['true'] },
      }),
    );
    expect(refused.code).toBe(3);
  });
});
