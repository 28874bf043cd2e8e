import { expect, test, type Locator } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';
import { call } from '../support/data-api.ts';
import { expectHeaderControlsApart } from '../support/header-layout.ts';

// A phone-sized window (420 px): no screen scrolls sideways, the top bar's controls sit side by
// side without overlapping, and the collapsed search and navigation open from their buttons.
const NARROW = { width: 420, height: 800 };

const SCREENS = [
  '/',
  '/project/default/repos',
  '/project/default/repos/samples/latest',
  '/lineage/default',
  '/lineage/default/pipelines/row-counts',
  '/project/default/pipelines',
  '/project/default/jobs',
  '/project/default/logs/pipelines/row-counts/logs',
  '/project/default/secrets',
  '/project/default/defaults',
  '/project/default/trials',
  '/setup',
  '/cluster',
];

test.use({ viewport: NARROW });

for (const path of SCREENS) {
  test(`${path} at 420 px: no sideways scroll, header controls apart and inside the window`, async ({
    page,
  }) => {
    await page.goto(path);
    await expect(page.getByTestId(testIds.appHeader)).toBeVisible();
    // Logs keep a stream open (never network-idle): that screen waits for its viewer instead.
    if (path.endsWith('/logs')) await expect(page.getByTestId(testIds.logViewer)).toBeVisible();
    else await page.waitForLoadState('networkidle');
    // Rows fade in; let the screen settle before measuring.
    await page.waitForTimeout(500);

    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.scrollingElement!.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, `${path} scrolls sideways`).toBeLessThanOrEqual(innerWidth);

    // One main landmark (a shell's, or the screen's own), padded once: content starts near the edge.
    await expect(page.locator('main')).toHaveCount(1);
    const heading = (await page.locator('main').locator('h2, h3').first().boundingBox())!;
    expect(heading.x, `${path} pads its content twice`).toBeLessThanOrEqual(16);

    const rects = await expectHeaderControlsApart(page, innerWidth);
    expect(rects.length).toBeGreaterThanOrEqual(4);
  });
}

// Between the breakpoints (labels back at 768 px, the search field at 992 px) the bar still fits.
for (const width of [600, 800, 1000]) {
  test(`at ${width} px the header's controls sit apart inside the window`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/project/default/repos');
    await expect(page.getByTestId(testIds.repoRow).first()).toBeVisible();
    await expect(page.getByTestId(testIds.projectHealth)).toBeVisible();
    await expectHeaderControlsApart(page, width);
    const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(width);
  });
}

/** Asserts that a box lies inside the window's width, from 0 to `NARROW.width`. */
async function expectInsideWindow(locator: Locator, what: string) {
  const box = (await locator.boundingBox())!;
  expect(box.x, `${what} starts left of the window`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} ends right of the window`).toBeLessThanOrEqual(NARROW.width);
}

test('at 420 px an empty table shows its message and action inside the window, unscrolled', async ({
  page,
  baseURL,
}) => {
  const project = 'narrow-empty';
  await call(baseURL!, 'pfs_v2.API/CreateProject', { project: { name: project }, update: true });

  // The repos table scrolls sideways in its panel (its columns are wider than 420 px); the empty
  // state spans only the part the panel shows.
  await page.goto(`/project/${project}/repos`);
  const empty = page.getByTestId(testIds.emptyState);
  const title = empty.getByText('No repositories yet');
  const create = empty.getByRole('button', { name: 'Create repo' });
  await expect(title).toBeVisible();
  const table = page.locator('.ant-table-content');
  const { scrollLeft, scrollWidth, clientWidth } = await table.evaluate((element) => ({
    scrollLeft: element.scrollLeft,
    scrollWidth: element.scrollWidth,
    clientWidth: element.clientWidth,
  }));
  expect(scrollLeft).toBe(0);
  expect(
    scrollWidth,
    'the empty repos table is wider than its panel (else this checks nothing)',
  ).toBeGreaterThan(clientWidth);
  await expectInsideWindow(title, 'the empty state title');
  await expectInsideWindow(create, 'its Create repo button');
  // Centred in what the panel shows, not across the whole table.
  const panel = (await table.boundingBox())!;
  const button = (await create.boundingBox())!;
  expect(Math.abs(button.x + button.width / 2 - (panel.x + panel.width / 2))).toBeLessThan(2);
  await create.click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');

  // A plain emptyText too: the jobs table's "No jobs yet", centred in what its panel shows.
  await page.goto(`/project/${project}/jobs`);
  const cell = page.locator('.ant-table-placeholder > td');
  await expect(cell).toHaveText('No jobs yet');
  const jobsPanel = (await page.locator('.ant-table-content').boundingBox())!;
  const text = await cell.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const { left, right } = range.getBoundingClientRect();
    return { left, right };
  });
  expect(text.left).toBeGreaterThanOrEqual(jobsPanel.x);
  expect(text.right).toBeLessThanOrEqual(jobsPanel.x + jobsPanel.width);
  expect(Math.abs((text.left + text.right) / 2 - (jobsPanel.x + jobsPanel.width / 2))).toBeLessThan(
    2,
  );
});

test('at 420 px the search icon opens the search, which finds and opens a pipeline', async ({
  page,
}) => {
  await page.goto('/project/default/repos');
  await expect(page.getByTestId(testIds.repoRow).first()).toBeVisible();
  await expect(page.getByTestId(testIds.projectSearch)).toHaveCount(0);

  await page.getByRole('button', { name: 'Open search' }).click();
  const search = page.getByTestId(testIds.projectSearch);
  await expect(search).toBeVisible();
  await expect(search).toBeFocused();
  const box = (await search.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(NARROW.width);

  // The names load when the search is first used; then a suggestion's whole label opens it.
  await search.fill('row-counts');
  await expect(page.locator('datalist option[value="Pipeline row-counts"]')).toHaveCount(1);
  await search.fill('Pipeline row-counts');
  await expect(page).toHaveURL(/\/lineage\/default\/pipelines\/row-counts$/);
  // Opening a match closes the search panel.
  await expect(page.getByTestId(testIds.projectSearch)).toHaveCount(0);
});

test('at 420 px the navigation opens in a drawer and closes on navigation', async ({ page }) => {
  await page.goto('/project/default/repos');
  await expect(page.getByTestId(testIds.repoRow).first()).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Project' });
  await expect(nav).toHaveCount(0);

  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(nav).toBeVisible();
  await nav.getByRole('link', { name: 'Jobs' }).click();
  await expect(page).toHaveURL(/\/project\/default\/jobs$/);
  await expect(nav).toHaveCount(0);
});

test('at 420 px the lineage graph draws no minimap over itself; zoom and fit stay', async ({
  page,
}) => {
  await page.goto('/lineage/default');
  // The graph (its nodes are boxes on a canvas when the fitted zoom is small: many pipelines).
  await expect(page.getByTestId(testIds.lineageGraph)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: /fit view/i })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Lineage minimap' })).toHaveCount(0);
});

test('at 420 px a table row is one line: dates, sizes, IDs and actions never break inside', async ({
  page,
}) => {
  for (const path of ['/project/default/repos', '/project/default/jobs']) {
    await page.goto(path);
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows.first()).toBeVisible();
    // A one-line row: the small buttons' height plus the cell padding, well under two lines.
    const heights = await rows.evaluateAll((all) =>
      all.map((row) => row.getBoundingClientRect().height),
    );
    for (const height of heights) expect(height, `${path}: a row of ${height}px`).toBeLessThan(64);
  }
});
