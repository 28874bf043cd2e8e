import { expect, test } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';

test('pause and resume a pipeline from its panel', async ({ page }) => {
  await page.goto('/lineage/default/pipelines/summary');
  const panel = page.getByTestId(testIds.pipelinePanel);
  const state = panel.getByTestId(testIds.pipelineState);
  await panel.getByRole('button', { name: 'Pause' }).click();
  await expect(state).toHaveAttribute('data-state', 'PIPELINE_PAUSED');
  await expect(page.locator('[data-node-id="pipeline:default/summary"]')).toHaveAttribute(
    'data-tone',
    'paused',
  );
  await panel.getByRole('button', { name: 'Resume' }).click();
  await expect(state).not.toHaveAttribute('data-state', 'PIPELINE_PAUSED');
  await expect(panel.getByRole('button', { name: 'Pause' })).toBeVisible();
});

test('the pipelines and jobs lists show the seeded DAG', async ({ page }) => {
  await page.goto('/project/default/pipelines');
  await expect(
    page.getByTestId(testIds.pipelineRow).filter({ hasText: 'row-counts' }),
  ).toBeVisible();
  await expect(page.getByTestId(testIds.pipelineRow).filter({ hasText: 'summary' })).toBeVisible();
  await page.goto('/project/default/jobs');
  await expect(
    page.getByTestId(testIds.jobRow).filter({ hasText: 'row-counts' }).first(),
  ).toBeVisible();
  await page.goto('/project/default/jobs/subjobs');
  await expect(page.getByTestId(testIds.jobSetRow).first()).toBeVisible();
});

test('create a secret from key/value pairs and delete it', async ({ page }) => {
  await page.goto('/project/default/secrets');
  await expect(page.getByRole('heading', { name: 'Secrets' })).toBeVisible();
  await page.getByTestId(testIds.secretCreate).click();
  await page.getByLabel('Secret name').fill('e2e-db');
  await page.getByLabel('Key 1').fill('password');
  await page.getByLabel('Value 1').fill('s3cret-value');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const row = page.getByTestId(testIds.secretRow).filter({ hasText: 'e2e-db' });
  await expect(row).toBeVisible();
  await expect(page.getByText('s3cret-value')).toHaveCount(0);
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
});
