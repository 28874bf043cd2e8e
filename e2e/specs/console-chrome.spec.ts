import { expect, test, type Locator, type Page } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';
import { streamResults } from '../support/cluster-stack.ts';
import { call, createRepo } from '../support/data-api.ts';

// The spec's screen chrome at work: the full-page panel for logs, resizable panel groups on the
// commit screen, the full-page modal for the pipeline editor, and status banners.

const width = async (locator: Locator) => (await locator.boundingBox())!.width;

/** Moves a panel handle with the keyboard and waits for the layout to be saved. */
async function nudge(page: Page, handle: string, key: 'ArrowLeft' | 'ArrowRight') {
  await page.getByRole('separator', { name: handle }).focus();
  await page.keyboard.press(key);
  // The layout is saved a moment after the last change.
  await page.waitForTimeout(400);
}

test('job logs open as a full-page panel over the lineage graph and Exit returns to the graph with the selection kept', async ({
  page,
}) => {
  await page.goto('/lineage/default/pipelines/row-counts/jobs');
  const side = page.getByTestId(testIds.lineageSidePanel);
  await side.getByTestId(testIds.jobRow).first().getByRole('link').click();

  const dialog = page.getByRole('dialog', { name: 'Job Logs' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(
    /\/lineage\/default\/pipelines\/row-counts\/jobs\/[0-9a-f]{32}\/logs$/,
  );
  // The panel covers the viewport; the graph stays underneath it.
  const box = (await dialog.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.width).toBeGreaterThanOrEqual(viewport.width - 1);
  expect(box.height).toBeGreaterThanOrEqual(viewport.height - 1);
  await expect(page.getByTestId(testIds.lineageNode).first()).toBeAttached();
  // Datums on the left, the logs in the middle, the job's summary with Exit on the right.
  await expect(dialog.getByRole('complementary', { name: 'Datums' })).toBeVisible();
  await expect(dialog.getByTestId(testIds.logViewer)).toBeVisible();
  const summary = dialog.getByRole('complementary', { name: 'Job summary' });
  await expect(summary.getByTestId(testIds.jobState).first()).toHaveAttribute(
    'data-state',
    'JOB_SUCCESS',
  );

  // A datum's logs open in the same panel.
  await dialog.getByTestId(testIds.datumRow).first().getByRole('link').click();
  await expect(page).toHaveURL(/\/logs\/datum\/[0-9a-f]+$/);
  await expect(dialog.getByTestId(testIds.datumDetail)).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Datum logs' })).toBeVisible();

  await summary.getByRole('button', { name: 'Exit' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/lineage\/default\/pipelines\/row-counts\/jobs$/);
  await expect(side).toBeVisible();
  await expect(side.getByRole('heading', { name: 'row-counts' })).toBeVisible();
  await expect(side.getByRole('tab', { name: 'Jobs' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId(testIds.lineageNode).first()).toBeVisible();

  // Escape leaves the panel the same way.
  await side.getByTestId(testIds.jobRow).first().getByRole('link').click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/lineage\/default\/pipelines\/row-counts\/jobs$/);
});

test('pipeline logs open over the lineage graph too, and closing returns to the pipeline', async ({
  page,
}) => {
  await page.goto('/lineage/default/pipelines/row-counts');
  await page.getByTestId(testIds.pipelinePanel).getByRole('button', { name: 'Read logs' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pipeline Logs: row-counts' });
  await expect(dialog.getByTestId(testIds.logViewer)).toBeVisible();
  await expect(page).toHaveURL(/\/lineage\/default\/logs\/pipelines\/row-counts\/logs$/);
  await expect(page.getByTestId(testIds.lineageNode).first()).toBeAttached();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/lineage\/default\/pipelines\/row-counts$/);
  await expect(page.getByTestId(testIds.lineageSidePanel)).toBeVisible();
});

test('commit list | files | preview panel sizes survive a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/project/default/repos/samples/latest');
  await expect(page).toHaveURL(/\/commit\/[0-9a-f]{32}/);
  await page.getByTestId(testIds.fileRow).getByRole('link', { name: 'README.md' }).click();
  const history = page.getByTestId(testIds.commitHistoryPanel);
  const preview = page.getByTestId(testIds.filePreviewPanel);
  await expect(preview).toBeVisible();
  const historyBefore = await width(history);
  await nudge(page, 'Resize the commit history', 'ArrowRight');
  await expect.poll(() => width(history)).toBeGreaterThan(historyBefore + 40);
  const previewBefore = await width(preview);
  await nudge(page, 'Resize the file preview', 'ArrowLeft');
  await expect.poll(() => width(preview)).toBeGreaterThan(previewBefore + 20);
  const historyResized = await width(history);
  const previewResized = await width(preview);

  await page.reload();
  await expect(preview).toBeVisible();
  await expect.poll(async () => Math.abs((await width(history)) - historyResized)).toBeLessThan(4);
  await expect.poll(async () => Math.abs((await width(preview)) - previewResized)).toBeLessThan(4);
});

test('create and update pipeline open in the full-page modal; Cancel goes back, asking first when the spec was typed in', async ({
  page,
}) => {
  await page.goto('/lineage/default/pipelines/row-counts');
  await page.getByTestId(testIds.pipelinePanel).getByRole('button', { name: 'Update' }).click();
  const editor = page.getByRole('dialog', { name: 'Pipeline Editor' });
  await expect(editor).toBeVisible();
  await expect(page).toHaveURL(/\/lineage\/default\/update\/pipeline\/row-counts$/);
  const box = (await editor.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(page.viewportSize()!.width - 1);
  await expect(editor.getByTestId(testIds.specEditor).locator('.cm-content')).toContainText(
    'row-counts',
  );
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toHaveCount(0);
  await expect(page).toHaveURL(/\/lineage\/default\/pipelines\/row-counts$/);

  await page.goto('/lineage/default/create/pipeline');
  const creator = page.getByRole('dialog', { name: 'Pipeline Editor' });
  await expect(creator).toBeVisible();
  // A typed spec is not thrown away without asking: Escape asks, "Keep editing" keeps it.
  const content = creator.getByTestId(testIds.specEditor).locator('.cm-content');
  await content.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n');
  await page.keyboard.press('Escape');
  const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(ask).toHaveCount(0);
  await expect(page).toHaveURL(/\/lineage\/default\/create\/pipeline$/);
  await creator.getByRole('button', { name: 'Close' }).click();
  await page
    .getByRole('dialog', { name: 'Discard your changes?' })
    .getByRole('button', { name: 'Discard' })
    .click();
  await expect(page).toHaveURL(/\/lineage\/default$/);
});

test('a failed pipeline and its failed job show error banners', async ({ page, baseURL }) => {
  const name = 'banner-fails';
  await call(baseURL!, 'pps_v2.API/CreatePipelineV2', {
    createPipelineRequestJson: JSON.stringify({
      pipeline: { name, project: { name: 'default' } },
      transform: { cmd: ['sh', '-c', 'echo broken; exit 2'] },
      datumTries: 1,
      input: { pfs: { repo: 'samples', glob: '/' } },
    }),
    update: true,
    dryRun: false,
  });
  await page.goto(`/lineage/default/pipelines/${name}`);
  const banner = page.getByTestId(testIds.pipelineStatusBanner);
  await expect(banner.getByRole('alert')).toContainText('failed', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Jobs' }).click();
  await page.getByTestId(testIds.jobRow).first().getByRole('link').click();
  const dialog = page.getByRole('dialog', { name: 'Job Logs' });
  await expect(dialog.getByRole('alert').filter({ hasText: 'Job failed' })).toBeVisible();
  await call(baseURL!, 'pps_v2.API/DeletePipeline', {
    pipeline: { name, project: { name: 'default' } },
    force: true,
  });
});

test('empty screens say what to do next and put the action right there', async ({
  page,
  baseURL,
}) => {
  const project = 'empty-e2e';
  await call(baseURL!, 'pfs_v2.API/CreateProject', { project: { name: project }, update: true });
  const empty = page.getByTestId(testIds.emptyState);

  await page.goto(`/project/${project}/repos`);
  await expect(empty).toContainText('No repositories yet');
  await empty.getByRole('button', { name: 'Create repo' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.goto(`/project/${project}/pipelines`);
  await expect(empty).toContainText('No pipelines yet');
  await empty.getByRole('button', { name: 'Create pipeline' }).click();
  await expect(page).toHaveURL(new RegExp(`/lineage/${project}/create/pipeline$`));
  await expect(page.getByRole('dialog', { name: 'Pipeline Editor' })).toBeVisible();

  await page.goto(`/project/${project}/trials`);
  await expect(empty).toContainText('No trials yet');
  await expect(empty.getByRole('button', { name: 'Create trial' })).toBeVisible();

  await createRepo(baseURL!, 'no-commits', '', project);
  await page.goto(`/project/${project}/repos/no-commits/latest`);
  await expect(empty).toContainText('has no commits yet');
  await empty.getByRole('button', { name: 'Upload files' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${project}/repos/no-commits/upload$`));
});

test('the top-bar search finds jobs and global IDs of the project', async ({ page, baseURL }) => {
  const jobs = await streamResults<{ job: { id: string } }>(baseURL!, 'pps_v2.API/ListJob', {
    pipeline: { name: 'row-counts', project: { name: 'default' } },
    history: -1,
  });
  const jobId = jobs[0]!.job.id;
  await page.goto('/project/default/repos');
  const search = page.getByTestId(testIds.projectSearch);
  const option = (label: string) => page.locator(`datalist option[value="${label}"]`);

  await search.fill(jobId.slice(0, 8));
  await expect(option(`Job ${jobId} of row-counts`)).toHaveCount(1);
  await expect(option(`Global ID ${jobId}`)).toHaveCount(1);
  // Picking a suggestion puts its whole label in the box, which opens it.
  await search.fill(`Job ${jobId} of row-counts`);
  await expect(page).toHaveURL(
    new RegExp(`/lineage/default/pipelines/row-counts/jobs/${jobId}/logs$`),
  );
  // The logs open over the graph, with the job's pipeline selected under them.
  await expect(page.getByTestId(testIds.lineageSidePanel)).toContainText('row-counts');
  await expect(page.getByRole('dialog', { name: 'Job Logs' })).toBeVisible();

  await page.goto('/project/default/repos');
  await search.fill(jobId.slice(0, 8));
  await expect(option(`Global ID ${jobId}`)).toHaveCount(1);
  await search.press('Enter');
  // Enter opens the first suggestion: the job.
  await expect(page).toHaveURL(new RegExp(`/jobs/${jobId}/logs$`));
  await page.goto('/project/default/repos');
  await search.fill(jobId.slice(0, 8));
  await expect(option(`Global ID ${jobId}`)).toHaveCount(1);
  await search.fill(`Global ID ${jobId}`);
  await expect(page).toHaveURL(new RegExp(`/lineage/default\\?globalId=${jobId}$`));
});
