import { ScalarType, type DescEnum, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { protoServices } from '@ivory/api/proto';
import { alwaysSet } from '@ivory/api/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, commitId, ok, repo, results, type Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { createPipeline, lastJob, pipeline } from './helpers/pps.ts';

// The client types (packages/api/src/types) are the generated JSON types with the gateway's
// emit rules applied (`Emitted`): every field present, an unset sub-message `null` (never for the
// `alwaysSet` fields), oneof members and proto3 optionals left out unless set, nothing the
// protocol does not name. This test holds the platform's answers to those rules, message by
// message, with the descriptors the types come from.

const wellKnownString = new Set([
  'google.protobuf.Timestamp',
  'google.protobuf.Duration',
  'google.protobuf.BytesValue',
]);
const int64Scalars = new Set([
  ScalarType.INT64,
  ScalarType.UINT64,
  ScalarType.SINT64,
  ScalarType.FIXED64,
  ScalarType.SFIXED64,
]);

function scalarProblem(scalar: ScalarType, value: unknown): string | null {
  if (scalar === ScalarType.BOOL) return typeof value === 'boolean' ? null : 'not a boolean';
  if (scalar === ScalarType.STRING || scalar === ScalarType.BYTES)
    return typeof value === 'string' ? null : 'not a string';
  if (int64Scalars.has(scalar))
    return typeof value === 'string' && /^-?\d+$/.test(value) ? null : 'not an int64 string';
  return typeof value === 'number' && Number.isFinite(value) ? null : 'not a finite number';
}

const enumProblem = (desc: DescEnum, value: unknown) =>
  typeof value === 'string' && desc.values.some((v) => v.name === value)
    ? null
    : `not a ${desc.typeName} name`;

/** Every way `value` breaks the emit rules for message `desc`, as `path: problem` lines. */
function emittedProblems(desc: DescMessage, value: unknown, path: string): string[] {
  if (wellKnownString.has(desc.typeName))
    return typeof value === 'string' ? [] : [`${path}: not a string`];
  if (desc.typeName.startsWith('google.protobuf.')) return [];
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return [`${path}: not an object`];
  const object = value as Record<string, unknown>;
  const problems: string[] = [];
  const named = new Set(desc.fields.map((field) => field.jsonName));
  for (const key of Object.keys(object))
    if (!named.has(key)) problems.push(`${path}.${key}: not in ${desc.typeName}`);
  const set: readonly string[] =
    (alwaysSet as Record<string, readonly string[]>)[desc.typeName] ?? [];
  for (const field of desc.fields) {
    const at = `${path}.${field.jsonName}`;
    const optional = field.oneof !== undefined || field.proto.proto3Optional === true;
    if (!(field.jsonName in object)) {
      if (!optional) problems.push(`${at}: missing`);
      continue;
    }
    const fieldValue = object[field.jsonName];
    if (fieldValue === null && field.fieldKind === 'message' && !optional) {
      if (set.includes(field.jsonName)) problems.push(`${at}: null, but always set`);
      continue;
    }
    problems.push(...fieldProblems(field, fieldValue, at));
  }
  return problems;
}

function fieldProblems(field: DescField, value: unknown, at: string): string[] {
  const one = (kind: 'scalar' | 'enum' | 'message', v: unknown, where: string): string[] => {
    if (kind === 'message') return emittedProblems(field.message!, v, where);
    const problem = kind === 'enum' ? enumProblem(field.enum!, v) : scalarProblem(field.scalar!, v);
    return problem ? [`${where}: ${problem}`] : [];
  };
  switch (field.fieldKind) {
    case 'list':
      return Array.isArray(value)
        ? value.flatMap((item, i) => one(field.listKind, item, `${at}[${i}]`))
        : [`${at}: not a list`];
    case 'map':
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.entries(value).flatMap(([key, item]) => one(field.mapKind, item, `${at}.${key}`))
        : [`${at}: not a map`];
    default:
      return one(field.fieldKind, value, at);
  }
}

function outputOf(method: string): DescMessage {
  const [service, name] = method.split('/');
  const found = protoServices
    .find((s) => s.typeName === service)
    ?.methods.find((m) => m.name === name);
  if (!found) throw new Error(`no method ${method}`);
  return found.output;
}

let server: TestServer;
let url: string;
let commit: string;
let job: Json;

/** Calls a method and returns the problems of every answer (one for unary, each line of a stream). */
async function problemsOf(method: string, body: unknown, streaming = false): Promise<string[]> {
  const answers = streaming ? await results(url, method, body) : [await ok(url, method, body)];
  expect(answers.length, `${method} answered nothing`).toBeGreaterThan(0);
  return answers.flatMap((answer, i) =>
    emittedProblems(outputOf(method), answer, `${method}[${i}]`),
  );
}

beforeAll(async () => {
  server = await startTestServer();
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('in'), description: 'input' });
  await commitFiles(url, 'in', { '/a.txt': 'a\n', '/dir/b.txt': 'b\n' });
  commit = await commitFiles(url, 'in', { '/a.txt': 'a2\n' }, { description: 'second' });
  await createPipeline(url, {
    pipeline: pipeline('copy'),
    transform: { cmd: ['sh', '-c', 'echo copying; cp -r /pfs/in/. /pfs/out/'] },
    input: { pfs: { repo: 'in', glob: '/*' } },
    datumTimeout: '30s',
  });
  job = await lastJob(url, 'copy');
  await ok(url, 'pps_v2.API/CreateSecret', {
    file: Buffer.from(
      JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: {} }),
    ).toString('base64'),
  });
}, 60_000);
afterAll(() => server.close());

describe('the gateway emits what the client types say', () => {
  it('checks what it should: a missing field, a stray field and a null identity are caught', () => {
    const repoInfo = outputOf('pfs_v2.API/InspectRepo');
    expect(emittedProblems(repoInfo, { repo: null }, 'r')).toContain(
      'r.repo: null, but always set',
    );
    expect(emittedProblems(repoInfo, {}, 'r')).toContain('r.description: missing');
    expect(emittedProblems(outputOf('versionpb_v2.API/GetVersion'), { extra: 1 }, 'v')).toContain(
      'v.extra: not in versionpb_v2.Version',
    );
  });

  it('pfs_v2: projects, repos, branches, commits, files', async () => {
    const file = { commit: commitId('in', commit), path: '/a.txt' };
    const problems = [
      ...(await problemsOf('pfs_v2.API/ListProject', {}, true)),
      ...(await problemsOf('pfs_v2.API/InspectProject', { project: { name: 'default' } })),
      ...(await problemsOf('pfs_v2.API/ListRepo', { type: '' }, true)),
      ...(await problemsOf('pfs_v2.API/InspectRepo', { repo: repo('in') })),
      ...(await problemsOf('pfs_v2.API/ListBranch', { repo: repo('copy') }, true)),
      ...(await problemsOf('pfs_v2.API/ListCommit', { repo: repo('in') }, true)),
      ...(await problemsOf('pfs_v2.API/InspectCommit', { commit: job.outputCommit })),
      ...(await problemsOf('pfs_v2.API/InspectCommitSet', { commitSet: { id: commit } }, true)),
      ...(await problemsOf('pfs_v2.API/ListFile', { file: { ...file, path: '/' } }, true)),
      ...(await problemsOf('pfs_v2.API/InspectFile', { file })),
      ...(await problemsOf('pfs_v2.API/GlobFile', { commit: file.commit, pattern: '/**' }, true)),
      ...(await problemsOf('pfs_v2.API/WalkFile', { file: { ...file, path: '/' } }, true)),
      ...(await problemsOf('pfs_v2.API/DiffFile', { newFile: file }, true)),
      ...(await problemsOf('pfs_v2.API/ReposSummary', { projects: [{ name: 'default' }] })),
      ...(await problemsOf(
        'pfs_v2.API/FindCommits',
        { start: file.commit, filePath: '/a.txt' },
        true,
      )),
    ];
    expect(problems).toEqual([]);
  });

  it('pps_v2: pipelines, jobs, datums, logs, secrets, defaults', async () => {
    expect(job.state).toBe('JOB_SUCCESS');
    const [datum] = await results(url, 'pps_v2.API/ListDatum', { job: job.job });
    const problems = [
      ...(await problemsOf('pps_v2.API/ListPipeline', { details: true }, true)),
      ...(await problemsOf('pps_v2.API/InspectPipeline', {
        pipeline: pipeline('copy'),
        details: true,
      })),
      ...(await problemsOf('pps_v2.API/ListJob', { history: '-1', details: true }, true)),
      ...(await problemsOf('pps_v2.API/InspectJob', { job: job.job, details: true })),
      ...(await problemsOf('pps_v2.API/ListJobSet', { details: true }, true)),
      ...(await problemsOf('pps_v2.API/InspectJobSet', { jobSet: { id: job.job.id } }, true)),
      ...(await problemsOf('pps_v2.API/ListDatum', { job: job.job }, true)),
      ...(await problemsOf('pps_v2.API/InspectDatum', { datum: datum.datum })),
      ...(await problemsOf('pps_v2.API/GetLogs', { job: job.job }, true)),
      ...(await problemsOf('pps_v2.API/ListSecret', {})),
      ...(await problemsOf('pps_v2.API/InspectSecret', { secret: { name: 's' } })),
      ...(await problemsOf('pps_v2.API/GetClusterDefaults', {})),
      ...(await problemsOf('pps_v2.API/GetProjectDefaults', { project: { name: 'default' } })),
      ...(await problemsOf('pps_v2.API/PipelinesSummary', { projects: [{ name: 'default' }] })),
    ];
    expect(problems).toEqual([]);
  });

  it('admin, version and trials', async () => {
    const problems = [
      ...(await problemsOf('admin_v2.API/InspectCluster', {})),
      ...(await problemsOf('versionpb_v2.API/GetVersion', {})),
      ...(await problemsOf('omni_v1.API/CountTrial', {})),
      ...(await problemsOf('omni_v1.API/InspectEdaTools', {})),
    ];
    expect(problems).toEqual([]);
  });
});
