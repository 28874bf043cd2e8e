import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { testIds } from '../../web/src/test-ids.ts';

// The seeded demo project, browsed the way a new user would: projects → repos → the latest
// commit → a folder → a file, then the file downloaded and compared with what the API serves.
test('browse from the projects list down to a file and download it', async ({ page, request }) => {
  await page.goto('/');
  const project = page.getByTestId(testIds.projectRow).filter({ hasText: 'default' });
  await expect(project).toContainText('Demo project');
  await project.getByRole('link', { name: 'default' }).click();

  await expect(page).toHaveURL(/\/project\/default\/repos$/);
  const repo = page
    .getByTestId(testIds.repoRow)
    .filter({ has: page.getByRole('link', { name: 'samples', exact: true }) });
  await expect(repo).toContainText('Example tables and notes');
  await repo.getByRole('link', { name: 'samples', exact: true }).click();

  // `latest` resolves to the head commit of master.
  await expect(page).toHaveURL(/\/project\/default\/repos\/samples\/commit\/[0-9a-f]{32}/);
  await expect(page.getByTestId(testIds.commitRow).first()).toContainText(
    'Remove the 2023 archive',
  );
  await expect(page.getByTestId(testIds.commitRow)).toHaveCount(3);

  const files = page.getByTestId(testIds.fileRow);
  await expect(files.filter({ hasText: 'README.md' })).toBeVisible();
  await files.filter({ hasText: 'data' }).first().click();
  await expect(page).toHaveURL(/\/commit\/[0-9a-f]{32}\/data\/?$/);
  await expect(page.getByTestId(testIds.breadcrumb).last()).toHaveText('data');
  // The newest commit removed the 2023 archive: the folder is gone there.
  await expect(files.filter({ hasText: 'iris.csv' })).toBeVisible();
  await expect(files.filter({ hasText: 'archive' })).toHaveCount(0);

  const iris = files.filter({ hasText: 'iris.csv' });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    iris.getByTestId(testIds.fileDownload).click(),
  ]);
  expect(download.suggestedFilename()).toBe('iris.csv');
  const downloaded = await readFile(await download.path());
  expect(downloaded.toString()).toContain('virginica');

  const fromApi = await request.get(new URL(download.url()).pathname);
  expect(fromApi.ok()).toBe(true);
  expect(Buffer.compare(downloaded, await fromApi.body())).toBe(0);
});

// antd's component styles come from the stylesheet the build wrote (vite-plugins/
// antd-static-style-plugin.ts): the browser generates none of them at run time.
test("a commit screen draws antd's components with the build's stylesheet", async ({ page }) => {
  await page.goto('/project/default/repos/samples/latest');
  await expect(page.getByTestId(testIds.fileRow).first()).toBeVisible();
  const button = page.locator('.ant-btn').first();
  await expect(button).toBeVisible();
  // Styled: antd's 6 px corners, not the browser's square ones.
  expect(await button.evaluate((element) => getComputedStyle(element).borderRadius)).toBe('6px');
  const sheets = await page.evaluate(() => ({
    linked: Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')).map(
      (link) => new URL(link.href).pathname,
    ),
    generated: Array.from(document.querySelectorAll('style'))
      .map((style) => style.textContent ?? '')
      .filter((text) => /\.ant-(btn|select|breadcrumb|descriptions|typography)\b/.test(text))
      .length,
  }));
  expect(sheets.linked.some((href) => /^\/assets\/antd-[\w-]+\.css$/.test(href))).toBe(true);
  expect(sheets.generated).toBe(0);
});

test('an older commit still shows the file the newest one deleted', async ({ page }) => {
  await page.goto('/project/default/repos/samples/latest');
  await page.getByTestId(testIds.commitRow).filter({ hasText: 'Initial samples' }).click();
  await page.getByTestId(testIds.fileRow).filter({ hasText: 'data' }).first().click();
  await expect(page.getByTestId(testIds.fileRow).filter({ hasText: 'archive' })).toBeVisible();
});

test('an unknown path shows the not-found screen with a way home', async ({ page }) => {
  await page.goto('/no/such/screen');
  await expect(page.getByText('404: Page Not Found')).toBeVisible();
  // The address typed stays, so it can be corrected.
  await expect(page).toHaveURL(/\/no\/such\/screen$/);
  await expect(page.getByText('404: Page Not Found')).toBeVisible();
});
