import { expect, test } from '@playwright/test';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testIds } from '../../web/src/test-ids.ts';
import {
  call,
  commitFiles,
  commitManyFiles,
  createRepo,
  manyFileName,
  tarEntries,
} from '../support/data-api.ts';
import type { CommitInfo } from '@ivory/api';

// Browsing and changing data on the seeded demo plus generated repos.

test('projects: counts, create, edit the description, delete', async ({ page }) => {
  await page.goto('/');
  const demo = page.getByTestId(testIds.projectRow).filter({ hasText: 'default' });
  await expect(demo.getByRole('cell').nth(2)).toHaveText(/^\d+$/);
  await expect(demo.getByRole('cell').nth(3)).toHaveText(/^(\d+|n\/a)$/);

  await page.getByTestId(testIds.createProjectButton).click();
  await page.getByLabel('Project name').fill('e2e-data');
  await page.getByLabel('Project description').fill('made by e2e');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const row = page.getByTestId(testIds.projectRow).filter({ hasText: 'e2e-data' });
  await expect(row).toContainText('made by e2e');

  await row.getByTestId(testIds.editProjectButton).click();
  await page.getByLabel('Project description').fill('edited by e2e');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(row).toContainText('edited by e2e');

  await row.getByTestId(testIds.deleteProjectButton).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(row).toHaveCount(0);
});

test('repos: create, label, side panel, delete', async ({ page }) => {
  await page.goto('/project/default/repos');
  await page.getByTestId(testIds.createRepoButton).click();
  await page.getByLabel('Repo name').fill('e2e-labels');
  await page.getByLabel('Repo description').fill('labelled repo');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const row = page.getByTestId(testIds.repoRow).filter({ hasText: 'e2e-labels' });
  await expect(row).toContainText('labelled repo');

  await row.getByTestId(testIds.editLabelsButton).click();
  await page.getByRole('button', { name: 'Add label' }).click();
  await page.getByLabel('Label 1 key').fill('team');
  await page.getByLabel('Label 1 value').fill('data');
  await page.getByRole('button', { name: 'Save labels' }).click();
  await expect(row).toContainText('team=data');

  const samples = page.getByTestId(testIds.repoRow).filter({ hasText: 'samples' });
  await samples.getByRole('button', { name: 'Details of samples' }).click();
  const panel = page.getByTestId(testIds.repoPanel);
  await expect(panel).toContainText('master');
  await expect(panel).toContainText('Remove the 2023 archive');
  await page.keyboard.press('Escape');

  await row.getByTestId(testIds.deleteRepoButton).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(row).toHaveCount(0);
});

test('commits: details, states and a branch created from an older commit', async ({ page }) => {
  await page.goto('/project/default/repos/samples/latest');
  await expect(page.getByTestId(testIds.commitRow)).toHaveCount(3);
  const details = page.getByTestId(testIds.commitDetails);
  await expect(details).toContainText('Remove the 2023 archive');
  await expect(details).toContainText('finished');
  await expect(page.getByTestId(testIds.commitRow).first()).toContainText('parent');

  await page
    .getByTestId(testIds.commitRow)
    .filter({ hasText: 'Initial samples' })
    .getByRole('button', { name: 'Initial samples' })
    .click();
  await expect(details).toContainText('Initial samples');
  await page.getByTestId(testIds.createBranchButton).click();
  await page.getByLabel('Branch name').fill('from-initial');
  await page.getByRole('button', { name: 'Create branch' }).click();
  await page.getByTestId(testIds.branchSelect).click();
  await expect(page.locator('.ant-select-item-option[title="from-initial"]')).toBeVisible();
});

test('diff: a commit against its parent and against any commit', async ({ page }, testInfo) => {
  const baseUrl = String(testInfo.project.use.baseURL);
  await createRepo(baseUrl, 'diffs');
  const first = await commitFiles(baseUrl, 'diffs', {
    '/t.txt': 'alpha\nbeta\ngamma\n',
    '/gone.txt': 'bye',
  });
  const second = await commitFiles(
    baseUrl,
    'diffs',
    { '/t.txt': 'alpha\nBETA CHANGED\ngamma\n', '/new.txt': 'hello' },
    { deletions: ['/gone.txt'] },
  );
  await page.goto(`/project/default/repos/diffs/commit/${second}?view=changes`);
  const rows = page.getByTestId(testIds.diffFileRow);
  await expect(rows.filter({ hasText: '/gone.txt' })).toContainText('removed');
  await expect(rows.filter({ hasText: '/new.txt' })).toContainText('added');
  await expect(rows.filter({ hasText: '/t.txt' })).toContainText('changed');
  await rows.filter({ hasText: '/t.txt' }).getByText('/t.txt').click();
  const diff = page.getByTestId(testIds.textDiff);
  await expect(diff.locator('[data-kind="added"]')).toContainText('BETA CHANGED');
  await expect(diff.locator('[data-kind="removed"]')).toContainText('beta');

  // The same commit against an explicit other commit (here: itself → nothing changed).
  await page.getByLabel('Compare with commit').fill(second);
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page).toHaveURL(new RegExp(`compare=${second}`));
  await expect(page.getByText('No files changed')).toBeVisible();
  // The 8 characters shown everywhere are enough; the picker offers the commit as you type.
  await page.getByLabel('Compare with commit').fill(first.slice(0, 8));
  await expect(
    page.locator('.ant-select-item-option').filter({ hasText: first.slice(0, 8) }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page).toHaveURL(new RegExp(`compare=${first}`));
  await expect(rows.filter({ hasText: '/new.txt' })).toContainText('added');
  // A start that is no commit of the repo says so, rather than silently comparing nothing.
  await page.getByLabel('Compare with commit').fill('abcdabcd');
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'No commit of this repo starts with abcdabcd.' }),
  ).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`compare=${first}`));
});

test('a folder of 100,000 files opens at once and scrolls to its last file', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const baseUrl = String(testInfo.project.use.baseURL);
  await createRepo(baseUrl, 'huge');
  const started = Date.now();
  const commitId = await commitManyFiles(baseUrl, 'huge', '/big', 100_000);
  testInfo.annotations.push({
    type: 'generate 100,000 files',
    description: `${Date.now() - started} ms`,
  });

  const opened = Date.now();
  await page.goto(`/project/default/repos/huge/commit/${commitId}/big/`);
  await expect(page.getByTestId(testIds.fileRow).first()).toContainText(manyFileName(0));
  testInfo.annotations.push({ type: 'first rows', description: `${Date.now() - opened} ms` });

  // Rows are links: Tab to one and press Enter.
  await page.getByRole('link', { name: manyFileName(1) }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/big/${manyFileName(1)}$`));
  await expect(page.getByTestId(testIds.filePreview)).toContainText('small file');

  const list = page.getByTestId(testIds.fileList);
  const last = `/big/${manyFileName(99_999)}`;
  await expect(async () => {
    await list.evaluate((node) => node.scrollTo({ top: node.scrollHeight }));
    await expect(list.locator(`[data-path="${last}"]`)).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 180_000, intervals: [100] });
  await expect(list).toHaveAttribute('data-count', '100000');
  // Only a window of rows is in the DOM.
  expect(await page.getByTestId(testIds.fileRow).count()).toBeLessThan(60);
});

test('upload a folder and open the new commit', async ({ page }, testInfo) => {
  const baseUrl = String(testInfo.project.use.baseURL);
  await createRepo(baseUrl, 'uploads');
  const dir = mkdtempSync(join(tmpdir(), 'ivory-upload-'));
  mkdirSync(join(dir, 'set', 'sub'), { recursive: true });
  writeFileSync(join(dir, 'set', 'a.txt'), 'file a');
  writeFileSync(join(dir, 'set', 'sub', 'b.txt'), 'file b');

  await page.goto('/project/default/repos/uploads/upload');
  await expect(page.getByRole('heading', { name: 'Upload Files' })).toBeVisible();
  // The pickers are buttons (they read as plain text, and a label took no keyboard focus).
  await page.getByRole('button', { name: 'Choose a folder' }).focus();
  await expect(page.getByRole('button', { name: 'Choose a folder' })).toBeFocused();
  await page.getByTestId(testIds.uploadFolderInput).setInputFiles(join(dir, 'set'));
  await expect(page.getByTestId(testIds.uploadFileRow)).toHaveCount(2);
  await expect(page.getByText('Total: 2 files')).toBeVisible();
  await page.getByLabel('Destination path').fill('/in');
  await page.getByLabel('Commit message').fill('Uploaded from e2e');
  await page.getByTestId(testIds.uploadSubmit).click();
  const result = page.getByTestId(testIds.uploadResult);
  await expect(result).toContainText('Uploaded 2 files');
  await expect(page.getByTestId(testIds.uploadFileRow).first()).toHaveAttribute(
    'data-status',
    'success',
  );
  await result.getByRole('link').click();

  await expect(page).toHaveURL(/\/repos\/uploads\/commit\/[0-9a-f]+/);
  await expect(page.getByTestId(testIds.commitDetails)).toContainText('Uploaded from e2e');
  await expect(page.getByTestId(testIds.commitRow)).toHaveCount(1);
  await page.getByRole('link', { name: 'in', exact: true }).click();
  await page.getByRole('link', { name: 'set', exact: true }).click();
  await expect(page.getByTestId(testIds.fileRow).filter({ hasText: 'a.txt' })).toBeVisible();
  await expect(page.getByTestId(testIds.fileRow).filter({ hasText: 'sub' })).toBeVisible();
});

test('download a selection and a folder as tar archives', async ({ page }) => {
  await page.goto('/project/default/repos/samples/latest');
  const rows = page.getByTestId(testIds.fileRow);
  await rows.filter({ hasText: 'README.md' }).getByTestId(testIds.fileSelect).check();
  await rows.filter({ hasText: 'data' }).getByTestId(testIds.fileSelect).check();
  const [selection] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(testIds.downloadSelection).click(),
  ]);
  expect(selection.suggestedFilename()).toBe('samples.tar');
  const entries = await tarEntries(readFileSync(await selection.path()));
  expect(entries['README.md']).toContain('# Samples');
  expect(entries['data/iris.csv']).toContain('virginica');
  expect(Object.keys(entries)).toContain('data/config.json');
  expect(Object.keys(entries).some((name) => name.includes('archive'))).toBe(false);

  await rows.filter({ hasText: 'data' }).getByRole('link', { name: 'data' }).click();
  const [folder] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download folder' }).click(),
  ]);
  const folderEntries = await tarEntries(readFileSync(await folder.path()));
  expect(Object.keys(folderEntries)).toEqual(
    expect.arrayContaining(['data/iris.csv', 'data/config.json']),
  );
});

test('delete files in a new commit', async ({ page }, testInfo) => {
  const baseUrl = String(testInfo.project.use.baseURL);
  await createRepo(baseUrl, 'deletes');
  const before = await commitFiles(baseUrl, 'deletes', { '/keep.txt': 'k', '/drop.txt': 'd' });
  await page.goto(`/project/default/repos/deletes/commit/${before}`);
  const rows = page.getByTestId(testIds.fileRow);
  await rows.filter({ hasText: 'drop.txt' }).getByTestId(testIds.fileSelect).check();
  await page.getByTestId(testIds.deleteSelection).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page).not.toHaveURL(new RegExp(before));
  await expect(rows.filter({ hasText: 'keep.txt' })).toBeVisible();
  await expect(rows.filter({ hasText: 'drop.txt' })).toHaveCount(0);
  const head = await call<CommitInfo>(baseUrl, 'pfs_v2.API/InspectCommit', {
    commit: {
      repo: { name: 'deletes', type: 'user', project: { name: 'default' } },
      id: '',
      branch: {
        repo: { name: 'deletes', type: 'user', project: { name: 'default' } },
        name: 'master',
      },
    },
  });
  await expect(page).toHaveURL(new RegExp(head.commit.id));
});

test('glob search and file history', async ({ page }) => {
  await page.goto('/project/default/repos/samples/latest');
  await page.getByLabel('Search files by glob pattern').fill('/**/*.csv');
  await page.getByLabel('Search files by glob pattern').press('Enter');
  const result = page.getByTestId(testIds.fileSearchResult).filter({ hasText: '/data/iris.csv' });
  await expect(result).toBeVisible();
  await result.getByRole('link').click();
  await expect(page).toHaveURL(/\/data\/iris\.csv$/);
  await page.getByRole('button', { name: 'Show file history' }).click();
  const history = page.getByTestId(testIds.fileHistoryRow);
  await expect(history.first()).toBeVisible();
  expect(await history.count()).toBeGreaterThanOrEqual(2);
  await expect(history.last()).toContainText('added');
});
