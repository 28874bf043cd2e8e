import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BranchInfo, RepoInfo } from '@ivory/api';
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
