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
