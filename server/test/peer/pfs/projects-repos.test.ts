// Ported from Pachyderm's src/server/pfs/server/testing/server_test.go: projects and repos
// (names, the project "default", creating, inspecting, listing, updating and deleting them).
import { metadata, pfs_v2 } from '@ivory/api/proto';
import { describe, expect, it } from 'vitest';
import { failure } from '../support/peer-client.ts';
import { unique, usePeerServer } from '../support/peer-server.ts';
import { finishCommit } from '../support/pfs-test-helpers.ts';

const env = usePeerServer();
const project = 'default';

/** Whether a call succeeds (Go's `require.NoError` / `require.YesError` as a value). */
const succeeds = (call: Promise<unknown>) =>
  call.then(
    () => true,
    () => false,
  );

describe('server_test.go: projects', () => {
  const badFormat = 'only alphanumeric characters';
  const cases: Array<[string, string]> = [
    [unique('my-PROJECT_0123456789'), ''],
    ['lenny', ''],
    [unique('lenny123'), ''],
    [unique('lenny_123'), ''],
    [unique('lenny-123'), ''],
    ['default', 'already exists'],
    [unique('/repo'), badFormat],
    [unique('lenny.123'), badFormat],
    [unique('lenny:'), badFormat],
    [unique('lenny,'), badFormat],
    [unique('lenny#'), badFormat],
    [unique('_lenny'), 'must start with an alphanumeric character'],
    [unique('-lenny'), 'must start with an alphanumeric character'],
    [unique('!project'), badFormat],
    [unique('"'), badFormat],
    [unique('\\'), badFormat],
    [unique("'"), badFormat],
    [unique('[]{}'), badFormat],
    [unique('|'), badFormat],
    [unique('new->project'), badFormat],
    [unique('project?'), badFormat],
    [unique('project:1'), badFormat],
    [unique('project;'), badFormat],
    [unique('project.'), badFormat],
  ];
  for (const [name, errMatch] of cases) {
    it(`TestInvalidProject/${name}: ${errMatch ? `refused (${errMatch})` : 'created'}`, async () => {
      const c = env.client();
      if (errMatch) {
        expect((await failure(c.createProject(name))).details).toContain(errMatch);
      } else {
        await c.createProject(name);
      }
    });
  }

  it('TestUpdateProject_PreservesMetadata: UpdateProject changes the description and keeps the metadata', async () => {
    const c = await env.fresh();
    // Go writes the project with its metadata straight into pachd's database; here through the API.
    await c.grpc.unary(pfs_v2.API.method.createProject, {
      project: { name: 'update' },
      description: 'this is a description',
    });
    await c.grpc.unary(metadata.API.method.editMetadata, {
      edits: [
        {
          target: { case: 'project', value: { picker: { case: 'name', value: 'update' } } },
          op: { case: 'addKey', value: { key: 'key', value: 'value' } },
        },
      ],
    });
    await c.updateProject('update', 'changed description');
    const got = await c.inspectProject('update');
    expect(got.project?.name).toBe('update');
    expect(got.description).toBe('changed description');
    expect(got.metadata).toEqual({ key: 'value' });
  });

  it('TestDefaultProject: a new cluster has the project "default", which may be updated and deleted', async () => {
    const c = await env.fresh();
    const names = async () => (await c.listProject()).map((info) => info.project?.name);
    expect(await names()).toContain('default');
    expect(await succeeds(c.createProject('default'))).toBe(false);
    const desc = 'A different description.';
    await c.updateProject('default', desc);
    for (const info of await c.listProject())
      if (info.project?.name === 'default') expect(info.description).toBe(desc);
    await c.deleteProject('default');
    expect(await names()).not.toContain('default');
    expect(await succeeds(c.deleteProject('default'))).toBe(false);
    expect(await succeeds(c.deleteProject('default', true))).toBe(false);
    await c.deleteAll();
  });

  it('TestCreateProject: 51-character project names are allowed, 52 are not', async () => {
    const c = await env.fresh();
    await c.createProject('123456789A123456789B123456789C123456789D123456789E1');
    await failure(c.createProject('123456789A123456789B123456789C123456789D123456789E12'));
  });

  it('TestDeleteProject: an empty project is deleted', async () => {
    const c = await env.fresh();
    await c.createProject('test');
    await c.deleteProject('test');
  });

  it('TestDeleteProjectWithRepos: a project with repos is not deleted, force or not', async () => {
    const c = await env.fresh();
    await c.createProject('test');
    await c.createRepo('default', 'test');
    await c.createRepo('test', 'test');
    await failure(c.deleteProject('test'));
    expect(await c.listRepo()).toHaveLength(2);
    await failure(c.deleteProject('test', true));
    await c.deleteRepo('test', 'test');
    expect(await c.listRepo()).toHaveLength(1);
    await c.deleteProject('test');
    const repoInfos = await c.listRepo();
    expect(repoInfos).toHaveLength(1);
    for (const info of repoInfos) expect(info.repo?.project?.name).toBe('default');
  });

  it('TestInspectProjectV2: the project defaults, "{}" until set', async () => {
    const c = await env.fresh();
    expect((await c.inspectProjectV2('default')).defaultsJson).toBe('{}');
    await c.setProjectDefaults({
      project: { name: 'default' },
      projectDefaultsJson: '{"createPipelineRequest": {"datumTries": 2}}',
    });
    expect((await c.inspectProjectV2('default')).defaultsJson).toBe(
      '{"createPipelineRequest": {"datumTries": 2}}',
    );
    await c.setProjectDefaults({ project: { name: 'default' }, projectDefaultsJson: '{}' });
  });

  it('TestReposSummary: user repos and their size per project, in the order asked', async () => {
    const c = await env.fresh();
    const data = 'a'.repeat(50);
    for (const p of ['A', 'B', 'C']) {
      await c.createProject(p);
      for (let i = 0; i < 5; i++) await c.createRepo(p, `${p}-${i}`);
    }
    let summary = await c.reposSummary(['B', 'A']);
    expect(summary.summaries).toHaveLength(2);
    expect(summary.summaries[0]?.project?.name).toBe('B');
    expect(Number(summary.summaries[0]?.userRepoCount)).toBe(5);
    expect(summary.summaries[0]?.sizeBytes).toBe(0n);
    expect(summary.summaries[1]?.project?.name).toBe('A');
    expect(Number(summary.summaries[1]?.userRepoCount)).toBe(5);
    expect(summary.summaries[1]?.sizeBytes).toBe(0n);
    await c.putFile(c.commit('B', 'B-2', 'master'), 'f', data);
    await c.putFile(c.commit('B', 'B-3', 'master'), 'f', data);
    await c.waitCommit('B', 'B-3', 'master');
    summary = await c.reposSummary(['B']);
    expect(summary.summaries).toHaveLength(1);
    expect(summary.summaries[0]?.project?.name).toBe('B');
    expect(summary.summaries[0]?.sizeBytes).toBe(BigInt(2 * data.length));
  });
});

describe('server_test.go: repos', () => {
  it('TestInvalidRepo: repo names of letters, digits, "_" and "-" only', async () => {
    const c = await env.fresh();
    await failure(c.createRepo(project, '/repo'));
    for (const name of ['lenny', 'lenny123', 'lenny_123', 'lenny-123'])
      await c.createRepo(project, name);
    for (const name of ['lenny.123', 'lenny:', 'lenny,', 'lenny#'])
      await failure(c.createRepo(project, name));
  });

  it('TestCreateSameRepoInParallel: of 1000 concurrent CreateRepos of one name, exactly one succeeds', async () => {
    const c = await env.fresh();
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => succeeds(c.createRepo(project, 'repo'))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('TestCreateDifferentRepoInParallel: 1000 concurrent CreateRepos of different names all succeed', async () => {
    const c = await env.fresh();
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => succeeds(c.createRepo(project, `repo${i}`))),
    );
    expect(results.filter(Boolean)).toHaveLength(1000);
  });

  it('TestCreateRepoNonExistentProject: a repo needs its project', async () => {
    const c = await env.fresh();
    await failure(c.createRepo('foo', 'bar'));
    await c.createProject('foo');
    await c.createRepo('foo', 'bar');
  });

  it('TestCreateAndInspectRepo: a new repo has a creation time and size 0; a second of the name is refused', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'repo');
    const info = await c.inspectRepo(project, 'repo');
    expect(info.repo?.name).toBe('repo');
    expect(info.created).toBeDefined();
    expect(Number(info.details?.sizeBytes)).toBe(0);
    await failure(c.createRepo(project, 'repo'));
    await failure(c.inspectRepo(project, 'nonexistent'));
    await c.grpc.unary(pfs_v2.API.method.createRepo, { repo: c.repo(project, 'somerepo1') });
  });

  it('TestCreateRepoWithoutProject: a repo without a project is made in "default"', async () => {
    const c = await env.fresh();
    await c.grpc.unary(pfs_v2.API.method.createRepo, { repo: { name: 'repo123' } });
    const info = await c.inspectRepo(project, 'repo123');
    expect(info.repo?.name).toBe('repo123');
    expect(info.created).toBeDefined();
    expect(Number(info.details?.sizeBytes)).toBe(0);
  });

  it('TestCreateRepoWithEmptyProject: a repo with an empty project name is made in "default"', async () => {
    const c = await env.fresh();
    await c.grpc.unary(pfs_v2.API.method.createRepo, {
      repo: { project: {}, name: 'repo123' },
    });
    const info = await c.inspectRepo(project, 'repo123');
    expect(info.repo?.name).toBe('repo123');
    expect(info.created).toBeDefined();
    expect(Number(info.details?.sizeBytes)).toBe(0);
  });

  it('TestListRepo: ListRepo lists the repos made', async () => {
    const c = await env.fresh();
    const names = Array.from({ length: 10 }, (_, i) => `repo${i}`);
    for (const name of names) await c.createRepo(project, name);
    const listed = (await c.listRepo()).map((info) => info.repo?.name);
    expect([...listed].sort()).toEqual([...names].sort());
  });

  it('TestCreateDeletedRepo: a repo made anew after DeleteRepo has no commits or branches, and its meta repo went with it', async () => {
    const c = await env.fresh();
    const repo = 'repo';
    await c.createRepo(project, repo);
    const systemRepo = c.repo(project, repo, 'meta');
    await c.grpc.unary(pfs_v2.API.method.createRepo, { repo: systemRepo });
    const commit = await c.startCommit(project, repo, 'master');
    await c.putFile(commit, 'foo', 'foo');
    await finishCommit(c, repo, '', commit.id);
    await c.grpc.unary(pfs_v2.API.method.startCommit, {
      branch: { repo: systemRepo, name: 'master' },
    });
    expect(await c.listCommit({ repo: c.repo(project, repo) })).toHaveLength(1);
    expect(await c.listCommit({ repo: systemRepo })).toHaveLength(1);
    await c.deleteRepo(project, repo);
    await c.createRepo(project, repo);
    expect(await c.listCommit({ repo: c.repo(project, repo) })).toHaveLength(0);
    expect(await c.listBranch(project, repo)).toHaveLength(0);
    expect(await c.listRepo('')).toHaveLength(1);
  });

  it('TestDeleteRepo2: after deleting 5 of 10 repos, ListRepo lists the other 5', async () => {
    const c = await env.fresh();
    const names = new Set(Array.from({ length: 10 }, (_, i) => `repo${i}`));
    for (const name of names) await c.createRepo(project, name);
    for (const name of [...names].slice(0, 5)) {
      await c.deleteRepo(project, name);
      names.delete(name);
    }
    const infos = await c.listRepo();
    for (const info of infos) expect(names.has(info.repo?.name ?? '')).toBe(true);
    expect(infos).toHaveLength(5);
  });

  it('TestDeleteRepos: by project (none named: nothing), a project that does not exist (nothing), and all', async () => {
    const c = await env.fresh();
    const projectName = unique('project');
    const untouchedProjectName = unique('project');
    await c.createProject(projectName);
    await c.createProject(untouchedProjectName);
    const key = (p: string, name: string) => `${p}/${name}`;
    const toDelete = new Set<string>();
    const untouched: string[] = [];
    for (let i = 0; i < 12; i++) {
      await c.createRepo(projectName, `repo${i}`);
      toDelete.add(key(projectName, `repo${i}`));
      await c.createRepo(untouchedProjectName, `repo${i}`);
      untouched.push(key(untouchedProjectName, `repo${i}`));
    }
    await c.deleteRepos({});
    await c.deleteRepos({ projects: [] });
    expect((await c.deleteRepos({ projects: [{ name: unique('noexist') }] })).repos).toHaveLength(
      0,
    );
    const deleted = await c.deleteRepos({ projects: [{ name: projectName }] });
    expect(deleted.repos).toHaveLength(toDelete.size);
    for (const repo of deleted.repos)
      expect(toDelete.has(key(repo.project?.name ?? '', repo.name))).toBe(true);
    const remaining = await c.listRepoIn([untouchedProjectName]);
    for (const info of remaining) expect(info.repo?.project?.name).toBe(untouchedProjectName);
    const listed = new Set(
      remaining.map((info) => key(info.repo?.project?.name ?? '', info.repo?.name ?? '')),
    );
    for (const name of untouched) expect(listed.has(name)).toBe(true);
    expect((await c.deleteRepos({ all: true })).repos).toHaveLength(untouched.length);
    expect(await c.listRepoIn([])).toHaveLength(0);
  });

  it('TestInspectRepoSimple: files committed on a branch other than master leave the repo size 0', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit = await c.startCommit(project, 'test', 'branch');
    await c.putFile(commit, 'foo', 'foo\n');
    await c.putFile(commit, 'bar', 'bar\n');
    await finishCommit(c, 'test', '', commit.id);
    const info = await c.inspectRepo(project, 'test');
    expect(Number(info.details?.sizeBytes)).toBe(0);
  });

  it("TestInspectRepoComplex: the repo's size is the sum of master's files", async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'test');
    const commit = await c.startCommit(project, 'test', 'master');
    let totalSize = 0;
    for (let i = 0; i < 100; i++) {
      const content = 'x'.repeat(1000 + Math.floor(Math.random() * 1000)) + '\n';
      totalSize += content.length;
      await c.putFile(commit, `file_${i}`, content);
    }
    await finishCommit(c, 'test', '', commit.id);
    const info = await c.inspectRepo(project, 'test');
    expect(Number(info.details?.sizeBytes)).toBe(totalSize);
    expect(await c.listRepo()).toHaveLength(1);
  });

  it('TestUpdateRepo: CreateRepo with update keeps the creation time and sets the description', async () => {
    const c = await env.fresh();
    const repo = c.repo(project, 'test');
    await c.grpc.unary(pfs_v2.API.method.createRepo, { repo, update: true });
    const created = (await c.inspectRepo(project, 'test')).created;
    await c.grpc.unary(pfs_v2.API.method.createRepo, { repo, update: true, description: 'foo' });
    const info = await c.inspectRepo(project, 'test');
    expect(info.created).toEqual(created);
    expect(info.description).toBe('foo');
  });

  it('TestListAll: ListCommit and ListBranch of a repo without a name cover every repo', async () => {
    const c = await env.fresh();
    await c.createRepo(project, 'repo1');
    await c.createRepo(project, 'repo2');
    const commit1 = c.commit(project, 'repo1', 'master');
    const commit2 = c.commit(project, 'repo2', 'master');
    await c.putFile(commit1, 'file1', '1');
    await c.putFile(commit2, 'file2', '2');
    await c.putFile(commit1, 'file3', '3');
    await c.putFile(commit2, 'file4', '4');
    expect(await c.listCommitByRepo(project, '')).toHaveLength(4);
    expect(await c.listBranch(project, '')).toHaveLength(2);
  });

  it('TestDeleteRepo: DeleteRepo answers deleted', async () => {
    const c = await env.fresh();
    const dataRepo = unique('TestDeleteSpecRepo_data');
    await c.createRepo(project, dataRepo);
    const res = await c.grpc.unary(pfs_v2.API.method.deleteRepo, {
      repo: c.repo(project, dataRepo),
    });
    expect(res.deleted).toBe(true);
  });
});
