import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError, type BranchInfo, type RepoInfo } from '@ivory/api';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { renderApp } from '../../test/render.tsx';
import { testIds } from '../../test-ids.ts';

const repoOf = (name: string) => ({ name, type: 'user', project: { name: 'default' } });

function repoInfo(name: string, sizeBytes: string, created: string): RepoInfo {
  return {
    repo: repoOf(name),
    created,
    sizeBytesUpperBound: sizeBytes,
    description: `${name} repo`,
    branches: [{ repo: repoOf(name), name: 'master' }],
    authInfo: null,
    details: { sizeBytes },
    metadata: {},
  };
}

function branchInfo(name: string, headId: string): BranchInfo {
  return {
    branch: { repo: repoOf('images'), name },
    head: { repo: repoOf('images'), id: headId, branch: null },
    provenance: [],
    subvenance: [],
    directProvenance: [],
    branchPropagationSpecs: [],
    trigger: null,
    metadata: {},
    createdBy: '',
    createdAt: null,
    updatedAt: null,
  };
}

describe('repos list', () => {
  it('lists repos sorted by name, each linking to its latest commit', async () => {
    const client = createFakeApiClient({
      'pfs_v2.API/ListRepo': () => [
        repoInfo('samples', '10', '2025-01-02T00:00:00Z'),
        repoInfo('images', '2000', '2025-01-01T00:00:00Z'),
      ],
    });
    renderApp('/project/default/repos', client);
    const rows = await screen.findAllByTestId(testIds.repoRow, {}, { timeout: 15_000 });
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'images',
      'samples',
    ]);
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: 'images' })).toHaveAttribute(
      'href',
      '/project/default/repos/images/latest',
    );
    expect(rows[0]).toHaveTextContent('2.00 kB');
  }, 30_000);
});

describe('repos pages', () => {
  it('draws the first page from one ListRepo page and asks the platform for the next', async () => {
    const names = Array.from({ length: 45 }, (_, i) => `repo-${String(i).padStart(2, '0')}`);
    const client = createFakeApiClient({
      'pfs_v2.API/ListRepo': (body) => {
        const page = (body as { page?: { pageSize: string; pageIndex: string } }).page;
        if (!page) throw new Error('the list asked for every repo');
        const start = Number(page.pageIndex) * Number(page.pageSize);
        return names
          .slice(start, start + Number(page.pageSize))
          .map((name) => repoInfo(name, '1', '2025-01-01T00:00:00Z'));
      },
      'pfs_v2.API/ReposSummary': () => ({
        summaries: [{ project: { name: 'default' }, userRepoCount: '45', sizeBytes: '45' }],
      }),
      'pfs_v2.API/ListCommit': () => [],
      'auth_v2.API/Authorize': () => ({ authorized: true, missing: [], satisfied: [] }),
    });
    renderApp('/project/default/repos', client);
    const rows = await screen.findAllByTestId(testIds.repoRow, {}, { timeout: 15_000 });
    expect(rows).toHaveLength(20);
    expect(rows[0]).toHaveTextContent('repo-00');
    expect(await screen.findByText(/45 repos/)).toBeInTheDocument();
    const listCalls = () => client.calls.filter((c) => c.method === 'pfs_v2.API/ListRepo');
    expect(listCalls()).toHaveLength(1);

    screen.getByTitle('3').click();
    await waitFor(
      () => expect(screen.getAllByTestId(testIds.repoRow)[0]).toHaveTextContent('repo-40'),
      {
        timeout: 15_000,
      },
    );
    expect(screen.getAllByTestId(testIds.repoRow)).toHaveLength(5);
    expect(listCalls().at(-1)?.body).toMatchObject({
      page: { pageSize: '20', pageIndex: '2' },
    });
  }, 30_000);
});

describe('latest commit', () => {
  it('redirects to the head of master, else of the first branch', async () => {
    const client = createFakeApiClient({
      'pfs_v2.API/ListBranch': () => [branchInfo('dev', 'd1'), branchInfo('master', 'm1')],
      'pfs_v2.API/InspectCommit': () => ({
        commit: { repo: repoOf('images'), id: 'm1' },
        details: null,
      }),
      'pfs_v2.API/ListCommit': () => [],
      'pfs_v2.API/ListFile': () => [],
    });
    const { router } = renderApp('/project/default/repos/images/latest', client);
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/project/default/repos/images/commit/m1'),
      { timeout: 15_000 },
    );
    expect(
      await screen.findByTestId(testIds.fileList, {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
  }, 30_000);
});

describe('row extras', () => {
  it("a row links its last commit and Delete follows the caller's permission in ListRepo's answer", async () => {
    const client = createFakeApiClient({
      'pfs_v2.API/ListRepo': () => [
        {
          ...repoInfo('images', '1', '2025-01-01T00:00:00Z'),
          authInfo: { permissions: ['REPO_READ'], roles: ['repoReader'] },
        },
        {
          ...repoInfo('samples', '1', '2025-01-01T00:00:00Z'),
          authInfo: { permissions: ['REPO_READ', 'REPO_DELETE'], roles: ['repoOwner'] },
        },
      ],
      'pfs_v2.API/ReposSummary': () => ({
        summaries: [{ project: { name: 'default' }, userRepoCount: '1', sizeBytes: '1' }],
      }),
      'pfs_v2.API/ListCommit': () => [
        { commit: { repo: repoOf('images'), id: 'c0ffee0123456789' }, description: 'first' },
      ],
      'auth_v2.API/Authorize': () => ({
        authorized: false,
        missing: ['REPO_DELETE'],
        satisfied: [],
      }),
    });
    renderApp('/project/default/repos', client);
    const [row, other] = await screen.findAllByTestId(testIds.repoRow, {}, { timeout: 15_000 });
    const commitLink = await within(row as HTMLElement).findByRole(
      'link',
      { name: 'c0ffee01' },
      { timeout: 15_000 },
    );
    expect(commitLink).toHaveAttribute(
      'href',
      '/project/default/repos/images/commit/c0ffee0123456789',
    );
    await waitFor(
      () =>
        expect(
          within(row as HTMLElement).getByRole('button', { name: 'Delete images' }),
        ).toBeDisabled(),
      { timeout: 15_000 },
    );
    expect(
      within(row as HTMLElement).getByRole('button', { name: 'Delete images' }),
    ).toHaveAttribute('title', 'Deleting this repo needs the repoOwner role.');
    expect(
      within(other as HTMLElement).getByRole('button', { name: 'Delete samples' }),
    ).toBeEnabled();
    // The rows' permissions came with the list: no Authorize call per row.
    const asked = client.calls.filter((c) => c.method === 'auth_v2.API/Authorize');
    expect(asked.some((c) => JSON.stringify(c.body).includes('REPO_DELETE'))).toBe(false);
  }, 30_000);
});

describe('last commits', () => {
  const names = Array.from({ length: 45 }, (_, i) => `repo-${String(i).padStart(2, '0')}`);
  const commitOf = (name: string) => ({
    commit: { repo: repoOf(name), id: `${name.replace('repo-', 'c0')}aaaaaaaaaaaa`, branch: null },
    description: `newest of ${name}`,
  });
  const pagedRepos = {
    'pfs_v2.API/ListRepo': (body: unknown) => {
      const page = (body as { page: { pageSize: string; pageIndex: string } }).page;
      const start = Number(page.pageIndex) * Number(page.pageSize);
      return names
        .slice(start, start + Number(page.pageSize))
        .map((name) => repoInfo(name, '1', '2025-01-01T00:00:00Z'));
    },
    'pfs_v2.API/ReposSummary': () => ({
      summaries: [{ project: { name: 'default' }, userRepoCount: '45', sizeBytes: '45' }],
    }),
  };
  const namedIn = (body: unknown) =>
    (body as { repos: { name: string; project: { name: string } }[] }).repos.map((r) => r.name);

  it("draws a page's last commits from one ListRepoHeads call for its rows", async () => {
    const client = createFakeApiClient({
      ...pagedRepos,
      'pfs_v2.API/ListRepoHeads': (body) =>
        // repo-03 has no commit; the others answer their newest.
        namedIn(body).map((name) => ({
          repo: repoOf(name),
          head: name === 'repo-03' ? null : commitOf(name),
        })),
    });
    renderApp('/project/default/repos', client);
    const rows = await screen.findAllByTestId(testIds.repoRow, {}, { timeout: 15_000 });
    expect(
      await within(rows[1] as HTMLElement).findByRole(
        'link',
        { name: 'c001aaaa' },
        { timeout: 15_000 },
      ),
    ).toHaveAttribute('href', '/project/default/repos/repo-01/commit/c001aaaaaaaaaaaa');
    await waitFor(() => expect(rows[19]).toHaveTextContent('c019aaaa'));
    expect(within(rows[3] as HTMLElement).queryByRole('link', { name: /^c0/ })).toBeNull();
    const heads = () => client.calls.filter((c) => c.method === 'pfs_v2.API/ListRepoHeads');
    expect(heads()).toHaveLength(1);
    expect(namedIn(heads()[0]?.body)).toEqual(names.slice(0, 20));
    expect((heads()[0]?.body as { repos: unknown[] }).repos[0]).toEqual({
      name: 'repo-00',
      type: 'user',
      project: { name: 'default' },
    });
    expect(client.calls.some((c) => c.method === 'pfs_v2.API/ListCommit')).toBe(false);

    // The next page: one more call, for its rows only.
    screen.getByTitle('2').click();
    await waitFor(
      () => expect(screen.getAllByTestId(testIds.repoRow)[0]).toHaveTextContent('c020aaaa'),
      { timeout: 15_000 },
    );
    expect(heads()).toHaveLength(2);
    expect(namedIn(heads()[1]?.body)).toEqual(names.slice(20, 40));
    expect(client.calls.some((c) => c.method === 'pfs_v2.API/ListCommit')).toBe(false);
  }, 30_000);

  it('falls back to a ListCommit per row where the platform has no ListRepoHeads, and remembers', async () => {
    const client = createFakeApiClient({
      ...pagedRepos,
      // A Pachyderm gateway answers an unknown route 404 (code 5).
      'pfs_v2.API/ListRepoHeads': () => {
        throw new ApiError(5, 'Not Found', [], 404);
      },
      'pfs_v2.API/ListCommit': (body) => [commitOf((body as { repo: { name: string } }).repo.name)],
    });
    renderApp('/project/default/repos', client);
    const rows = await screen.findAllByTestId(testIds.repoRow, {}, { timeout: 15_000 });
    await waitFor(() => expect(rows[19]).toHaveTextContent('c019aaaa'), { timeout: 15_000 });
    expect(rows[0]).toHaveTextContent('c000aaaa');
    const calls = (method: string) => client.calls.filter((c) => c.method === method);
    expect(calls('pfs_v2.API/ListRepoHeads')).toHaveLength(1);
    expect(calls('pfs_v2.API/ListCommit')).toHaveLength(20);
    expect(calls('pfs_v2.API/ListCommit')[0]?.body).toMatchObject({ number: '1' });

    // The next page asks row by row at once, without trying the batch again.
    screen.getByTitle('2').click();
    await waitFor(
      () => expect(screen.getAllByTestId(testIds.repoRow)[0]).toHaveTextContent('c020aaaa'),
      { timeout: 15_000 },
    );
    expect(calls('pfs_v2.API/ListRepoHeads')).toHaveLength(1);
    await waitFor(() => expect(calls('pfs_v2.API/ListCommit')).toHaveLength(40));
  }, 30_000);

  it('after a failure that passes (14) falls back for that page only and tries the batch again', async () => {
    let failures = 1;
    const client = createFakeApiClient({
      ...pagedRepos,
      'pfs_v2.API/ListRepoHeads': (body) => {
        if (failures-- > 0) throw new ApiError(14, 'unavailable', [], 503);
        return namedIn(body).map((name) => ({ repo: repoOf(name), head: commitOf(name) }));
      },
      'pfs_v2.API/ListCommit': (body) => [commitOf((body as { repo: { name: string } }).repo.name)],
    });
    renderApp('/project/default/repos', client);
    const rows = await screen.findAllByTestId(testIds.repoRow, {}, { timeout: 15_000 });
    await waitFor(() => expect(rows[19]).toHaveTextContent('c019aaaa'), { timeout: 15_000 });
    const calls = (method: string) => client.calls.filter((c) => c.method === method);
    expect(calls('pfs_v2.API/ListCommit')).toHaveLength(20);

    screen.getByTitle('2').click();
    await waitFor(
      () => expect(screen.getAllByTestId(testIds.repoRow)[0]).toHaveTextContent('c020aaaa'),
      { timeout: 15_000 },
    );
    expect(calls('pfs_v2.API/ListRepoHeads')).toHaveLength(2);
    expect(calls('pfs_v2.API/ListCommit')).toHaveLength(20);
  }, 30_000);
});
