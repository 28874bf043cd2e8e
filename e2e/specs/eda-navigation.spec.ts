import { expect, test, type Page } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';
import {
  call,
  commitFiles,
  createProjectIfMissing,
  createRepo,
  repoOf,
} from '../support/data-api.ts';

// The benchmarking shell navigates like the project console: a user starting on a case reaches
// Setup, Bolts and Flows only by clicking the side navigation, or on a phone its drawer.
const BOLT = 'nav-alu';
const CASE = 'alu-8';

const sideNav = (page: Page) => page.getByRole('navigation', { name: 'Benchmarking' });
const crumbs = (page: Page) => page.getByTestId(testIds.shellBreadcrumbs);
const heading = (page: Page, name: string, level = 2) =>
  page.getByRole('heading', { name, level, exact: true });

test.beforeAll(async ({ baseURL }) => {
  const baseUrl = baseURL!;
  await createProjectIfMissing(baseUrl, 'eda');
  await createRepo(baseUrl, BOLT, 'an ALU', 'eda');
  // A case: a branch of the bolt labelled case=<name> (what the case form creates).
  await commitFiles(
    baseUrl,
    BOLT,
    { 'rtl/alu.v': 'module alu;\nendmodule\n' },
    {
      project: 'eda',
      branch: CASE,
    },
  );
  await call(baseUrl, 'metadata.API/EditMetadata', {
    edits: [
      {
        branch: { name: { repo: { name: repoOf(BOLT, 'eda') }, name: CASE } },
        replace: { replacement: { case: CASE, rtl: BOLT } },
      },
    ],
  });
});

// The suite shares one server: leave project eda as the other specs expect it.
test.afterAll(async ({ baseURL }) => {
  await call(baseURL!, 'pfs_v2.API/DeleteRepo', { repo: repoOf(BOLT, 'eda'), force: true });
});

test('from a case, the side navigation leads to Setup, Bolts and Flows, marking where it is', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/case/${CASE}`);
  await expect(heading(page, CASE, 3)).toBeVisible();
  await expect(sideNav(page).getByRole('link', { name: 'Cases' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(crumbs(page)).toHaveText(/Benchmarking\s*\/?\s*Cases\s*\/?\s*alu-8/);

  const steps: Array<[string, RegExp, string]> = [
    ['Setup', /\/setup$/, 'Setup'],
    ['Bolts', /\/bolt$/, 'Bolts'],
    ['Flows', /\/flow$/, 'Flows'],
  ];
  for (const [label, url, title] of steps) {
    await sideNav(page).getByRole('link', { name: label }).click();
    await expect(page).toHaveURL(url);
    await expect(heading(page, title)).toBeVisible();
    await expect(sideNav(page).getByRole('link', { name: label })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(sideNav(page).locator('[aria-current="page"]')).toHaveCount(1);
  }

  // Back to the bolts, then to the case through the Cases list, and up to the overview.
  await page.goBack();
  await expect(page.getByTestId(testIds.edaBoltRow).filter({ hasText: BOLT })).toBeVisible();
  await sideNav(page).getByRole('link', { name: 'Cases' }).click();
  await page.getByTestId(testIds.edaCaseRow).getByRole('link', { name: CASE }).click();
  await expect(page).toHaveURL(new RegExp(`/case/${CASE}$`));
  await crumbs(page).getByRole('link', { name: 'Benchmarking' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(sideNav(page).getByRole('link', { name: 'Overview' })).toHaveAttribute(
    'aria-current',
    'page',
  );
});

test('on a 420 px window the navigation opens in a drawer from the top bar', async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 800 });
  await page.goto(`/case/${CASE}`);
  await expect(heading(page, CASE, 3)).toBeVisible();
  // The case's configuration reads one pair per row: two pairs side by side would wrap its
  // values letter by letter.
  const configuration = page.locator('.ant-descriptions').filter({ hasText: 'Configuration' });
  const rows = configuration.locator('tr');
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) await expect(row.locator('th')).toHaveCount(1);
  await expect(configuration.locator('td').filter({ hasText: BOLT })).toBeVisible();
  // The navigation is not in the page: it takes no width from the case.
  await expect(sideNav(page)).toHaveCount(0);
  const open = page.getByTestId(testIds.appHeader).getByRole('button', { name: 'Open navigation' });

  for (const [label, url, title] of [
    ['Setup', /\/setup$/, 'Setup'],
    ['Bolts', /\/bolt$/, 'Bolts'],
    ['Flows', /\/flow$/, 'Flows'],
  ] as const) {
    await open.click();
    const drawer = page.getByRole('dialog', { name: 'Benchmarking' });
    await drawer.getByRole('link', { name: label }).click();
    await expect(page).toHaveURL(url);
    await expect(heading(page, title)).toBeVisible();
    // Following a link closes the drawer.
    await expect(drawer).toBeHidden();
    await expect(open).toHaveAttribute('aria-expanded', 'false');
  }
  const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(420);
});
