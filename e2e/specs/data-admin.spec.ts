import { expect, test } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';
import { call, commitFiles, createRepo, repoOf } from '../support/data-api.ts';
import type { ClusterInfo, CommitInfo } from '@ivory/api';

// Data administration: file history (FindCommits), squash / drop of a commit, the storage check.

async function branchHead(baseUrl: string, repo: string, branch = 'master') {
  return call<CommitInfo>(baseUrl, 'pfs_v2.API/InspectCommit', {
    commit: { repo: repoOf(repo), id: '', branch: { repo: repoOf(repo), name: branch } },
  });
}

test('file history lists the commits that changed a file', async ({ page, baseURL }) => {
  const head = await branchHead(baseURL ?? '', 'samples');
  await page.goto(`/project/default/repos/samples/commit/${head.commit.id}/data/iris.csv`);
  await page.getByRole('button', { name: 'Show file history' }).click();
  const rows = page.getByTestId(testIds.fileHistoryRow);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Add virginica rows');
  await expect(rows.nth(0)).toContainText('changed');
  await expect(rows.nth(1)).toContainText('Initial samples');
  await expect(rows.nth(1)).toContainText('added');
  await expect(page.getByTestId(testIds.fileHistory)).not.toContainText('Remove the 2023 archive');
});

test('drop the newest commit, squash a middle one', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  // A repo of its own per run, so the test can repeat (--repeat-each) on one server.
  const repo = `e2e-admin-${Date.now().toString(36)}`;
  await createRepo(base, repo);
  const c1 = await commitFiles(base, repo, { 'a.txt': 'a\n' }, { description: 'first' });
  const c2 = await commitFiles(base, repo, { 'b.txt': 'b\n' }, { description: 'second' });
  const c3 = await commitFiles(base, repo, { 'c.txt': 'c\n' }, { description: 'third' });
  const c4 = await commitFiles(base, repo, { 'd.txt': 'd\n' }, { description: 'fourth' });
  const details = page.getByTestId(testIds.commitDetails);

  // A commit with children cannot be dropped: the server's reason is shown.
  await page.goto(`/project/default/repos/${repo}/commit/${c1}`);
  await expect(details).toContainText('first');
  await page.getByTestId(testIds.dropCommitButton).click();
  await page.getByRole('button', { name: 'Drop', exact: true }).click();
  await expect(page.getByTestId(testIds.commitRemovalError)).toContainText('has children');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Drop the newest: the branch head moves back to its parent.
  await page.goto(`/project/default/repos/${repo}/commit/${c4}`);
  await expect(details).toContainText('fourth');
  await page.getByTestId(testIds.dropCommitButton).click();
  await expect(page.getByTestId(testIds.commitRemovalText)).toContainText('Only the newest');
  await page.getByRole('button', { name: 'Drop', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/commit/${c3}`));
  await expect(details).toContainText('third');
  await expect(page.getByTestId(testIds.commitRow)).toHaveCount(3);
  expect((await branchHead(base, repo)).commit.id).toBe(c3);

  // Squash the middle one: its file stays in its child, which now follows the first commit.
  await page.goto(`/project/default/repos/${repo}/commit/${c2}`);
  await expect(details).toContainText('second');
  await page.getByTestId(testIds.squashCommitButton).click();
  await expect(page.getByTestId(testIds.commitRemovalText)).toContainText('nothing is lost');
  await page.getByRole('button', { name: 'Squash', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/commit/${c3}`));
  await expect(page.getByTestId(testIds.commitRow)).toHaveCount(2);
  await expect(page.getByTestId(testIds.fileRow).filter({ hasText: 'b.txt' })).toBeVisible();
  const head = await branchHead(base, repo);
  expect(head.commit.id).toBe(c3);
  expect(head.parentCommit?.id).toBe(c1);
});

test('cluster screen: id, version and a clean storage check', async ({ page, baseURL }) => {
  const cluster = await call<ClusterInfo>(baseURL ?? '', 'admin_v2.API/InspectCluster', {});
  await page.goto('/');
  await page.getByTestId(testIds.clusterLink).click();
  await expect(page).toHaveURL(/\/cluster$/);
  const facts = page.getByTestId(testIds.clusterFacts);
  await expect(facts).toContainText(cluster.id);
  await expect(facts).toContainText(/\d+\.\d+\.\d+/);
  await page.getByTestId(testIds.fsckButton).click();
  await expect(page.getByTestId(testIds.fsckReport)).toContainText('No problems found');
  await expect(page.getByTestId(testIds.fsckProblem)).toHaveCount(0);
});
