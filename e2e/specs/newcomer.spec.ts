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
