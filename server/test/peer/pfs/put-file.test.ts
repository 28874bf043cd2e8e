// Ported from Pachyderm's src/server/pfs/server/testing/server_test.go: writing files (PutFile
// as overwrite and append, ModifyFile streams, valid paths, open and finished commits).
import { describe, expect, it } from 'vitest';
import { failure, putFileOps } from '../support/peer-client.ts';
import { usePeerServer } from '../support/peer-server.ts';
import { finishCommit, paths, randomText } from '../support/pfs-test-helpers.ts';

const env = usePeerServer();
const project = 'default';

describe('server_test.go: PutFile', () => {
  it('TestPutFile: PutFile overwrites, DeleteFile then PutFile writes anew', async () => {
    const c = await env.fresh();
    const repo = 'test';
    await c.createRepo(project, repo);
    const master = c.commit(project, repo, 'master');
    await c.putFile(master, 'file', 'foo');
    expect(await c.getFile(master, 'file')).toBe('foo');
    await c.putFile(master, 'file', 'bar');
    expect(await c.getFile(master, 'file')).toBe('bar');
    await c.deleteFile(master, 'file');
    await c.putFile(master, 'file', 'buzz');
    expect(await c.getFile(master, 'file')).toBe('buzz');
  });

  it('TestPutFile2: appends within an open commit, into the branch head, and across commits and branches', async () => {
    const c = await env.fresh();
    const repo = 'test';
    await c.createRepo(project, repo);
    const commit1 = await c.startCommit(project, repo, 'master');
    const master = c.commit(project, repo, 'master');
    await c.putFile(commit1, 'file', 'foo\n', { append: true });
    await c.putFile(commit1, 'file', 'bar\n', { append: true });
    await c.putFile(master, 'file', 'buzz\n', { append: true });
    await finishCommit(c, repo, '', commit1.id);
    let expected = 'foo\nbar\nbuzz\n';
    expect(await c.getFile(commit1, 'file')).toBe(expected);
    expect(await c.getFile(master, 'file')).toBe(expected);

    const commit2 = await c.startCommit(project, repo, 'master');
    await c.putFile(commit2, 'file', 'foo\n', { append: true });
    await c.putFile(commit2, 'file', 'bar\n', { append: true });
    await c.putFile(master, 'file', 'buzz\n', { append: true });
    await finishCommit(c, repo, 'master', '');
    expected = 'foo\nbar\nbuzz\nfoo\nbar\nbuzz\n';
    expect(await c.getFile(commit2, 'file')).toBe(expected);
    expect(await c.getFile(master, 'file')).toBe(expected);

    const commit3 = await c.startCommit(project, repo, 'master');
    await finishCommit(c, repo, '', commit3.id);
    await c.createBranch(project, repo, 'foo', '', commit3.id);
    const commit4 = await c.startCommit(project, repo, 'foo');
    await c.putFile(commit4, 'file', 'foo\nbar\nbuzz\n', { append: true });
    await finishCommit(c, repo, '', commit4.id);
    // commit 3 is unchanged
    expect(await c.getFile(commit3, 'file')).toBe(expected);
    expect(await c.getFile(commit4, 'file')).toBe(
      'foo\nbar\nbuzz\nfoo\nbar\nbuzz\nfoo\nbar\nbuzz\n',
    );
  });

  it('TestPutFileBranchCommitID: an append to a branch that does not exist yet makes it', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    await c.putFile(c.commit(project, 'test', 'foo'), 'foo', 'foo\n', { append: true });
    expect(await c.getFile(c.commit(project, 'test', 'foo'), 'foo')).toBe('foo\n');
  });

  it('TestPutSameFileInParallel: three concurrent appends to one file of an open commit all land', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit = await c.startCommit(project, 'test', 'master');
    await Promise.all([0, 1, 2].map(() => c.putFile(commit, 'foo', 'foo\n', { append: true })));
    await finishCommit(c, 'test', '', commit.id);
    expect(await c.getFile(commit, 'foo')).toBe('foo\nfoo\nfoo\n');
  });

  // Go writes pfs.ChunkSize + 5 MiB; scaled to 1.5 MB here (past pachd's 1 MB minimum chunk and
  // several gRPC messages), so the test runs in a second.
  it('TestPutFileBig: a file of many messages reads back whole, with its size (scaled)', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const size = 1_500_000;
    const data = randomText(size);
    const commit1 = await c.startCommit(project, 'test', 'master');
    const chunks: string[] = [];
    for (let at = 0; at < size; at += 256 * 1024) chunks.push(data.slice(at, at + 256 * 1024));
    await c.modifyFile(commit1, [
      { body: { case: 'deleteFile', value: { path: 'foo' } } },
      ...chunks.flatMap((chunk) => putFileOps('foo', chunk, { append: true })),
    ]);
    await finishCommit(c, 'test', '', commit1.id);
    const info = await c.inspectFile(commit1, 'foo');
    expect(Number(info.sizeBytes)).toBe(size);
    expect(await c.getFile(commit1, 'foo')).toBe(data);
  });

  it('TestBasicFile: a file written in an open commit reads back after finishing', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'repo');
    const commit = await c.startCommit(project, 'repo', 'master');
    await c.putFile(commit, 'file', 'data');
    await finishCommit(c, 'repo', '', commit.id);
    expect(await c.getFile(commit, 'file')).toBe('data');
  });

  it('TestSimpleFile: an append in a second commit adds to the first commit’s file, which stays as it was', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit1 = await c.startCommit(project, 'test', 'master');
    await c.putFile(commit1, 'foo', 'foo\n', { append: true });
    await finishCommit(c, 'test', '', commit1.id);
    expect(await c.getFile(commit1, 'foo')).toBe('foo\n');
    const commit2 = await c.startCommit(project, 'test', 'master');
    await c.putFile(commit2, 'foo', 'foo\n', { append: true });
    await finishCommit(c, 'test', '', commit2.id);
    expect(await c.getFile(commit1, 'foo')).toBe('foo\n');
    expect(await c.getFile(commit2, 'foo')).toBe('foo\nfoo\n');
  });

  it('TestPutFileIntoOpenCommit: a commit named by id takes writes while open, not once finished', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit1 = await c.startCommit(project, 'test', 'master');
    await c.putFile(commit1, 'foo', 'foo\n');
    await finishCommit(c, 'test', 'master', commit1.id);
    await failure(c.putFile(commit1, 'foo', 'foo\n'));
    const commit2 = await c.startCommit(project, 'test', 'master');
    await c.putFile(commit2, 'foo', 'foo\n');
    await finishCommit(c, 'test', 'master', '');
    const refused = await failure(c.putFile(commit2, 'foo', 'foo\n'));
    expect(refused.details).toMatch(/commit \S+ has already finished/);
  });

  it('TestPutFileDirectoryTraversal: "..", even inside a path, is refused and nothing lands', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'repo');
    await c.startCommit(project, 'repo', 'master');
    const master = c.commit(project, 'repo', 'master');
    await failure(c.putFile(master, '../foo', 'foo\n'));
    expect(await c.listFileAll(master, '')).toHaveLength(0);
    await failure(c.putFile(master, 'foo/../../bar', 'foo\n'));
    await failure(c.putFile(master, 'foo/../bar', 'foo\n'));
    expect(await c.listFileAll(master, '')).toHaveLength(0);
  });

  it('TestPutFileValidCharacters: printable ASCII only, and no glob characters', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit = await c.startCommit(project, 'test', 'master');
    await failure(c.putFile(commit, 'foo\x00bar', 'foobar\n'));
    await failure(c.putFile(commit, '\x1ffoobar', 'foobar\n'));
    await c.putFile(commit, 'foo\x20bar', 'foobar\n');
    await c.putFile(commit, 'foobar\x7e', 'foobar\n');
    await failure(c.putFile(commit, 'foo\x7fbar', 'foobar\n'));
    await failure(c.putFile(commit, 'foobar\x0b', 'foobar\n'));
    await c.putFile(commit, '\x41foobar', 'foobar\n');
    await failure(c.putFile(commit, 'foobar*', 'foobar\n'));
  });

  it('TestPutFileValidPaths: one path from two datums, or a file where a folder is, finishes the commit with an error', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    await c.modifyFile(c.commit(project, 'test', 'branch-1'), [
      ...putFileOps('foo', 'foo\n', { datum: 'tag1' }),
      ...putFileOps('foo', 'foo\n', { datum: 'tag2' }),
    ]);
    let info = await c.waitCommit(project, 'test', 'branch-1');
    expect(info.error).not.toBe('');
    await c.modifyFile(c.commit(project, 'test', 'branch-2'), [
      ...putFileOps('foo/bar', 'foo\n'),
      ...putFileOps('foo', 'foo\n'),
    ]);
    info = await c.waitCommit(project, 'test', 'branch-2');
    expect(info.error).not.toBe('');
  });

  it('TestManyPutsSingleFileSingleCommit: 500 appends from 10 concurrent writers make one file of all of them', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit1 = await c.startCommit(project, 'test', 'master');
    const rawMessage = `{
		"level":"debug",
		"message":{
			"thing":"foo"
		},
		"timing":[1,3,34,6,7]
	}`;
    const numObjs = 500;
    const numGoros = 10;
    await Promise.all(
      Array.from({ length: numGoros }, async () => {
        for (let i = 0; i < numObjs / numGoros; i++)
          await c.putFile(commit1, 'foo', rawMessage, { append: true });
      }),
    );
    await finishCommit(c, 'test', '', commit1.id);
    expect(await c.getFile(commit1, 'foo')).toBe(rawMessage.repeat(numObjs));
  });

  it('TestPutFileCommit: concurrent PutFiles, CopyFiles and DeleteFiles to a branch each land', async () => {
    const c = await env.fresh();
    const numFiles = 25;
    await c.createRepo(project, 'repo');
    const commit = c.commit(project, 'repo', 'master');
    await Promise.all(
      Array.from({ length: numFiles }, (_, i) => c.putFile(commit, `${i}`, `${i}`)),
    );
    for (let i = 0; i < numFiles; i++) expect(await c.getFile(commit, `${i}`)).toBe(`${i}`);
    const bi = await c.inspectBranch(project, 'repo', 'master');
    await Promise.all(
      Array.from({ length: numFiles }, (_, i) =>
        c.copyFile(commit, `${(i + 1) % numFiles}`, bi.head!, `${i}`),
      ),
    );
    for (let i = 0; i < numFiles; i++)
      expect(await c.getFile(commit, `${(i + 1) % numFiles}`)).toBe(`${i}`);
    await Promise.all(Array.from({ length: numFiles }, (_, i) => c.deleteFile(commit, `${i}`)));
    expect(await c.listFileAll(commit, '')).toHaveLength(0);
  });

  it('TestPutFileCommitNilBranch: a branch made with CreateBranch takes a PutFile', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'repo');
    await c.createBranch(project, 'repo', 'master');
    await c.putFile(c.commit(project, 'repo', 'master'), 'file', 'file');
  });

  it('TestPutFileCommitOverwrite: five PutFiles to a branch leave the last', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'repo');
    const commit = c.commit(project, 'repo', 'master');
    for (let i = 0; i < 5; i++) await c.putFile(commit, 'file', `${i}`);
    expect(await c.getFile(commit, 'file')).toBe('4');
  });

  it('TestPutFileAtomic: one ModifyFile to a branch is one commit, with all its changes', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit = c.commit(project, 'test', 'master');
    await c.modifyFile(commit, [...putFileOps('file1', '1'), ...putFileOps('file2', '2')]);
    const listed = () => c.listCommit({ repo: c.repo(project, 'test'), to: commit });
    expect(await listed()).toHaveLength(1);
    expect(await c.getFile(commit, 'file1')).toBe('1');
    expect(await c.getFile(commit, 'file2')).toBe('2');
    await c.modifyFile(commit, [
      ...putFileOps('file3', '3'),
      { body: { case: 'deleteFile', value: { path: 'file1' } } },
    ]);
    expect(await listed()).toHaveLength(2);
    expect(await c.getFile(commit, 'file3')).toBe('3');
    await failure(c.getFile(commit, 'file1'));
    await c.modifyFile(commit, []);
    expect(await listed()).toHaveLength(3);
  });

  it('TestModifyFileGRPCEmptyFile: addFile messages with empty raw bytes make empty files', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const files = ['/empty-1', '/empty-2'];
    const master = c.commit(project, 'test', 'master');
    await c.modifyFile(
      master,
      files.map((path) => ({
        body: {
          case: 'addFile' as const,
          value: { path, source: { case: 'raw' as const, value: { value: new Uint8Array() } } },
        },
      })),
    );
    expect(paths(await c.listFileAll(master, '/'))).toEqual(files);
  });

  it('TestSingleMessageFile: a file sent as one addFile message', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const master = c.commit(project, 'test', 'master');
    await c.modifyFile(master, [
      {
        body: {
          case: 'addFile',
          value: { path: 'file', source: { case: 'raw', value: { value: Buffer.from('foo') } } },
        },
      },
    ]);
    expect(await c.getFile(master, 'file')).toBe('foo');
  });

  // Go's test (a pachd configured with a compaction fan-in of 10) writes 100 tar file sets of
  // ten 1,000-byte files into one commit and checks that it finishes; scaled to 20 here.
  it('TestCompaction: a commit of many overwriting ModifyFiles finishes (scaled)', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit1 = await c.startCommit(project, 'test', 'master');
    for (let i = 0; i < 20; i++) {
      await c.modifyFile(
        commit1,
        Array.from({ length: 10 }, (_, j) =>
          putFileOps(`file${String(j).padStart(2, '0')}`, randomText(1000)),
        ).flat(),
      );
    }
    await finishCommit(c, 'test', '', commit1.id);
    expect(await c.listFileAll(commit1, '/')).toHaveLength(10);
  });

  // Known difference, listed in ../README.md: fails until the behaviour lands.
  it.fails(
    'TestRegressionOrphanedFile: a file set’s files are listed through the __filesets__ virtual repo',
    async () => {
      const c = await env.fresh();
      const fileSetId = await c.createFileSet([
        ...putFileOps('file1.txt', 'test data'),
        ...putFileOps('file2.txt', 'test data'),
      ]);
      await c.renewFileSet(fileSetId, 60);
      const listed = await c.listFileAll(c.commit(project, '__filesets__', '', fileSetId), '/');
      expect(listed).toHaveLength(2);
    },
  );
});
