import { expect, test } from '@playwright/test';
import { mainScreens } from '../support/main-screens.ts';

// What a newcomer trips on first: the keyboard's way in, and a console that only asks the
// platform what it can answer.

test('Tab from a fresh page reaches the skip link first; it moves focus to the screen', async ({
  page,
}) => {
  for (const path of ['/project/default/repos', '/', '/cluster']) {
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
  }
});

test('the home screen shows its projects without scrolling, and a link in a table shows a focus ring when reached by Tab', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  const projects = page.locator('#projects');
  const firstProject = projects.getByRole('link', { name: 'default', exact: true });
  await expect(firstProject).toBeInViewport();
  // The overview's count links to the list.
  await page.getByRole('link', { name: 'Projects', exact: true }).click();
  await expect(page).toHaveURL(/#projects$/);
  // Keyboard focus on a link inside the projects table draws the ring (antd's own link style
  // removes the outline on focus).
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  for (let step = 0; step < 60; step += 1) {
    await page.keyboard.press('Tab');
    if (await firstProject.evaluate((link) => link === document.activeElement)) break;
  }
  await expect(firstProject).toBeFocused();
  const outline = await firstProject.evaluate((link) => {
    const style = getComputedStyle(link);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  expect(outline.style).toBe('solid');
  expect(outline.width).toBeGreaterThanOrEqual(2);
});

test('an unknown repo, commit or project says so at once: the refused call is not retried', async ({
  page,
}) => {
  // Retries of a NOT_FOUND answer (with their back-off) made the screen spin ~8 s before saying
  // so; the answer is final, so the screen shows it without asking again.
  const refused = new Map<string, number>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/') || response.status() !== 404) return;
    const key = `${url.pathname} ${response.request().postData() ?? ''}`;
    refused.set(key, (refused.get(key) ?? 0) + 1);
  });
  for (const path of [
    '/project/default/repos/no-such-repo/latest',
    '/project/default/repos/samples/commit/0123456789abcdef0123456789abcdef',
    '/project/no-such-project/repos',
    '/lineage/no-such-project',
  ]) {
    refused.clear();
    await page.goto(path);
    await expect(
      page.getByText('Unable to locate this resource, are you sure it exists?'),
    ).toBeVisible();
    expect(refused.size, path).toBeGreaterThan(0);
    // Once, or twice when the route's prefetch asked first and the screen asked again on mount;
    // retries would add three more, each after a longer wait.
    for (const [call, times] of refused) expect(times, `${path}: ${call}`).toBeLessThanOrEqual(2);
  }
});

test('with sign-in off, no screen calls auth_v2 (it answers 501 to everything)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const authCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/auth_v2.')) authCalls.push(request.url());
  });
  for (const screen of mainScreens) {
    await page.goto(screen.path);
    await screen.ready(page);
  }
  expect(authCalls).toEqual([]);
});
