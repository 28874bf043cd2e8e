import { expect, test, type Page } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';
import { call, commitFiles, createRepo } from '../support/data-api.ts';
import { streamResults } from '../support/cluster-stack.ts';

// The project shell: side navigation, breadcrumbs, the theme, icons and long names.

const navEntries: Array<[string, RegExp]> = [
  ['Lineage', /\/lineage\/default$/],
  ['Repositories', /\/project\/default\/repos$/],
  ['Pipelines', /\/project\/default\/pipelines$/],
  ['Jobs', /\/project\/default\/jobs$/],
  ['Trials', /\/project\/default\/trials$/],
  ['Secrets', /\/project\/default\/secrets$/],
  ['Defaults', /\/project\/default\/defaults$/],
];

const sideNav = (page: Page) => page.getByRole('navigation', { name: 'Project' });
const crumbs = (page: Page) => page.getByTestId(testIds.shellBreadcrumbs);

test('from each project screen every side-navigation entry opens its screen in one click', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const screens = navEntries.map(([label]) => label);
  const pathOf: Record<string, string> = {
    Lineage: '/lineage/default',
    Repositories: '/project/default/repos',
    Pipelines: '/project/default/pipelines',
    Jobs: '/project/default/jobs',
    Trials: '/project/default/trials',
    Secrets: '/project/default/secrets',
    Defaults: '/project/default/defaults',
  };
  for (const screen of screens) {
    const from = pathOf[screen]!;
    await page.goto(from);
    for (const [label, url] of navEntries) {
      // Back on the screen this round starts from (in the app, one click too), then to the entry.
      if (new URL(page.url()).pathname !== from) {
        await sideNav(page).getByRole('link', { name: screen }).click();
        await expect(page).toHaveURL(new RegExp(`${from}$`));
      }
      await sideNav(page).getByRole('link', { name: label }).click();
      await expect(page).toHaveURL(url);
      await expect(sideNav(page).getByRole('link', { name: label })).toHaveAttribute(
        'aria-current',
        'page',
      );
    }
  }
});

test('breadcrumbs on repo, commit, file, pipeline, job, datum and trial screens lead back up', async ({
  page,
  baseURL,
}) => {
  // Commit and file: project › Repositories › repo › commit.
  await page.goto('/project/default/repos/samples/latest');
  await expect(page).toHaveURL(/\/commit\/[0-9a-f]{32}/);
  await page.getByTestId(testIds.fileRow).getByRole('link', { name: 'data' }).click();
  await expect(crumbs(page)).toContainText('Repositories');
  await expect(crumbs(page)).toContainText('samples');
  await crumbs(page).getByRole('link', { name: 'samples' }).click();
  await expect(page).toHaveURL(/\/project\/default\/repos\/samples\/commit\/[0-9a-f]{32}/);
  await crumbs(page).getByRole('link', { name: 'Repositories' }).click();
  await expect(page).toHaveURL(/\/project\/default\/repos$/);
  await crumbs(page).getByRole('link', { name: 'default' }).click();
  await expect(page).toHaveURL(/\/lineage\/default$/);

  // Pipeline › job › datum: the logs of the seeded pipeline's first job.
  const jobs = await streamResults<{ job: { id: string } }>(baseURL!, 'pps_v2.API/ListJob', {
    pipeline: { name: 'row-counts', project: { name: 'default' } },
    history: -1,
  });
  const jobId = jobs[0]!.job.id;
  await page.goto(`/project/default/pipelines/row-counts/jobs/${jobId}/logs/datum/d1`);
  await expect(crumbs(page)).toContainText('Datum d1');
  await crumbs(page).getByRole('link', { name: /^Job / }).click();
  await expect(page).toHaveURL(new RegExp(`/pipelines/row-counts/jobs/${jobId}/logs$`));
  await crumbs(page).getByRole('link', { name: 'row-counts' }).click();
  await expect(page).toHaveURL(/\/lineage\/default\/pipelines\/row-counts$/);
  await crumbs(page).getByRole('link', { name: 'Lineage' }).click();
  await expect(page).toHaveURL(/\/lineage\/default$/);

  // Trial: project › Trials › trial.
  await page.goto('/project/default/trials/some-trial');
  await crumbs(page).getByRole('link', { name: 'Trials' }).click();
  await expect(page).toHaveURL(/\/project\/default\/trials$/);
});

test('below 1024 px the navigation is minimised and names its entries in tooltips', async ({
  page,
}) => {
  await page.setViewportSize({ width: 900, height: 800 });
  await page.goto('/project/default/repos');
  await expect(sideNav(page)).toHaveAttribute('data-minimised', 'true');
  await sideNav(page).getByRole('link', { name: 'Pipelines' }).hover();
  await expect(page.getByRole('tooltip')).toHaveText('Pipelines');
  await sideNav(page).getByRole('button', { name: 'Open navigation' }).click();
  await expect(sideNav(page)).toHaveAttribute('data-minimised', 'false');
});

test('a dark colour-scheme preference gives a dark page; the toggle switches and is remembered', async ({
  page,
}) => {
  const background = () =>
    page.evaluate(() => getComputedStyle(document.body).backgroundColor.match(/\d+/g)!.map(Number));
  const isDark = (rgb: number[]) => (rgb[0]! + rgb[1]! + rgb[2]!) / 3 < 60;
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/project/default/repos');
  await expect(page.getByTestId(testIds.repoRow).first()).toBeVisible();
  expect(isDark(await background())).toBe(true);
  await page.getByTestId(testIds.colorModeToggle).click();
  expect(isDark(await background())).toBe(false);
  await page.reload();
  await expect(page.getByTestId(testIds.repoRow).first()).toBeVisible();
  expect(isDark(await background())).toBe(false);
});

test('every icon is an SVG, never an emoji or a font glyph', async ({ page }) => {
  for (const path of [
    '/project/default/repos',
    '/project/default/repos/samples/latest',
    '/lineage/default',
  ]) {
    await page.goto(path);
    await expect(page.getByTestId(testIds.projectShell)).toBeVisible();
    await page.waitForLoadState('networkidle');
    const problems = await page.evaluate(() => {
      const found: string[] = [];
      for (const icon of Array.from(
        document.querySelectorAll('.anticon, [data-icon], [role="img"]'),
      )) {
        if (!(icon instanceof SVGElement) && !icon.querySelector('svg'))
          found.push(icon.outerHTML.slice(0, 80));
      }
      const emoji = document.body.innerText.match(/\p{Extended_Pictographic}/gu);
      if (emoji) found.push(`emoji: ${emoji.join(' ')}`);
      return found;
    });
    expect(problems, path).toEqual([]);
  }
});

test('a 300-character repo name leaves the table inside the viewport', async ({
  page,
  baseURL,
}) => {
  const name = 'r'.repeat(300);
  await createRepo(baseURL!, name, 'a repo with a very long name');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/project/default/repos');
  const row = page.getByTestId(testIds.repoRow).filter({ hasText: 'a repo with a very long name' });
  await expect(row).toBeVisible();
  // The table's panel stays in the window (a wide table scrolls sideways inside it); the page
  // itself never scrolls sideways.
  const panel = await page.locator('.ant-table').first().boundingBox();
  expect(panel!.x + panel!.width).toBeLessThanOrEqual(1280);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await expect(row.getByRole('link', { name })).toHaveAttribute('title', name);
  await call(baseURL!, 'pfs_v2.API/DeleteRepo', {
    repo: { name, type: 'user', project: { name: 'default' } },
  });
});

test('a GitHub-flavoured markdown table renders as a table', async ({ page, baseURL }) => {
  await createRepo(baseURL!, 'gfm-docs');
  await commitFiles(baseURL!, 'gfm-docs', {
    '/notes.md': '| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n~~old~~\n',
  });
  await page.goto('/project/default/repos/gfm-docs/latest');
  await page.getByTestId(testIds.fileRow).getByRole('link', { name: 'notes.md' }).click();
  const markdown = page.getByTestId(testIds.markdownPreview);
  await expect(markdown.getByRole('table')).toBeVisible();
  await expect(markdown.getByRole('cell', { name: '2' })).toBeVisible();
  await expect(markdown.getByRole('checkbox')).toBeChecked();
  await expect(markdown.locator('del')).toHaveText('old');
});

test('the lineage side panel keeps its size across a reload', async ({ page }) => {
  await page.goto('/lineage/default/pipelines/row-counts');
  const side = page.getByTestId(testIds.lineageSidePanel);
  await expect(side).toBeVisible();
  const before = (await side.boundingBox())!.width;
  await page.getByRole('separator', { name: 'Resize the side panel' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await side.boundingBox())!.width).toBeGreaterThan(before + 40);
  const resized = (await side.boundingBox())!.width;
  // The layout is saved a moment after the last change.
  await page.waitForTimeout(400);
  await page.reload();
  await expect(side).toBeVisible();
  await expect
    .poll(async () => Math.abs((await side.boundingBox())!.width - resized))
    .toBeLessThan(4);
});

test('lineage edges end in arrowheads, nodes show state icons, and a minimap is drawn', async ({
  page,
}) => {
  await page.goto('/lineage/default');
  await expect(page.getByTestId(testIds.lineageNode).first()).toBeVisible();
  await expect(page.locator('.react-flow__edge path[marker-end]').first()).toBeAttached();
  await expect(
    page.getByTestId(testIds.lineageNode).locator('svg[data-icon]').first(),
  ).toBeVisible();
  await expect(page.getByRole('img', { name: 'Lineage minimap' })).toBeVisible();
  // Zoomed far out the nodes are boxes on one canvas (the overview) and the minimap, which would
  // be empty, steps aside; zoomed in again it is back.
  const zoomOut = page.getByRole('button', { name: /zoom out/i });
  for (
    let step = 0;
    step < 12 && (await page.getByTestId('lineage-overview').count()) === 0;
    step++
  )
    await zoomOut.click();
  await expect(page.getByTestId('lineage-overview')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Lineage minimap' })).toHaveCount(0);
  const zoomIn = page.getByRole('button', { name: /zoom in/i });
  for (let step = 0; step < 12 && (await page.getByTestId('lineage-overview').count()) > 0; step++)
    await zoomIn.click();
  await expect(page.getByRole('img', { name: 'Lineage minimap' })).toBeVisible();
});

test('a framed screen sits in the shell’s one main landmark; the lineage graph fills the window', async ({
  page,
}) => {
  for (const path of ['/project/default/repos', '/project/default/secrets', '/bolt', '/setup']) {
    await page.goto(path);
    const heading = page.getByRole('main').getByRole('heading', { level: 2 }).first();
    await expect(heading).toBeVisible();
    await expect(page.getByRole('main')).toHaveCount(1);
    // The screen adds no padding of its own under the shell's breadcrumbs.
    const under = (await crumbs(page).boundingBox())!;
    const top = (await heading.boundingBox())!;
    expect(top.y - (under.y + under.height), `${path}: gap under the breadcrumbs`).toBeLessThan(36);
  }

  await page.goto('/lineage/default');
  await expect(page.getByTestId(testIds.lineageNode).first()).toBeVisible();
  const { scroll, innerHeight } = await page.evaluate(() => ({
    scroll: document.scrollingElement!.scrollHeight - window.innerHeight,
    innerHeight: window.innerHeight,
  }));
  expect(scroll, 'the lineage scrolls the page').toBeLessThanOrEqual(0);
  const graph = (await page.getByTestId(testIds.lineageGraph).boundingBox())!;
  expect(innerHeight - (graph.y + graph.height), 'space under the graph').toBeLessThan(24);
});
