import { expect, test, type Page } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';

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

type Rect = { name: string; left: number; right: number; top: number; bottom: number };

/** The boxes of the top bar's controls that are drawn (not visually hidden). */
function headerControlRects(page: Page): Promise<Rect[]> {
  return page.getByTestId(testIds.appHeader).evaluate((header) => {
    const controls = header.querySelectorAll<HTMLElement>(
      ':scope > a, :scope > button, :scope > .ivory-app-header-slot > *, :scope > span',
    );
    return Array.from(controls)
      .map((element) => {
        const box = element.getBoundingClientRect();
        const name =
          element.getAttribute('aria-label') ??
          element.dataset.testid ??
          element.textContent?.trim() ??
          element.tagName;
        return { name, left: box.left, right: box.right, top: box.top, bottom: box.bottom };
      })
      .filter((box) => box.right - box.left > 1 && box.bottom - box.top > 1);
  });
}

const overlaps = (a: Rect, b: Rect) =>
  a.left < b.right - 0.5 &&
  b.left < a.right - 0.5 &&
  a.top < b.bottom - 0.5 &&
  b.top < a.bottom - 0.5;

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

    const rects = await headerControlRects(page);
    expect(rects.length).toBeGreaterThanOrEqual(4);
    for (const rect of rects) {
      expect(rect.left, `${rect.name} starts inside the window`).toBeGreaterThanOrEqual(0);
      expect(rect.right, `${rect.name} ends inside the window`).toBeLessThanOrEqual(innerWidth);
    }
    for (const [index, a] of rects.entries()) {
      for (const b of rects.slice(index + 1)) {
        expect(overlaps(a, b), `${a.name} overlaps ${b.name}`).toBe(false);
      }
    }
  });
}

// Between the breakpoints (labels back at 768 px, the search field at 992 px) the bar still fits.
for (const width of [600, 800, 1000]) {
  test(`at ${width} px the header's controls sit apart inside the window`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/project/default/repos');
    await expect(page.getByTestId(testIds.repoRow).first()).toBeVisible();
    await expect(page.getByTestId(testIds.projectHealth)).toBeVisible();
    const rects = await headerControlRects(page);
    for (const rect of rects) expect(rect.right, rect.name).toBeLessThanOrEqual(width);
    for (const [index, a] of rects.entries()) {
      for (const b of rects.slice(index + 1)) {
        expect(overlaps(a, b), `${a.name} overlaps ${b.name}`).toBe(false);
      }
    }
    const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(width);
  });
}

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
