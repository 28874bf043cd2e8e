import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pfs_v2 } from '@ivory/api/proto';
import { call, callStream, commitFiles, ok, repo, results } from './helpers/api-client.ts';
import { grpcClient, grpcFailure } from './helpers/grpc-client.ts';
import {
  startSignedInTestServer,
  startTestServer,
  type SignedInTestServer,
  type TestServer,
} from './helpers/in-process-server.ts';

/**
 * ListRepoHeads (Ivory only): the newest commit of each of several repos in one call, over HTTP
 * and gRPC; with sign-in on, only the repos the caller may read answer.
 */

let server: TestServer;
let url: string;
const commits: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ grpc: { port: 0, optional: false } });
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  for (const name of ['one', 'two', 'empty'])
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo(name) });
  commits.one1 = await commitFiles(url, 'one', { '/a.txt': 'a' }, { description: 'first' });
  commits.one2 = await commitFiles(url, 'one', { '/b.txt': 'b' }, { description: 'second' });
  commits.oneDev = await commitFiles(url, 'one', { '/c.txt': 'ccc' }, { branch: 'dev' });
  commits.two1 = await commitFiles(url, 'two', { '/x.txt': 'x' });
}, 60_000);
afterAll(() => server.close());

const heads = (body: unknown) => results(url, 'pfs_v2.API/ListRepoHeads', body);

describe('ListRepoHeads', () => {
  it("answers each named repo's newest commit, as ListCommit {number: 1} does, in the order named", async () => {
    const answer = await heads({ repos: [repo('two'), repo('one'), repo('empty')] });
    expect(answer.map((line) => line.repo)).toEqual([repo('two'), repo('one'), repo('empty')]);
    const [two, one, empty] = answer;
    expect(two.head.commit.id).toBe(commits.two1);
    // Over every branch: dev's commit is the newest of repo one.
    expect(one.head.commit.id).toBe(commits.oneDev);
    const [listed] = await results(url, 'pfs_v2.API/ListCommit', {
      repo: repo('one'),
      number: '1',
    });
    expect(one.head).toEqual(listed);
    // A repo without commits answers a null head.
    expect(empty.head).toBeNull();
  });

  it('with a branch, answers its head; repos without it and missing repos are left out', async () => {
    const onMaster = await heads({
      repos: [repo('one'), repo('missing'), repo('two'), repo('one')],
      branch: 'master',
    });
    expect(onMaster.map((line) => [line.repo.name, line.head.commit.id])).toEqual([
      ['one', commits.one2],
      ['two', commits.two1],
    ]);
    expect(onMaster[0].head.description).toBe('second');
    const onDev = await heads({ repos: [repo('one'), repo('two')], branch: 'dev' });
    expect(onDev.map((line) => [line.repo.name, line.head.commit.id])).toEqual([
      ['one', commits.oneDev],
    ]);
  });

  it('answers 3 for bad input', async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => repo(`r${i}`));
    for (const body of [
      {},
      { repos: [] },
      { repos: [{ name: '' }] },
      { repos: [repo('bad name')] },
      { repos: [{ ...repo('one'), type: 'weird' }] },
      { repos: [repo('one')], branch: 'no/such' },
      { repos: tooMany },
      { repos: 'one' },
    ]) {
      const answer = await callStream(url, 'pfs_v2.API/ListRepoHeads', body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(JSON.parse(answer.text).code).toBe(3);
    }
    // 1,000 is the limit, not an error.
    const atLimit = Array.from({ length: 1000 }, (_, i) => repo(i === 0 ? 'one' : `r${i}`));
    expect((await heads({ repos: atLimit })).map((line) => line.repo.name)).toEqual(['one']);
  });

  it('is served on gRPC too', async () => {
    const client = grpcClient(`127.0.0.1:${server.server.grpc!.port}`);
    try {
      const answer = await client.serverStream(pfs_v2.API.method.listRepoHeads, {
        repos: [repo('one'), repo('empty')],
      });
      expect(answer.map((line) => [line.repo?.name, line.head?.commit?.id])).toEqual([
        ['one', commits.oneDev],
        ['empty', undefined],
      ]);
      const failure = await grpcFailure(client.serverStream(pfs_v2.API.method.listRepoHeads, {}));
      expect(failure.code).toBe(3);
    } finally {
      client.close();
    }
  });
});

describe('ListRepoHeads with sign-in on', () => {
  let secured: SignedInTestServer;
  let tokens: Record<string, string>;

  const as = async (who: string, method: string, body: unknown) => {
    const response = await fetch(`${secured.url}/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[who]}` },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    if (response.status !== 200 || lines.some((line) => line.error))
      throw new Error(`${who} ${method}: ${response.status} ${text}`);
    return lines;
  };

  const putFile = (who: string, project: string, name: string) =>
    fetch(`${secured.url}/api/pfs_v2.API/ModifyFile`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${tokens[who]}` },
      body: [
        { setCommit: { branch: { repo: repo(name, project), name: 'master' } } },
        { addFile: { path: '/f.txt', raw: Buffer.from(name).toString('base64') } },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    });

  beforeAll(async () => {
    secured = await startSignedInTestServer(['alice', 'bob', 'carol', 'dave'], {
      admins: ['carol@example.com'],
    });
    ({ tokens } = secured);
    await as('alice', 'pfs_v2.API/CreateProject', { project: { name: 'p' } });
    for (const name of ['open', 'closed']) {
      await as('alice', 'pfs_v2.API/CreateRepo', { repo: repo(name, 'p') });
      expect((await putFile('alice', 'p', name)).status).toBe(200);
    }
    await as('alice', 'auth_v2.API/ModifyRoleBinding', {
      resource: { type: 'REPO', name: 'p/open' },
      principal: 'user:bob@example.com',
      roles: ['repoReader'],
    });
  }, 60_000);
  afterAll(() => secured?.close());

  const names = (lines: { result: { repo: { name: string } } }[]) =>
    lines.map((line) => line.result.repo.name);
  const both = { repos: [repo('closed', 'p'), repo('open', 'p')] };

  it('answers only the repos the caller may read (REPO_READ on each)', async () => {
    expect(names(await as('alice', 'pfs_v2.API/ListRepoHeads', both))).toEqual(['closed', 'open']);
    expect(names(await as('carol', 'pfs_v2.API/ListRepoHeads', both))).toEqual(['closed', 'open']);
    const bobs = await as('bob', 'pfs_v2.API/ListRepoHeads', both);
    expect(names(bobs)).toEqual(['open']);
    expect(bobs[0].result.head.commit.repo).toEqual(repo('open', 'p'));
    // No binding at all: nothing, and no error telling which repos exist.
    expect(await as('dave', 'pfs_v2.API/ListRepoHeads', both)).toEqual([]);
    // Without a token: 16.
    const anonymous = await call(secured.url, 'pfs_v2.API/ListRepoHeads', both);
    expect(anonymous.body.code).toBe(16);
  });
});
