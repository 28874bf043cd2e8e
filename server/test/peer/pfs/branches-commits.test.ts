// Ported from Pachyderm's src/server/pfs/server/testing/server_test.go: branches and commits
// (starting, finishing, inspecting, listing, ancestry, waiting, subscribing, squash and drop).
import { pfs_v2 } from '@ivory/api/proto';
import { describe, expect, it } from 'vitest';
import { CommitState, failure, type Commit, type CommitInfo } from '../support/peer-client.ts';
import { eventually, unique, usePeerServer } from '../support/peer-server.ts';
import { finishCommit, finishProjectCommit, withoutBranch } from '../support/pfs-test-helpers.ts';

const env = usePeerServer();
const project = 'default';

describe('server_test.go: commits', () => {
  it('TestBranch: the second commit on a branch has the first as parent', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'repo');
    await c.startCommit(project, 'repo', 'master');
    await finishCommit(c, 'repo', 'master', '');
    let info = await c.inspectCommit(project, 'repo', 'master');
    expect(info.parentCommit).toBeUndefined();
    await c.startCommit(project, 'repo', 'master');
    await finishCommit(c, 'repo', 'master', '');
    info = await c.inspectCommit(project, 'repo', 'master');
    expect(info.parentCommit).toBeDefined();
  });

  it('TestListCommitStartedTime: number, started_time and reverse select the commits', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'foo');
    const commits: Commit[] = [];
    for (let i = 0; i < 3; i++) {
      const commit = await c.startCommit(project, 'foo', 'master');
      await c.finishCommit(project, 'foo', 'master', commit.id);
      commits.push(commit);
    }
    const listAndCheck = async (
      request: Parameters<typeof c.listCommit>[0],
      expectedIds: string[],
    ): Promise<CommitInfo[]> => {
      const infos = await c.listCommit(request);
      expect(infos.map((info) => info.commit?.id)).toEqual(expectedIds);
      return infos;
    };
    const repo = c.repo(project, 'foo');
    let infos = await listAndCheck({ repo, number: 1n }, [commits[2]!.id]);
    infos = await listAndCheck({ repo, number: 2n, startedTime: infos[0]!.started }, [
      commits[1]!.id,
      commits[0]!.id,
    ]);
    await listAndCheck({ repo, number: 1n, startedTime: infos[1]!.started }, []);
    await listAndCheck({ repo, number: 1n, reverse: true }, [commits[0]!.id]);
  });

  it('TestListCommitLimit: number limits ListCommit', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'repo');
    const master = c.commit(project, 'repo', 'master');
    await c.putFile(master, 'foo', 'foo');
    await c.putFile(master, 'bar', 'bar');
    expect(await c.listCommit({ repo: c.repo(project, 'repo'), number: 1n })).toHaveLength(1);
  });

  it('TestCreateInvalidBranchName: a branch named like a commit ID is refused', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const uuidWithoutDashes = crypto.randomUUID().replaceAll('-', '');
    await failure(c.startCommit(project, 'test', uuidWithoutDashes));
  });

  it('TestCreateBranchHeadOnOtherRepo: a branch whose head is in another repo is refused', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    await c.startCommit(project, 'test', 'master');
    await c.createRepo(project, 'other');
    await c.startCommit(project, 'other', 'master');
    await c.putFile(c.commit(project, 'test', 'master'), '/foo', 'foo\n');
    await c.putFile(c.commit(project, 'other', 'master'), '/bar', 'bar\n');
    const error = await failure(
      c.grpc.unary(pfs_v2.API.method.createBranch, {
        branch: c.branch(project, 'test', 'test'),
        head: c.commit(project, 'other', 'master'),
      }),
    );
    expect(error.details).toContain('branch and head commit must belong to the same repo');
  });

  it('TestInspectCommit: an open commit has no finish time and empty details; finished, its size', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    // Milliseconds here: started may equal the time read before StartCommit (pachd: before it).
    const started = Date.now();
    const commit = await c.startCommit(project, 'test', 'master');
    const fileContent = 'foo\n';
    await c.putFile(commit, 'foo', fileContent);
    let info = await c.inspectCommit(project, 'test', '', commit.id);
    expect(info.commit).toEqual(commit);
    expect(info.finished).toBeUndefined();
    expect(info.details).toBeDefined();
    expect(info.details?.sizeBytes ?? 0n).toBe(0n);
    expect(info.details?.compactingTime).toBeUndefined();
    expect(info.details?.validatingTime).toBeUndefined();
    const tStarted = Number(info.started!.seconds) * 1000 + info.started!.nanos / 1e6;
    expect(started).toBeLessThanOrEqual(tStarted);
    const finished = Date.now();
    await finishCommit(c, 'test', '', commit.id);
    info = await c.waitCommit(project, 'test', '', commit.id);
    expect(info.commit).toEqual(commit);
    expect(info.finished).toBeDefined();
    expect(Number(info.details?.sizeBytes)).toBe(fileContent.length);
    const tFinished = Number(info.finished!.seconds) * 1000 + info.finished!.nanos / 1e6;
    expect(finished).toBeLessThanOrEqual(tFinished);
  });

  it('TestInspectCommitWait: WaitCommit returns once another client finishes the commit', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit = await c.startCommit(project, 'test', 'master');
    // Go finishes after 2 s; 200 ms shows the same (the wait is asked for first).
    const finisher = new Promise((resolve) => setTimeout(resolve, 200)).then(() =>
      finishCommit(c, 'test', '', commit.id),
    );
    const info = await c.waitCommit(project, 'test', '', commit.id);
    expect(info.finished).toBeDefined();
    await finisher;
  });

  it('TestStartCommitWithUnfinishedParent: a commit cannot start over an open one', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit1 = await c.startCommit(project, 'test', 'master');
    await failure(c.startCommit(project, 'test', 'master'));
    await finishCommit(c, 'test', '', commit1.id);
    await c.startCommit(project, 'test', 'master');
  });

  it('TestAncestrySyntax: ^, ~, ^N, ~N and .N name ancestors and branch positions', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commits: Commit[] = [];
    for (const content of ['1', '2', '3']) {
      const commit = await c.startCommit(project, 'test', 'master');
      await c.putFile(commit, 'file', content);
      await finishCommit(c, 'test', '', commit.id);
      commits.push(commit);
    }
    const [commit1, commit2, commit3] = commits as [Commit, Commit, Commit];
    const inspect = async (id: string) => (await c.inspectCommit(project, 'test', '', id)).commit;
    for (const id of ['master^', 'master~', 'master^1', 'master~1'])
      expect(await inspect(id)).toEqual(commit2);
    for (const id of ['master^^', 'master~~', 'master^2', 'master~2'])
      expect(await inspect(id)).toEqual(commit1);
    expect(await inspect('master.1')).toEqual(commit1);
    expect(await inspect('master.2')).toEqual(commit2);
    expect(await inspect('master.3')).toEqual(commit3);
    for (const id of ['master^^^', 'master~~~', 'master^3', 'master~3'])
      await failure(c.inspectCommit(project, 'test', '', id));
    for (let i = 1; i <= 2; i++)
      await c.inspectFile(c.commit(project, 'test', '', `${commit3.id}^${3 - i}`), 'file');
    // Go's ancestry.Add(master, n): master~n for n > 0, master.(-n) for n < 0.
    const at = (id: string) => c.getFile(c.commit(project, 'test', '', id), 'file');
    expect(await at('master')).toBe('3');
    expect(await at('master~1')).toBe('2');
    expect(await at('master~2')).toBe('1');
    expect(await at('master.1')).toBe('1');
    expect(await at('master.2')).toBe('2');
    expect(await at('master.3')).toBe('3');
    for (let i = 0; i < 10; i++)
      await c.putFile(c.commit(project, 'test', 'master'), 'file', `${i + 4}`);
    expect(await inspect('master.1')).toEqual(commit1);
    expect(await inspect('master.2')).toEqual(commit2);
    expect(await inspect('master.3')).toEqual(commit3);
  });

  it('TestListCommit: newest first (each commit’s parent next), with to / from, and reversed', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const repo = c.repo(project, 'test');
    const master = c.commit(project, 'test', 'master');
    let midCommitId = '';
    for (let i = 0; i < 10; i++) {
      const commit = await c.startCommit(project, 'test', 'master');
      await finishCommit(c, 'test', 'master', '');
      if (i === 5) midCommitId = commit.id;
    }
    const newestFirst = (infos: CommitInfo[]) => {
      for (let i = 0; i < infos.length - 1; i++)
        expect(infos[i]!.parentCommit).toEqual(infos[i + 1]!.commit);
    };
    let infos = await c.listCommit({ repo });
    expect(infos).toHaveLength(10);
    newestFirst(infos);
    infos = await c.listCommit({ repo, to: master });
    expect(infos).toHaveLength(10);
    newestFirst(infos);
    infos = await c.listCommit({
      repo,
      to: master,
      from: c.commit(project, 'test', '', midCommitId),
    });
    expect(infos).toHaveLength(10 - 5 - 1);
    newestFirst(infos);
    infos = await c.listCommit({ repo, reverse: true });
    for (let i = 1; i < infos.length; i++)
      expect(infos[i]!.parentCommit).toEqual(infos[i - 1]!.commit);
  });

  it('TestStartCommitLatestOnBranch: the branch names its newest commit', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    let last: Commit | undefined;
    for (let i = 0; i < 3; i++) {
      last = await c.startCommit(project, 'test', 'master');
      await finishCommit(c, 'test', '', last.id);
    }
    expect((await c.inspectCommit(project, 'test', 'master')).commit?.id).toBe(last?.id);
  });

  it('TestCommitDescription: a description from StartCommit, from FinishCommit, and FinishCommit’s overwriting', async () => {
    const c = await env.fresh();
    const dataRepo = unique('TestCommitDescription');
    await c.createRepo(project, dataRepo);
    let commit = await c.grpc.unary(pfs_v2.API.method.startCommit, {
      branch: c.branch(project, dataRepo, 'master'),
      description: "test commit description in 'start commit'",
    });
    await c.finishCommit(project, dataRepo, '', commit.id);
    expect((await c.inspectCommit(project, dataRepo, '', commit.id)).description).toBe(
      "test commit description in 'start commit'",
    );
    commit = await c.startCommit(project, dataRepo, 'master');
    await c.grpc.unary(pfs_v2.API.method.finishCommit, {
      commit,
      description: "test commit description in 'finish commit'",
    });
    expect((await c.inspectCommit(project, dataRepo, 'master', commit.id)).description).toBe(
      "test commit description in 'finish commit'",
    );
    commit = await c.grpc.unary(pfs_v2.API.method.startCommit, {
      branch: c.branch(project, dataRepo, 'master'),
      description: "test commit description in 'start commit'",
    });
    await c.grpc.unary(pfs_v2.API.method.finishCommit, {
      commit,
      description: "test commit description in 'finish commit' that overwrites",
    });
    expect((await c.inspectCommit(project, dataRepo, '', commit.id)).description).toBe(
      "test commit description in 'finish commit' that overwrites",
    );
  });

  it('TestNilBranchNameUnary: InspectCommit answers the commit without its branch', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit = await c.startCommit(project, 'test', 'master');
    await c.putFile(commit, 'dir/foo', 'foo\n');
    await finishCommit(c, 'test', '', commit.id);
    const info = await c.inspectCommit(project, 'test', '', commit.id);
    expect(info.commit?.branch).toBeUndefined();
  });

  it('TestNilBranchNameStream: ListFile answers files whose commit has no branch', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit1 = await c.startCommit(project, 'test', 'master');
    await c.putFile(commit1, '/dir1/file1.5', '');
    await c.putFile(commit1, '/dir1/file1.2', '');
    await finishCommit(c, 'test', '', commit1.id);
    const infos = await c.listFileAll(commit1, '/');
    expect(infos.length).toBeGreaterThan(0);
    for (const info of infos) expect(info.file?.commit?.branch).toBeUndefined();
  });

  it('TestSubscribeCommit: SubscribeCommit of master sends its commits in order, not those of another branch', async () => {
    const c = await env.fresh();
    const p = unique('project');
    await c.createProject(p);
    await c.createRepo(p, 'test');
    for (let i = 0; i < 10; i++) {
      const commit = await c.startCommit(p, 'test', 'master-v1');
      await finishProjectCommit(c, p, 'test', '', commit.id);
    }
    const made: Commit[] = [];
    const received: CommitInfo[] = [];
    const subscription = (async () => {
      for await (const info of c.subscribeCommit({
        repo: c.repo(p, 'test'),
        branch: 'master',
        state: CommitState.STARTED,
      })) {
        received.push(info);
        if (received.length === 10) break;
      }
    })();
    for (let i = 0; i < 10; i++) {
      const commit = await c.startCommit(p, 'test', 'master');
      await finishProjectCommit(c, p, 'test', '', commit.id);
      made.push(commit);
    }
    await subscription;
    expect(received.map((info) => withoutBranch(info.commit))).toEqual(made.map(withoutBranch));
  });
});

describe('server_test.go: branches', () => {
  it('TestDeleteNonexistentBranch: deleting a branch that does not exist is "not found"', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    expect((await failure(c.deleteBranch(project, 'test', 'doesnt_exist'))).details).toContain(
      'not found',
    );
  });

  it('TestCreateBranchTwice: ListBranch is newest first; moving a branch keeps the other', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit1 = await c.startCommit(project, 'test', 'foo');
    await finishCommit(c, 'test', '', commit1.id);
    await c.createBranch(project, 'test', 'master', '', commit1.id);
    const commit2 = await c.startCommit(project, 'test', 'foo');
    await finishCommit(c, 'test', '', commit2.id);
    await c.createBranch(project, 'test', 'master', '', commit2.id);
    const infos = await c.listBranch(project, 'test');
    expect(infos).toHaveLength(2);
    expect(infos[0]?.branch?.name).toBe('master');
    expect(infos[0]?.head?.id).toBe(commit2.id);
    expect(infos[1]?.branch?.name).toBe('foo');
    expect(infos[1]?.head?.id).toBe(commit2.id);
  });

  it('TestBranchCreateInNonExistentRepo: CreateBranch in a repo that does not exist names it', async () => {
    const c = await env.fresh();
    expect((await failure(c.createBranch(project, 'test', 'master'))).details).toContain(
      'repo (id=0, project=default, name=test, type=user) not found',
    );
  });
});

describe('server_test.go: squash and drop', () => {
  it('TestSquashCommitEmptyChild: squashing waits for an open child; the child keeps the data', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'repo');
    const commitA = await c.startCommit(project, 'repo', 'master');
    await c.putFile(commitA, 'foo', 'foo');
    await finishCommit(c, 'repo', 'master', '');
    const commitB = await c.startCommit(project, 'repo', 'master');
    const error = await failure(c.squashCommitSet(commitA.id));
    expect(error.details).toMatch(/cannot squash until child commit .* is finished/);
    await finishCommit(c, 'repo', 'master', '');
    await c.waitCommit(project, 'repo', 'master');
    await c.squashCommitSet(commitA.id);
    expect(await c.getFile(commitB, 'foo')).toBe('foo');
  });
});

// Go's tests of commit states across branch provenance: they pass once CreateBranch with
// provenance propagates (another part of issue #29).
describe('server_test.go: waiting on commits downstream', () => {
  it('TestWaitOpenCommit: WaitCommitSetAll waits for the downstream commit too', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'A');
    await c.createRepo(project, 'B');
    await c.createBranch(project, 'B', 'master', '', '', [c.branch(project, 'A', 'master')]);
    await finishCommit(c, 'B', 'master', '');
    const commit = await c.startCommit(project, 'A', 'master');
    const finisher = new Promise((resolve) => setTimeout(resolve, 300)).then(async () => {
      await finishCommit(c, 'A', 'master', '');
      await finishCommit(c, 'B', 'master', '');
    });
    const infos = await c.waitCommitSetAll(commit.id);
    await finisher;
    expect(infos).toHaveLength(2);
    expect(withoutBranch(infos[0]?.commit)).toEqual(withoutBranch(commit));
    expect(withoutBranch(infos[1]?.commit)).toEqual(
      withoutBranch(c.commit(project, 'B', 'master', commit.id)),
    );
  });

  it('TestCommitState: a downstream commit is READY once its upstream commit finishes', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'A');
    await c.createRepo(project, 'B');
    await c.createBranch(project, 'B', 'master', '', '', [c.branch(project, 'A', 'master')]);
    await c.startCommit(project, 'A', 'master');
    const readyWithin = (repoName: string, ms: number) =>
      c.grpc.unary(
        pfs_v2.API.method.inspectCommit,
        { commit: c.commit(project, repoName, 'master'), wait: CommitState.READY },
        { deadline: Date.now() + ms },
      );
    // Go gives each wait 10 s; not READY is shown here by a 1 s deadline passing.
    await failure(readyWithin('B', 1000));
    await finishCommit(c, 'A', 'master', '');
    await readyWithin('B', 10_000);
    await c.createRepo(project, 'C');
    await c.createBranch(project, 'C', 'master', '', '', [c.branch(project, 'A', 'master')]);
    await readyWithin('C', 10_000);
  });

  it('TestSubscribeStates: SubscribeCommit with READY sends each downstream commit once ready', async () => {
    const c = await env.fresh();
    for (const name of ['A', 'B', 'C']) await c.createRepo(project, name);
    await c.createBranch(project, 'B', 'master', '', '', [c.branch(project, 'A', 'master')]);
    await finishCommit(c, 'B', 'master', '');
    await c.createBranch(project, 'C', 'master', '', '', [c.branch(project, 'B', 'master')]);
    await finishCommit(c, 'C', 'master', '');
    const ready = { B: 0, C: 0 };
    const abort = new AbortController();
    const follow = async (name: 'B' | 'C') => {
      const commits = c.subscribeCommit(
        { repo: c.repo(project, name), branch: 'master', state: CommitState.READY },
        abort.signal,
      );
      for await (const _ of commits) ready[name]++;
    };
    const followers = Promise.allSettled([follow('B'), follow('C')]);
    try {
      await c.startCommit(project, 'A', 'master');
      await c.finishCommit(project, 'A', 'master');
      await eventually(async () => expect(ready.B).toBe(2), 10_000);
      await c.finishCommit(project, 'B', 'master');
      await eventually(async () => expect(ready.C).toBe(2), 10_000);
    } finally {
      abort.abort();
      await followers;
    }
  });
});
