import { expect, test } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';
import { lineageNode, setEditorText, spec } from './pipelines-support.ts';

const name = 'listing-e2e';
const listing = spec(name, ['sh', '-c', 'ls -R /pfs/samples > /pfs/out/listing.txt; echo listed']);

test('create a pipeline in the editor, watch its job turn green, update and duplicate it', async ({
  page,
}) => {
  await page.goto('/lineage/default/create/pipeline');
  await expect(page.getByRole('heading', { name: 'Pipeline Editor' })).toBeVisible();
  await expect(page.getByTestId(testIds.specEditor).locator('.cm-content')).toBeVisible();

  // A schema error first: cmd must be a list. It shows inline, and submit stays disabled.
  await setEditorText(
    page,
    testIds.specEditor,
    JSON.stringify({ ...listing, transform: { cmd: 'ls' } }, null, 2),
  );
  await expect(page.getByTestId(testIds.specError)).toContainText('/transform/cmd must be array');
  await expect(page.locator('.cm-lintRange-error').first()).toBeVisible();
  await expect(page.getByTestId(testIds.specSubmit)).toBeDisabled();

  // Fixed: the dry run answers the effective spec beside the editor.
  await setEditorText(page, testIds.specEditor, JSON.stringify(listing, null, 2));
  await expect(page.getByTestId(testIds.specError)).toHaveCount(0);
  await expect(page.getByTestId(testIds.effectiveSpec)).toContainText('listing.txt');
  await page.getByTestId(testIds.specSubmit).click();

  // The lineage opens on the new pipeline; its first job turns the node green.
  await expect(page).toHaveURL(new RegExp(`/lineage/default/pipelines/${name}$`));
  await expect(lineageNode(page, name)).toBeVisible();
  await expect(lineageNode(page, name)).toHaveAttribute('data-tone', 'success', {
    timeout: 30_000,
  });
  await expect(lineageNode(page, 'summary')).toBeVisible();

  // Open the job from the panel's jobs tab.
  await page.getByRole('tab', { name: 'Jobs' }).click();
  await expect(page).toHaveURL(new RegExp(`/pipelines/${name}/jobs$`));
  await page
    .getByTestId(testIds.pipelinePanel)
    .getByTestId(testIds.jobRow)
    .first()
    .getByRole('link')
    .click();
  await expect(page.getByRole('heading', { name: 'Job Logs', exact: true })).toBeVisible();
  await expect(
    page.getByTestId(testIds.jobDetail).getByTestId(testIds.jobState).first(),
  ).toHaveAttribute('data-state', 'JOB_SUCCESS');
  await expect(page.getByTestId(testIds.datumRow)).toHaveCount(1);
  await expect(page.getByTestId(testIds.logViewer)).toContainText('listed');

  // Update: a new description makes version 2.
  await page.goto(`/lineage/default/update/pipeline/${name}`);
  await expect(page.getByTestId(testIds.specEditor).locator('.cm-content')).toContainText(name);
  await setEditorText(
    page,
    testIds.specEditor,
    JSON.stringify({ ...listing, description: 'updated from the console' }, null, 2),
  );
  await expect(page.getByTestId(testIds.effectiveSpec)).toContainText('updated from the console');
  await page.getByTestId(testIds.specSubmit).click();
  await expect(page).toHaveURL(new RegExp(`/lineage/default/pipelines/${name}$`));
  const panel = page.getByTestId(testIds.pipelinePanel);
  await expect(panel).toContainText('updated from the console');
  await expect(
    panel.locator('.ant-descriptions-item').filter({ hasText: 'Version' }),
  ).toContainText('2');

  // Duplicate: the copy gets a -copy name.
  await panel.getByRole('button', { name: 'Duplicate' }).click();
  await expect(page).toHaveURL(new RegExp(`/lineage/default/duplicate/pipeline/${name}$`));
  await expect(page.getByTestId(testIds.specEditor).locator('.cm-content')).toContainText(
    `${name}-copy`,
  );
  await expect(page.getByTestId(testIds.effectiveSpec)).toContainText(`${name}-copy`);
  await page.getByTestId(testIds.specSubmit).click();
  await expect(page).toHaveURL(new RegExp(`/lineage/default/pipelines/${name}-copy$`));
  await expect(lineageNode(page, `${name}-copy`)).toHaveAttribute('data-tone', 'success', {
    timeout: 30_000,
  });
});
