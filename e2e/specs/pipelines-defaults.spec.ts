import { expect, test } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';
import { setEditorText } from './pipelines-support.ts';

test('project defaults: a dry run lists the pipelines a change would affect', async ({ page }) => {
  await page.goto('/project/default/defaults');
  await expect(page.getByRole('heading', { name: 'Project Defaults' })).toBeVisible();
  await expect(page.getByTestId(testIds.defaultsEditor).locator('.cm-content')).toBeVisible();
  await setEditorText(
    page,
    testIds.defaultsEditor,
    JSON.stringify({ createPipelineRequest: { datumTries: '2' } }, null, 2),
  );
  const affected = page.getByTestId(testIds.defaultsAffected);
  await expect(affected).toContainText('row-counts');
  await expect(affected).toContainText('summary');
  // Broken JSON is reported inline and cannot be saved.
  await setEditorText(page, testIds.defaultsEditor, '{"createPipelineRequest": ');
  await expect(page.getByTestId(testIds.specError)).toContainText('Invalid JSON');
  await expect(page.getByRole('button', { name: 'Save defaults' })).toBeDisabled();
});

test('a global ID from the sub-jobs list filters the lineage to what that run touched', async ({
  page,
}) => {
  await page.goto('/project/default/jobs/subjobs');
  await page
    .getByTestId(testIds.jobSetRow)
    .first()
    .getByRole('link', { name: 'Show in lineage' })
    .click();
  await expect(page).toHaveURL(/\/lineage\/default\?globalId=[0-9a-f]+/);
  await expect(page.getByText(/\d+ jobs · \d+ commits in/)).toBeVisible();
  const nodes = page.getByTestId(testIds.lineageNode);
  await expect(nodes.first()).toBeVisible();
  // Nodes the run did not touch are dimmed; at least one node is not.
  const opacities = await nodes.evaluateAll((els) => els.map((el) => getComputedStyle(el).opacity));
  expect(opacities).toContain('1');
});
