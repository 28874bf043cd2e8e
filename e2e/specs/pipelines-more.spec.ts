import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { testIds } from '../../web/src/test-ids.ts';
import { createPipelineViaApi, setEditorText, spec } from './pipelines-support.ts';
import type { GetClusterDefaultsResponse } from '@ivory/api';

test('stop a running job from its detail', async ({ page, request }) => {
  const name = 'sleepy-e2e';
  await createPipelineViaApi(request, spec(name, ['sh', '-c', 'echo started; sleep 20']));
  await page.goto('/project/default/jobs');
  const row = page.getByTestId(testIds.jobRow).filter({ hasText: name }).first();
  await expect(row.getByTestId(testIds.jobState)).toHaveAttribute('data-state', 'JOB_RUNNING', {
    timeout: 15_000,
  });
  await row.locator('a').first().click();
  const detail = page.getByTestId(testIds.jobDetail);
  await detail.getByRole('button', { name: 'Stop job' }).click();
  await expect(detail.getByTestId(testIds.jobState)).toHaveAttribute('data-state', 'JOB_KILLED');
  await expect(detail.getByRole('button', { name: 'Stop job' })).toHaveCount(0);
  await expect(row.getByTestId(testIds.jobState)).toHaveAttribute('data-state', 'JOB_KILLED');
});

test('run cron starts a new job of a cron pipeline', async ({ page, request }) => {
  const name = 'cron-e2e';
  await createPipelineViaApi(
    request,
    spec(name, ['sh', '-c', 'echo tick'], { input: { cron: { name: 'tick', spec: '@every 1h' } } }),
  );
  await page.goto(`/lineage/default/pipelines/${name}/jobs`);
  const panel = page.getByTestId(testIds.pipelinePanel);
  const jobs = panel.getByTestId(testIds.jobRow);
  await expect(panel.getByRole('tab', { name: 'Jobs' })).toHaveAttribute('aria-selected', 'true');
  // Let the list settle before counting.
  await page.waitForTimeout(1500);
  const before = await jobs.count();
  await panel.getByRole('button', { name: 'Run cron' }).click();
  await expect(page.getByText('Cron tick started')).toBeVisible();
  await expect(jobs).toHaveCount(before + 1, { timeout: 20_000 });
});

test('copy and download the selected log lines', async ({ page, context, request }) => {
  const name = 'chatty-e2e';
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await createPipelineViaApi(
    request,
    spec(name, ['sh', '-c', 'echo line-alpha; echo line-beta; echo line-gamma; echo line-delta']),
  );
  await page.goto(`/lineage/default/pipelines/${name}/jobs`);
  const job = page.getByTestId(testIds.pipelinePanel).getByTestId(testIds.jobRow).first();
  await expect(job.getByTestId(testIds.jobState)).toHaveAttribute('data-state', 'JOB_SUCCESS', {
    timeout: 30_000,
  });
  await job.getByRole('link').click();
  const viewer = page.getByTestId(testIds.logViewer);
  await expect(viewer).toContainText('line-delta');
  await viewer.getByRole('checkbox', { name: 'System' }).uncheck();
  const lines = viewer.getByTestId(testIds.logLine);
  await expect(viewer.locator('[data-user="false"]')).toHaveCount(0);
  await lines.filter({ hasText: 'line-alpha' }).click();
  await lines.filter({ hasText: 'line-gamma' }).click({ modifiers: ['Shift'] });

  await viewer.getByRole('button', { name: 'Copy (3)' }).click();
  await expect(page.getByText('Copied 3 lines')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const copiedLines = copied.split('\n');
  expect(copiedLines).toHaveLength(3);
  expect(copiedLines[0]).toContain('line-alpha');
  expect(copiedLines[1]).toContain('line-beta');
  expect(copiedLines[2]).toContain('line-gamma');

  const downloading = page.waitForEvent('download');
  await viewer.getByRole('button', { name: 'Download (3)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${name}-[0-9a-f]+\\.log$`));
  const text = readFileSync(await download.path(), 'utf8');
  expect(text).toBe(copied);
  expect(text).not.toContain('line-delta');
});

test('cluster defaults: dry run, save, and the saved JSON after a reload', async ({ page }) => {
  await page.goto('/project/default/defaults');
  await page.getByRole('radiogroup').getByText('Cluster', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Cluster Defaults' })).toBeVisible();
  const content = page.getByTestId(testIds.defaultsEditor).locator('.cm-content');
  await expect(content).toBeVisible();
  const saved = { createPipelineRequest: { datumTries: '4' } };
  await setEditorText(page, testIds.defaultsEditor, JSON.stringify(saved, null, 2));
  const affected = page.getByTestId(testIds.defaultsAffected);
  await expect(affected).toContainText('row-counts');
  await expect(affected).toContainText('summary');
  const save = page.getByRole('button', { name: 'Save defaults' });
  await expect(save).toBeEnabled();
  await save.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('row-counts');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Defaults saved')).toBeVisible();
  // Once saved, the same JSON changes nothing further.
  await expect(affected).toContainText('No pipeline changes');

  await page.reload();
  await page.getByRole('radiogroup').getByText('Cluster', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Cluster Defaults' })).toBeVisible();
  await expect(content).toContainText('"datumTries": "4"');
  const stored = await page.request.post('/api/pps_v2.API/GetClusterDefaults', { data: {} });
  const body = (await stored.json()) as GetClusterDefaultsResponse;
  expect(JSON.parse(body.clusterDefaultsJson)).toEqual(saved);
});

test('the pipelines screen keeps its tab in the URL', async ({ page }) => {
  await page.goto('/project/default/pipelines/jobs');
  await expect(page.getByRole('tab', { name: 'Jobs' })).toHaveAttribute('aria-selected', 'true');
  await expect(
    page.getByTestId(testIds.jobRow).filter({ hasText: 'row-counts' }).first(),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Pipelines' }).click();
  await expect(page).toHaveURL(/\/project\/default\/pipelines$/);
  await expect(page.getByTestId(testIds.pipelineRow).filter({ hasText: 'summary' })).toBeVisible();
  await page.goto('/project/default/pipelines/nonsense');
  await expect(page).toHaveURL(/\/project\/default\/pipelines$/);
});

test('a pipeline links to its output files; an output commit links to its job and takes no upload', async ({
  page,
}) => {
  await page.goto('/lineage/default/pipelines/row-counts');
  const panel = page.getByTestId(testIds.pipelinePanel);
  await panel.getByRole('link', { name: 'row-counts@master: files' }).click();
  await expect(page).toHaveURL(/\/lineage\/default\/repos\/row-counts\/commit\/[0-9a-f]{32}/);
  const details = page.getByTestId(testIds.commitDetails);
  await expect(details).toContainText('auto');
  await expect(page.getByRole('link', { name: 'Upload files' })).toHaveCount(0);
  await details.getByRole('link', { name: /^job [0-9a-f]{8}$/ }).click();
  await expect(page).toHaveURL(
    /\/lineage\/default\/pipelines\/row-counts\/jobs\/[0-9a-f]{32}\/logs$/,
  );
  await expect(page.getByRole('dialog', { name: 'Job Logs' })).toBeVisible();
});
