import { createHash, randomBytes } from 'node:crypto';
import { fromJson, type MessageInitShape } from '@bufbuild/protobuf';
import { Empty, EmptySchema } from '@bufbuild/protobuf/wkt';
import {
  admin_v2,
  auth_v2,
  pfs_v2,
  pps_v2,
  protoMethod,
  protoRegistry,
  versionpb_v2,
} from '@ivory/api/proto';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ok, results, type Json } from './helpers/api-client.ts';
import { grpcClient, grpcFailure, type GrpcTestClient } from './helpers/grpc-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { tarEntries } from './helpers/tar-entries.ts';

// pachctl's loop over gRPC, against the real server: a client built from the project's protocol
// files talks HTTP/2 to the gRPC listener, which runs the same handlers as the HTTP gateway.

let server: TestServer;
let client: GrpcTestClient;

const project = { name: 'default' };
const repo = { name: 'images', type: 'user', project };
const master = { repo, name: 'master' };
const headCommit = { branch: master, repo, id: '' };

const MiB = 1024 * 1024;
// Three files, 30 MiB in all, sent as pachctl does: 4 MiB addFile chunks appended per path.
const files = [
  { path: '/a.bin', bytes: randomBytes(16 * MiB) },
  { path: '/dir/b.bin', bytes: randomBytes(10 * MiB) },
  {
    path: '/c.txt',
    bytes: Buffer.from('hello gRPC\n'.repeat((4 * MiB) / 11 + 1)).subarray(0, 4 * MiB),
  },
];
const CHUNK = 4 * MiB;

/** Every answer of the loop, read strictly: a field the handler sends that the proto lacks fails. */
function strictly(method: string, json: Json) {
  const desc = protoMethod(method);
  if (!desc) throw new Error(`${method} is not in the protocol files`);
  return fromJson(desc.output, json, { registry: protoRegistry, ignoreUnknownFields: false });
}

beforeAll(async () => {
  server = await startTestServer({ grpc: { port: 0, optional: false } });
  client = grpcClient(`127.0.0.1:${server.server.grpc!.port}`);
}, 30_000);

afterAll(async () => {
  client?.close();
  await server?.close();
});

describe('the pachctl loop over gRPC', () => {
  it('GetVersion answers the same version as the gateway', async () => {
    const version = await client.unary(versionpb_v2.API.method.getVersion, {});
    const overHttp = await ok(server.url, 'versionpb_v2.API/GetVersion');
    expect(version.major).toBe(overHttp.major);
    expect(version.minor).toBe(overHttp.minor);
    expect(version.additional).toBe(overHttp.additional);
    strictly('versionpb_v2.API/GetVersion', overHttp);
  });

  it('CreateRepo, then ModifyFile streams 30 MiB in several files into one commit', async () => {
    await client.unary(pfs_v2.API.method.createProject, { project });
    await client.unary(pfs_v2.API.method.createRepo, { repo, description: 'from gRPC' });
    const inspected = await ok(server.url, 'pfs_v2.API/InspectRepo', { repo });
    expect(inspected.description).toBe('from gRPC');
    strictly('pfs_v2.API/InspectRepo', inspected);

    const requests: MessageInitShape<typeof pfs_v2.ModifyFileRequestSchema>[] = [
      { body: { case: 'setCommit', value: headCommit } },
    ];
    for (const file of files)
      for (let at = 0; at < file.bytes.length; at += CHUNK)
        requests.push({
          body: {
            case: 'addFile',
            value: {
              path: file.path,
              source: { case: 'raw', value: { value: file.bytes.subarray(at, at + CHUNK) } },
            },
          },
        });
    const answer = await client.clientStream(pfs_v2.API.method.modifyFile, requests);
    expect(answer.$typeName).toBe('google.protobuf.Empty');
  }, 60_000);

  it('ListFile lists them with their sizes', async () => {
    const listed = await client.serverStream(pfs_v2.API.method.listFile, {
      file: { commit: headCommit, path: '/' },
    });
    const byPath = Object.fromEntries(listed.map((info) => [info.file?.path, info]));
    expect(Object.keys(byPath).sort()).toEqual(['/a.bin', '/c.txt', '/dir/']);
    expect(byPath['/a.bin']?.sizeBytes).toBe(BigInt(16 * MiB));
    expect(byPath['/a.bin']?.fileType).toBe(pfs_v2.FileType.FILE);
    expect(byPath['/dir/']?.fileType).toBe(pfs_v2.FileType.DIR);
    expect(byPath['/dir/']?.sizeBytes).toBe(BigInt(10 * MiB));
    for (const line of await results(server.url, 'pfs_v2.API/ListFile', {
      file: { commit: headCommit, path: '/' },
    }))
      strictly('pfs_v2.API/ListFile', line);
  });

  it('GetFile answers every file byte for byte', async () => {
    for (const file of files) {
      const chunks = await client.serverStream(pfs_v2.API.method.getFile, {
        file: { commit: headCommit, path: file.path },
      });
      expect(chunks.length).toBeGreaterThan(0);
      const bytes = Buffer.concat(chunks.map((chunk) => chunk.value));
      expect(bytes.length).toBe(file.bytes.length);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(
        createHash('sha256').update(file.bytes).digest('hex'),
      );
    }
  }, 60_000);

  it('GetFileTAR answers a tar of the commit', async () => {
    const chunks = await client.serverStream(pfs_v2.API.method.getFileTAR, {
      file: { commit: headCommit, path: '/' },
    });
    const archive = Buffer.concat(chunks.map((chunk) => chunk.value));
    const entries = await tarEntries(archive);
    expect(
      Object.keys(entries)
        .filter((name) => name.endsWith('.bin') || name.endsWith('.txt'))
        .sort(),
    ).toEqual(['a.bin', 'c.txt', 'dir/b.bin']);
    expect(entries['c.txt']).toBe(files[2]!.bytes.toString());
    const sizes = await new Promise<Record<string, number>>((resolve, reject) => {
      const found: Record<string, number> = {};
      const extract = tar.extract();
      extract.on('entry', (header, stream, next) => {
        found[header.name] = header.size ?? 0;
        stream.on('end', next);
        stream.resume();
      });
      extract.on('finish', () => resolve(found));
      extract.on('error', reject);
      extract.end(archive);
    });
    expect(sizes['a.bin']).toBe(16 * MiB);
    expect(sizes['dir/b.bin']).toBe(10 * MiB);
  }, 60_000);

  it('CreatePipelineV2 starts a job; ListJob and InspectJob see it finish; GetLogs has its lines', async () => {
    const spec = {
      pipeline: { name: 'sizes', project },
      transform: {
        cmd: [
          'sh',
          '-c',
          'echo "saw $(ls /pfs/images | wc -l) entries"; wc -c /pfs/images/c.txt > /pfs/out/size',
        ],
      },
      input: { pfs: { repo: 'images', glob: '/' } },
    };
    const created = await client.unary(pps_v2.API.method.createPipelineV2, {
      createPipelineRequestJson: JSON.stringify(spec),
    });
    expect(JSON.parse(created.effectiveCreatePipelineRequestJson).pipeline.name).toBe('sizes');

    const pipeline = { name: 'sizes', project };
    let job: pps_v2.JobInfo | undefined;
    for (let tries = 0; !job && tries < 600; tries++) {
      const jobs = await client.serverStream(pps_v2.API.method.listJob, { pipeline, history: -1n });
      job = jobs[0];
      if (!job) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(job).toBeDefined();
    const finished = await client.unary(pps_v2.API.method.inspectJob, {
      job: job!.job,
      wait: true,
    });
    expect(finished.state).toBe(pps_v2.JobState.JOB_SUCCESS);
    const overHttp = await ok(server.url, 'pps_v2.API/InspectJob', {
      job: { pipeline, id: job!.job!.id },
    });
    strictly('pps_v2.API/InspectJob', overHttp);
    for (const line of await results(server.url, 'pps_v2.API/ListJob', { pipeline, history: -1 }))
      strictly('pps_v2.API/ListJob', line);
    strictly(
      'pps_v2.API/InspectPipeline',
      await ok(server.url, 'pps_v2.API/InspectPipeline', { pipeline }),
    );

    const logs = await client.serverStream(pps_v2.API.method.getLogs, { job: job!.job });
    expect(logs.map((line) => line.message)).toContain('saw 3 entries');
    for (const line of await results(server.url, 'pps_v2.API/GetLogs', { job: job!.job }))
      strictly('pps_v2.API/GetLogs', line);

    const output = await client.serverStream(pfs_v2.API.method.getFile, {
      file: {
        commit: { branch: { repo: { name: 'sizes', type: 'user', project }, name: 'master' } },
        path: '/size',
      },
    });
    expect(Buffer.concat(output.map((chunk) => chunk.value)).toString()).toContain(String(4 * MiB));
  }, 120_000);

  it('InspectCluster answers the cluster id', async () => {
    const info = await client.unary(admin_v2.API.method.inspectCluster, {});
    const overHttp = await ok(server.url, 'admin_v2.API/InspectCluster');
    expect(info.id).not.toBe('');
    expect(info.id).toBe(overHttp.id);
    strictly('admin_v2.API/InspectCluster', overHttp);
  });

  it('WhoAmI with sign-in off fails with code 12, as over HTTP', async () => {
    const failure = await grpcFailure(client.unary(auth_v2.API.method.whoAmI, {}));
    const overHttp = await call(server.url, 'auth_v2.API/WhoAmI');
    expect(failure.code).toBe(12);
    expect(overHttp.body.code).toBe(12);
    expect(failure.details).toBe(overHttp.body.message);
  });

  it('a bad request fails with the code and message it gets over HTTP', async () => {
    const cases: [string, () => Promise<unknown>, Json][] = [
      [
        'pfs_v2.API/InspectRepo',
        () => client.unary(pfs_v2.API.method.inspectRepo, { repo: { ...repo, name: 'missing' } }),
        { repo: { ...repo, name: 'missing' } },
      ],
      [
        'pfs_v2.API/CreateRepo',
        () => client.unary(pfs_v2.API.method.createRepo, { repo: { ...repo, name: 'bad name!' } }),
        { repo: { ...repo, name: 'bad name!' } },
      ],
      [
        'pfs_v2.API/CreateRepo',
        () => client.unary(pfs_v2.API.method.createRepo, { repo }),
        { repo },
      ],
      [
        'pfs_v2.API/ListFile',
        () =>
          client.serverStream(pfs_v2.API.method.listFile, {
            file: { commit: headCommit, path: '/nowhere' },
          }),
        { file: { commit: headCommit, path: '/nowhere' } },
      ],
    ];
    for (const [method, overGrpc, body] of cases) {
      const failure = await grpcFailure(overGrpc());
      const overHttp = await call(server.url, method, body);
      const error =
        overHttp.status === 200 ? JSON.parse(JSON.stringify(overHttp.body)).error : overHttp.body;
      expect({ method, code: failure.code, details: failure.details }).toEqual({
        method,
        code: error.code,
        details: error.message,
      });
      expect(failure.code).not.toBe(13);
    }
  });

  it("the gateway's answers to reads fit the protocol files, no field left over", async () => {
    const pipeline = { name: 'sizes', project };
    const job = (await results(server.url, 'pps_v2.API/ListJob', { pipeline, history: -1 }))[0];
    const reads: [string, Json][] = [
      ['pfs_v2.API/ListProject', {}],
      ['pfs_v2.API/InspectProject', { project }],
      ['pfs_v2.API/InspectProjectV2', { project }],
      ['pfs_v2.API/ListRepo', {}],
      ['pfs_v2.API/ListBranch', { repo }],
      ['pfs_v2.API/InspectBranch', { branch: master }],
      ['pfs_v2.API/ListCommit', { repo }],
      ['pfs_v2.API/InspectCommit', { commit: headCommit }],
      ['pfs_v2.API/ListCommitSet', { project }],
      ['pfs_v2.API/InspectFile', { file: { commit: headCommit, path: '/a.bin' } }],
      ['pfs_v2.API/GlobFile', { commit: headCommit, pattern: '/**' }],
      ['pfs_v2.API/WalkFile', { file: { commit: headCommit, path: '/' } }],
      ['pfs_v2.API/DiffFile', { newFile: { commit: headCommit, path: '/' } }],
      ['pfs_v2.API/ReposSummary', { projects: [project] }],
      ['pps_v2.API/ListPipeline', {}],
      ['pps_v2.API/PipelinesSummary', { projects: [project] }],
      ['pps_v2.API/ListDatum', { job: job.job }],
      ['pps_v2.API/InspectJobSet', { jobSet: { id: job.job.id } }],
      ['pps_v2.API/ListJobSet', {}],
      ['pps_v2.API/GetClusterDefaults', {}],
      ['pps_v2.API/GetProjectDefaults', { project }],
      ['omni_v1.API/CountTrial', {}],
      ['omni_v1.API/InspectEdaTools', {}],
    ];
    const misfits: string[] = [];
    for (const [method, body] of reads) {
      const desc = protoMethod(method)!;
      const answers =
        desc.methodKind === 'server_streaming'
          ? await results(server.url, method, body)
          : [await ok(server.url, method, body)];
      expect(answers.length, method).toBeGreaterThan(0);
      for (const answer of answers) {
        try {
          strictly(method, answer);
        } catch (error) {
          misfits.push(`${method}: ${(error as Error).message}`);
        }
      }
    }
    expect(misfits).toEqual([]);
  });

  it('a method the platform does not answer is UNIMPLEMENTED (12)', async () => {
    const failure = await grpcFailure(
      client.unary(
        {
          ...protoMethod('pfs_v2.API/DeleteAll')!,
          name: 'NoSuchMethod',
          input: EmptySchema,
          output: EmptySchema,
        },
        {} as Empty,
      ),
    );
    expect(failure.code).toBe(12);
  });
});
