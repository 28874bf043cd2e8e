// Ported from Pachyderm's src/server/worker/datum/iterator_test.go. The Go tests drive the datum
// iterator directly; here the same inputs go through ListDatum with an `input` (the dry run a
// client has of the iterator), and the datums it lists are compared with the same expected sets
// (validateDI: each datum keyed by its inputs' paths, split on "/", sorted and joined).
import { describe, expect, it } from 'vitest';
import { failure, inputs, type Input, type PeerClient } from '../support/peer-client.ts';
import { unique, usePeerServer } from '../support/peer-server.ts';

const env = usePeerServer();
const project = 'default';

/** computeStableKey: the path's parts sorted, joined again (empty parts dropped, as path.Join). */
function stableKey(key: string): string {
  return key
    .split('/')
    .sort()
    .filter((part) => part !== '')
    .join('/');
}

/** validateDI: the input's datums are exactly `expected` (as a multiset of stable keys). */
async function validateDI(c: PeerClient, input: Input, ...expected: string[]): Promise<void> {
  const datums = await c.listDatumInput(input);
  const keys = datums.map((info) => stableKey(info.data.map((file) => file.file?.path).join('')));
  expect(keys.sort()).toEqual(expected.map(stableKey).sort());
}

/** Files /foo0 … /foo49 ("input") in one commit of a new repo, as TestIterators puts them. */
async function fiftyFiles(c: PeerClient, prefix: string): Promise<{ repo: string; id: string }> {
  const repo = unique(prefix);
  await c.createRepo(project, repo);
  const commit = await c.startCommit(project, repo, 'master');
  await c.modifyFile(
    c.commit(project, repo, '', commit.id),
    Array.from({ length: 50 }, (_, i) => ({
      body: {
        case: 'addFile' as const,
        value: {
          path: `/foo${i}`,
          source: { case: 'raw' as const, value: { value: Buffer.from('input') } },
        },
      },
    })),
  );
  await c.finishCommit(project, repo, '', commit.id);
  return { repo, id: commit.id };
}

describe('iterator_test.go: TestIterators', () => {
  let data: Promise<{ repo: string; id: string }> | undefined;
  const dataRepo = () => (data ??= fiftyFiles(env.client(), 'TestIterators_data'));
  /** A pfs input with `commit` set, as the Go test sets `in.Pfs.Commit = commit.Id`. */
  const pfsInput = async (glob: string) => {
    const { repo, id } = await dataRepo();
    return inputs.pfs(project, repo, glob, { commit: id });
  };
  const pfsOpts = async (glob: string, joinOn: string, groupBy: string, outerJoin = false) => {
    const { repo, id } = await dataRepo();
    const input = inputs.pfsOpts('', project, repo, '', glob, joinOn, groupBy, outerJoin, false);
    input.pfs!.commit = id;
    return input;
  };
  const in0 = () => pfsInput('!(**)');
  const in1 = () => pfsInput('/foo?1');
  const in2 = () => pfsInput('/foo*2');

  it('ZeroDatums: the extglob "!(**)" matches nothing', async () => {
    await validateDI(env.client(), await in0());
  });

  it('Basic: "/foo?1" and "/foo*2" make a datum per matching file', async () => {
    const c = env.client();
    await validateDI(c, await in1(), '/foo11', '/foo21', '/foo31', '/foo41');
    await validateDI(c, await in2(), '/foo12', '/foo2', '/foo22', '/foo32', '/foo42');
  });

  it("Union: each child's datums (two inputs with the same name)", async () => {
    const in3 = inputs.union(await in1(), await in2());
    await validateDI(
      env.client(),
      in3,
      ...['/foo11', '/foo12', '/foo2', '/foo21', '/foo22', '/foo31', '/foo32', '/foo41', '/foo42'],
    );
  });

  it('Cross: every pair of the two inputs', async () => {
    const in4 = inputs.cross(await in1(), await in2());
    const expected: string[] = [];
    for (const a of ['/foo11', '/foo21', '/foo31', '/foo41'])
      for (const b of ['/foo12', '/foo2', '/foo22', '/foo32', '/foo42']) expected.push(a + b);
    await validateDI(env.client(), in4, ...expected);
  });

  it('EmptyCross: a cross with an input without datums has none', async () => {
    const in3 = inputs.union(await in1(), await in2());
    const in4 = inputs.cross(await in1(), await in2());
    await validateDI(env.client(), inputs.cross(in3, await in0(), await in2(), in4));
  });

  it('NestedEmptyCross: an empty cross crossed again has none', async () => {
    const in3 = inputs.union(await in1(), await in2());
    const in4 = inputs.cross(await in1(), await in2());
    const in6 = inputs.cross(in3, await in0(), await in2(), in4);
    await validateDI(env.client(), inputs.cross(in6, await in1()));
  });

  it('Join: "$1$2" against "$2$1" pairs /fooXY with /fooYX', async () => {
    const in10 = inputs.join(
      await pfsOpts('/foo(?)(?)', '$1$2', ''),
      await pfsOpts('/foo(?)(?)', '$2$1', ''),
    );
    const expected: string[] = [];
    for (let x = 1; x <= 4; x++)
      for (let y = 1; y <= 4; y++) expected.push(`/foo${x}${y}/foo${y}${x}`);
    await validateDI(env.client(), in10, ...expected);
  });

  it('OuterJoin: keys one side lacks keep the outer side alone', async () => {
    const in13 = inputs.join(
      await pfsOpts('/foo1(?)', '$1', '', true),
      await pfsOpts('/foo(?)1', '$1', '', true),
    );
    await validateDI(
      env.client(),
      in13,
      ...['/foo10', '/foo11/foo11', '/foo12/foo21', '/foo13/foo31', '/foo14/foo41'],
      ...['/foo15', '/foo16', '/foo17', '/foo18', '/foo19'],
    );
  });

  it('GroupSingle: one datum per first digit', async () => {
    const in15 = inputs.group(await pfsOpts('/foo(?)(?)', '', '$1'));
    const groups = [1, 2, 3, 4].map((x) =>
      Array.from({ length: 10 }, (_, y) => `/foo${x}${y}`).join(''),
    );
    await validateDI(env.client(), in15, ...groups);
  });

  it("GroupDoubles: two inputs' groups merged by key", async () => {
    const in18 = inputs.group(
      await pfsOpts('/foo(?)(?)', '', '$1'),
      await pfsOpts('/foo(?)(?)', '', '$2'),
    );
    const expected = ['/foo10/foo20/foo30/foo40'];
    for (let k = 1; k <= 4; k++)
      expected.push(
        Array.from({ length: 10 }, (_, y) => `/foo${k}${y}`).join('') +
          [1, 2, 3, 4].map((x) => `/foo${x}${k}`).join(''),
      );
    for (let k = 5; k <= 9; k++) expected.push([1, 2, 3, 4].map((x) => `/foo${x}${k}`).join(''));
    await validateDI(env.client(), in18, ...expected);
  });

  it('GroupJoin: a group over a join groups each joined input by its own groupBy', async () => {
    const in21 = inputs.join(
      await pfsOpts('/foo(?)(?)', '$1$2', '$1'),
      await pfsOpts('/foo(?)(?)', '$2$1', '$2'),
    );
    const in22 = inputs.group(in21);
    await validateDI(
      env.client(),
      in22,
      '/foo11/foo11/foo12/foo21/foo13/foo31/foo14/foo41',
      '/foo21/foo12/foo22/foo22/foo23/foo32/foo24/foo42',
      '/foo31/foo13/foo32/foo23/foo33/foo33/foo34/foo43',
      '/foo41/foo14/foo42/foo24/foo43/foo34/foo44/foo44',
    );
  });

  it('UnionGroup: a union of an input and a group', async () => {
    const in23 = await pfsOpts('/foo(?)(?)', '', '');
    const in25 = inputs.group(await pfsOpts('/foo(?)(?)', '', '$2'));
    const expected: string[] = [];
    for (let y = 0; y <= 9; y++) expected.push([1, 2, 3, 4].map((x) => `/foo${x}${y}`).join(''));
    for (let n = 10; n <= 49; n++) expected.push(`/foo${n}`);
    await validateDI(env.client(), inputs.union(in23, in25), ...expected);
  });

  const s3Input = async () => {
    const { repo, id } = await dataRepo();
    const input = inputs.s3('', project, repo, '');
    input.pfs!.commit = id;
    return input;
  };

  it('PlainS3: an s3 input is one datum, its root, marked s3', async () => {
    const c = env.client();
    const in27 = await s3Input();
    await validateDI(c, in27, '/');
    const datums = await c.listDatumInput(in27);
    // (The Go test reads meta.Inputs[0].S3; a datum's data is its root folder.)
    expect(datums.map((d) => d.data.map((f) => f.file?.path))).toEqual([['/']]);
  });

  it('S3MixedCross: a cross with an s3 input adds its root to every pair', async () => {
    const in28 = inputs.cross(await in1(), await in2(), await s3Input());
    const expected: string[] = [];
    for (const a of ['/foo11', '/foo21', '/foo31', '/foo41'])
      for (const b of ['/foo12', '/foo2', '/foo22', '/foo32', '/foo42']) expected.push(`${a}${b}/`);
    await validateDI(env.client(), in28, ...expected);
  });

  it('S3OnlyCrossUnionJoin: a cross of s3 inputs is one datum of three roots', async () => {
    const in27 = await s3Input();
    await validateDI(env.client(), inputs.cross(in27, in27, in27), '///');
  });
});

describe('iterator_test.go: TestJoinTrailingSlash', () => {
  async function twoRepos(c: PeerClient) {
    const repos = [unique('TestJoinTrailingSlash_0'), unique('TestJoinTrailingSlash_1')];
    for (const repo of repos) {
      await c.createRepo(project, repo);
      const commit = await c.startCommit(project, repo, 'master');
      for (let j = 0; j < 10; j++)
        await c.putFile(c.commit(project, repo, '', commit.id), `foo-${j}`, 'bar');
      await c.finishCommit(project, repo, 'master', commit.id);
    }
    return repos;
  }
  const expected = Array.from({ length: 10 }, (_, j) => `/foo-${j}/foo-${j}`);

  it('TestJoinTrailingSlash: "/(*)" joins on the same capture as it matches', async () => {
    const c = env.client();
    const repos = await twoRepos(c);
    const input = inputs.join(
      ...repos.map((repo) => inputs.pfsOpts('', project, repo, '', '/(*)', '$1', '', false, false)),
    );
    await validateDI(c, input, ...expected);
  });

  it('TestJoinTrailingSlash: "/(*)/" (a trailing slash) joins the same', async () => {
    const c = env.client();
    const repos = await twoRepos(c);
    const input = inputs.join(
      ...repos.map((repo) =>
        inputs.pfsOpts('', project, repo, '', '/(*)/', '$1', '', false, false),
      ),
    );
    await validateDI(c, input, ...expected);
  });
});

describe('iterator_test.go: TestStreamingIterator', () => {
  // (The Go test puts 2 × ShardNumFiles = 20,000 empty files; a few show the same here.)
  it('ZeroDatums: "!(**)" makes no datum', async () => {
    const c = env.client();
    const repo = unique('TestStreamingIterator');
    await c.createRepo(project, repo);
    const commit = await c.startCommit(project, repo, 'master');
    for (let i = 0; i < 5; i++)
      await c.putFile(c.commit(project, repo, '', commit.id), `file-${i}`, '', { append: true });
    await c.finishCommit(project, repo, 'master', '');
    const input = inputs.pfs(project, repo, '!(**)', { commit: commit.id });
    expect(await c.listDatumInput(input)).toEqual([]);
  });

  it('IterationError: an input over a repo that does not exist is an error', async () => {
    const c = env.client();
    const input = inputs.pfs(project, 'nonexistent-repo', '/*');
    const { code } = await failure(c.listDatumInput(input));
    expect(code).not.toBe(0);
  });
});
