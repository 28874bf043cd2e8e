import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testIds } from '../../web/src/test-ids.ts';
import { TEST_ACCOUNT, completeIdpSignIn } from '../support/auth-server.ts';
import { startClusterStack, streamResults, type ClusterStack } from '../support/cluster-stack.ts';
import { call, createRepo } from '../support/data-api.ts';
import type { CommitInfo } from '@ivory/api';

// Cluster mode in the browser: an embedded-mode server (seeded demo) plays the Pachyderm
// cluster, and the console is served by a second server with IVORY_PACHD_ADDRESS pointed at it.
// Every journey runs against the second server; what it wrote is checked on the first.
test.describe.configure({ mode: 'serial' });

async function browseToIris(page: Page, origin: string) {
  await page.goto(`${origin}/`);
  const project = page.getByTestId(testIds.projectRow).filter({ hasText: 'default' });
  await expect(project).toContainText('Demo project');
  await project.getByRole('link', { name: 'default' }).click();
  await expect(page).toHaveURL(/\/project\/default\/repos$/);
  await page.getByRole('link', { name: 'samples', exact: true }).click();
  await expect(page).toHaveURL(/\/project\/default\/repos\/samples\/commit\/[0-9a-f]{32}/);
  const files = page.getByTestId(testIds.fileRow);
  await files.filter({ hasText: 'data' }).first().click();
  await expect(page.getByTestId(testIds.breadcrumb).last()).toHaveText('data');
  const iris = files.filter({ hasText: 'iris.csv' });
  await expect(iris).toBeVisible();
  return iris;
}

test.describe('cluster mode without sign-in', () => {
  let stack: ClusterStack;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    stack = await startClusterStack();
  });

  test.afterAll(async () => {
    await stack?.stop();
  });

  /** A console path on the cluster-mode server. */
  const at = (path: string) => `${stack.origin}${path}`;

  test('browses to a file and downloads the bytes the cluster serves', async ({ page }) => {
    const iris = await browseToIris(page, stack.origin);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      iris.getByTestId(testIds.fileDownload).click(),
    ]);
    expect(download.suggestedFilename()).toBe('iris.csv');
    const url = new URL(download.url());
    expect(url.origin).toBe(stack.origin);
    const downloaded = await readFile(await download.path());
    expect(downloaded.toString()).toContain('virginica');

    const upstream = await fetch(`${stack.upstreamUrl}${url.pathname}`);
    expect(upstream.status).toBe(200);
    expect(Buffer.compare(downloaded, Buffer.from(await upstream.arrayBuffer()))).toBe(0);
  });

  test('uploads a folder that lands as one commit on the cluster', async ({ page }) => {
    await createRepo(stack.upstreamUrl, 'cluster-uploads');
    const dir = mkdtempSync(join(tmpdir(), 'ivory-cluster-upload-'));
    mkdirSync(join(dir, 'set', 'sub'), { recursive: true });
    writeFileSync(join(dir, 'set', 'a.txt'), 'file a via the cluster');
    writeFileSync(join(dir, 'set', 'sub', 'b.txt'), 'file b via the cluster');

    await page.goto(at('/project/default/repos/cluster-uploads/upload'));
    await expect(page.getByRole('heading', { name: 'Upload Files' })).toBeVisible();
    await page.getByTestId(testIds.uploadFolderInput).setInputFiles(join(dir, 'set'));
    await expect(page.getByTestId(testIds.uploadFileRow)).toHaveCount(2);
    await page.getByLabel('Destination path').fill('/in');
    await page.getByLabel('Commit message').fill('Uploaded through cluster mode');
    await page.getByTestId(testIds.uploadSubmit).click();
    const result = page.getByTestId(testIds.uploadResult);
    await expect(result).toContainText('Uploaded 2 files');
    await result.getByRole('link').click();

    await expect(page).toHaveURL(/\/repos\/cluster-uploads\/commit\/[0-9a-f]+/);
    const commitId = /\/commit\/([0-9a-f]+)/.exec(page.url())?.[1];
    await expect(page.getByTestId(testIds.commitDetails)).toContainText(
      'Uploaded through cluster mode',
    );
    await page.getByRole('link', { name: 'in', exact: true }).click();
    await page.getByRole('link', { name: 'set', exact: true }).click();
    await expect(page.getByTestId(testIds.fileRow).filter({ hasText: 'a.txt' })).toBeVisible();
    await expect(page.getByTestId(testIds.fileRow).filter({ hasText: 'sub' })).toBeVisible();

    // The commit is the cluster's: its files are read straight from the upstream.
    const commit = await call<CommitInfo>(stack.upstreamUrl, 'pfs_v2.API/InspectCommit', {
      commit: {
        id: commitId,
        repo: { name: 'cluster-uploads', type: 'user', project: { name: 'default' } },
      },
    });
    expect(commit.description).toBe('Uploaded through cluster mode');
    expect(commit.finished).toBeTruthy();
    for (const [file, text] of [
      ['in/set/a.txt', 'file a via the cluster'],
      ['in/set/sub/b.txt', 'file b via the cluster'],
    ]) {
      const answer = await fetch(
        `${stack.upstreamUrl}/files/default/cluster-uploads/${commitId}/${file}`,
      );
      expect(answer.status, file).toBe(200);
      expect(await answer.text()).toBe(text);
    }
  });

  test("opens a job's logs and reads a log line", async ({ page }) => {
    const pipeline = { name: 'row-counts', project: { name: 'default' } };
    const jobs = await streamResults<{ job: { id: string } }>(
      stack.upstreamUrl,
      'pps_v2.API/ListJob',
      { pipeline, history: -1 },
    );
    expect(jobs.length).toBeGreaterThan(0);
    const job = jobs[0]!.job;
    await call(stack.upstreamUrl, 'pps_v2.API/InspectJob', { job, wait: true });

    await page.goto(at(`/project/default/pipelines/row-counts/jobs/${job.id}/logs`));
    await expect(page.getByRole('heading', { name: 'Job Logs', exact: true })).toBeVisible();
    await expect(
      page
        .getByTestId(testIds.logViewer)
        .getByTestId(testIds.logLine)
        .filter({
          hasText: /iris\.csv has \d+ lines/,
        }),
    ).toBeVisible({ timeout: 20_000 });
  });

  test('a stopped cluster shows "Unable to connect to API" and recovers when it returns', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto(at('/project/default/repos'));
    const samples = page.getByRole('link', { name: 'samples', exact: true });
    await expect(samples).toBeVisible();

    await stack.stopUpstream();
    const answer = await fetch(`${stack.origin}/api/pfs_v2.API/ListProject`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { code: number }).code).toBe(14);

    await page.reload();
    await expect(page.getByText('Unable to connect to API').first()).toBeVisible({
      timeout: 30_000,
    });

    await stack.startUpstream();
    await page.reload();
    await expect(samples).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Unable to connect to API')).toHaveCount(0);
  });
});

test.describe('cluster mode with sign-in', () => {
  let stack: ClusterStack;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    stack = await startClusterStack({ auth: true });
  });

  test.afterAll(async () => {
    await stack?.stop();
  });

  test('signs in through the popup and browses a file', async ({ page }) => {
    await page.goto(`${stack.origin}/`);
    await expect(page.getByTestId(testIds.loginScreen)).toBeVisible();
    const popupOpened = page.waitForEvent('popup');
    await page.getByTestId(testIds.signInButton).click();
    const popup = await popupOpened;
    await completeIdpSignIn(popup);
    await popup.waitForEvent('close');
    await expect(page.getByTestId(testIds.accountName)).toHaveText(TEST_ACCOUNT.name);

    // Paths relative to the page's origin: the cluster-mode server.
    await page.goto(`${stack.origin}/project/default/repos/samples/latest`);
    const files = page.getByTestId(testIds.fileRow);
    await files.filter({ hasText: 'data' }).first().click();
    await files.filter({ hasText: 'iris.csv' }).getByRole('link').first().click();
    await expect(page).toHaveURL(/\/data\/iris\.csv$/);
    await expect(page.getByTestId(testIds.filePreview)).toContainText('virginica');
  });
});
