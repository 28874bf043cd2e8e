import { expect, test } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';

// Every route of the benchmarking shell, in the spec's match order, against the shared server.
const headings: Array<[string, string]> = [
  ['/lineage/default/create/pipeline', 'Pipeline Editor'],
  ['/lineage/default/update/pipeline/edges', 'Pipeline Editor'],
  ['/lineage/default/duplicate/pipeline/edges', 'Pipeline Editor'],
  ['/project/default', 'Repositories'],
  ['/lineage/default', 'Lineage'],
  ['/flow', 'Flows'],
  ['/flow/synthesis', 'Flow'],
  ['/case', 'Cases'],
  ['/updatebolt/soc', 'Upload Files'],
  ['/setup', 'Setup'],
  ['/', 'Benchmarking'],
  ['/flows', 'Benchmarking'],
  ['/bolt', 'Bolts'],
];

for (const [path, heading] of headings) {
  test(`${path} opens the ${heading} screen`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 2 }).first()).toBeVisible();
    await expect(page).toHaveURL(
      new RegExp(`${path === '/project/default' ? '/project/default' : path}`),
    );
  });
}

test('the landing keeps the projects list and shows bolts, flows and cases', async ({ page }) => {
  await page.goto('/');
  const landing = page.getByTestId(testIds.edaLanding);
  for (const title of ['Bolts', 'Flows', 'Cases']) {
    await expect(landing.locator('.ant-statistic-title', { hasText: title })).toBeVisible();
  }
  // An empty state, never an error, whether or not the pipeline engine answers yet.
  await expect(landing.getByText(/^No flows yet/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Projects', level: 2 })).toBeVisible();
  await expect(page.getByTestId(testIds.projectRow).filter({ hasText: 'default' })).toBeVisible();
});

test('a bolt created on /bolt shows up with its Upload action', async ({ page }) => {
  await page.goto('/bolt');
  const form = page.getByTestId(testIds.edaCreateBolt);
  await form.getByPlaceholder('bolt name').fill('riscv-core');
  await form.getByRole('button', { name: 'Create bolt' }).click();
  const row = page.getByTestId(testIds.edaBoltRow).filter({ hasText: 'riscv-core' });
  await expect(row).toContainText('never');
  await row.getByRole('button', { name: 'Upload' }).click();
  await expect(page).toHaveURL(/\/updatebolt\/riscv-core$/);
  await page.goto('/');
  await page.getByRole('searchbox', { name: 'Search bolts, flows and cases' }).fill('riscv');
  await expect(page.getByTestId(testIds.edaBoltRow)).toHaveCount(1);
});

test('the setup screen shows the cluster and copyable commands', async ({ page }) => {
  await page.goto('/setup');
  await expect(page.getByText('Cluster id')).toBeVisible();
  await expect(page.getByText('pachctl config set active-context eda')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy command' }).first()).toBeVisible();
});

test('an unknown path shows the 404 page at its address; its back-home button goes to /', async ({
  page,
}) => {
  await page.goto('/no/such/benchmark');
  await expect(page).toHaveURL(/\/no\/such\/benchmark$/);
  await expect(page.getByText('404: Page Not Found')).toBeVisible();
  await page.getByRole('button', { name: 'Back Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Benchmarking', level: 2 })).toBeVisible();
});

test('/not-found itself shows the 404 page', async ({ page }) => {
  await page.goto('/not-found');
  await expect(page.getByText('404: Page Not Found')).toBeVisible();
});

test('a missing case shows the error screen; Go Back Home goes to /flows', async ({ page }) => {
  await page.goto('/case/no-such-case');
  await expect(
    page.getByText('Unable to locate this resource, are you sure it exists?'),
  ).toBeVisible();
  await page.getByTestId(testIds.errorHomeButton).click();
  await expect(page).toHaveURL(/\/flows$/);
  await expect(page.getByRole('heading', { name: 'Benchmarking', level: 2 })).toBeVisible();
});
