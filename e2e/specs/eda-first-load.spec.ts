import { expect, test } from '@playwright/test';
import type { ServerProcess } from '../../server/test/helpers/server-process.ts';
import { testIds } from '../../web/src/test-ids.ts';
import { startSpecServer, stopSpecServer } from '../support/spec-server.ts';

// A new user on an empty data dir: the landing's empty states point somewhere real, the eda
// project (created on first use) is in Projects without a reload, and bolt errors speak of bolts.
let server: ServerProcess;

test.beforeAll(async () => {
  server = await startSpecServer({ IVORY_SEED: 'false' });
});

test.afterAll(() => stopSpecServer(server));

test('first load: eda in Projects, empty bolts point to the Bolts page, duplicate bolt error', async ({
  page,
}) => {
  await page.goto(`${server.url}/`);
  const landing = page.getByTestId(testIds.edaLanding);
  await expect(landing.getByRole('heading', { name: 'Benchmarking', level: 2 })).toBeVisible();
  // Nothing above the table on the landing: the empty state names the Bolts page instead.
  await expect(landing.getByText('No bolts yet: create one on the Bolts page.')).toBeVisible();
  await expect(landing.getByText(/create one above/)).toHaveCount(0);
  // The eda project the shell created on first use is listed without a reload.
  await expect(page.getByTestId(testIds.projectRow).filter({ hasText: 'eda' })).toBeVisible();

  await landing.getByRole('link', { name: 'Bolts', exact: true }).last().click();
  await expect(page).toHaveURL(/\/bolt$/);
  await expect(page.getByText('No bolts yet: create one above.')).toBeVisible();
  const form = page.getByTestId(testIds.edaCreateBolt);
  for (let attempt = 0; attempt < 2; attempt++) {
    await form.getByPlaceholder('bolt name').fill('soc1');
    await form.getByRole('button', { name: 'Create bolt' }).click();
    if (attempt === 0)
      await expect(page.getByTestId(testIds.edaBoltRow).filter({ hasText: 'soc1' })).toBeVisible();
  }
  await expect(page.getByText('bolt soc1 already exists')).toBeVisible();
  await expect(page.getByText(/repo soc1/)).toHaveCount(0);
});
