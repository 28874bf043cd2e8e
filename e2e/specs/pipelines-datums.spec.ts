import { expect, test } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';
import { createPipelineViaApi, lineageNode, spec } from './pipelines-support.ts';

const name = 'failing-e2e';

test('a failing pipeline: open its failed datum, read its log line, restart it', async ({
  page,
  request,
}) => {
  await createPipelineViaApi(
    request,
    spec(name, ['sh', '-c', 'echo "boom from the datum"; exit 3'], { datumTries: 1 }),
  );
  await page.goto('/lineage/default');
  await expect(lineageNode(page, name)).toHaveAttribute('data-tone', 'error', { timeout: 30_000 });
  await lineageNode(page, name).click();
  await expect(page).toHaveURL(new RegExp(`/lineage/default/pipelines/${name}$`));
  await page.getByRole('tab', { name: 'Jobs' }).click();
  await page
    .getByTestId(testIds.pipelinePanel)
    .getByTestId(testIds.jobRow)
    .first()
    .getByRole('link')
    .click();

  await expect(page.getByRole('heading', { name: 'Job Logs', exact: true })).toBeVisible();
  const failed = page.getByTestId(testIds.datumRow).first();
  await expect(failed).toHaveAttribute('data-state', 'FAILED');
  await failed.getByRole('link').click();
  await expect(page).toHaveURL(/\/logs\/datum\/[0-9a-f]+$/);
  await expect(page.getByTestId(testIds.datumDetail)).toContainText('Failed');
  const viewer = page.getByTestId(testIds.logViewer);
  await expect(viewer).toContainText('boom from the datum');
  // System lines can be hidden; the user's line stays.
  await viewer.getByRole('checkbox', { name: 'System' }).uncheck();
  await expect(
    viewer.getByTestId(testIds.logLine).filter({ hasText: 'boom from the datum' }),
  ).toBeVisible();
  await expect(viewer.locator('[data-user="false"]')).toHaveCount(0);

  await page.getByTestId(testIds.restartDatums).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Restart', exact: true }).click();
  await expect(page.getByText('Datums restarted in a new job')).toBeVisible();
  // The restart ran a second job.
  await expect(page.getByTestId(testIds.pipelinePanel).getByTestId(testIds.jobRow)).toHaveCount(2, {
    timeout: 20_000,
  });
});
