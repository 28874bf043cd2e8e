import { expect, test, type Page } from '@playwright/test';
import {
  TEST_ACCOUNT,
  completeIdpSignIn,
  startAuthStack,
  type AuthStack,
} from '../support/auth-server.ts';
import { expectHeaderControlsApart } from '../support/header-layout.ts';

// Sign-in through a real OpenID Connect provider, against the built console served by its own
// server with sign-in on. The default webServer of the config (no issuer) is used once, to show
// that without an issuer the console opens with no sign-in step.
test.describe.configure({ mode: 'serial' });

let stack: AuthStack;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  stack = await startAuthStack();
});

test.afterAll(async () => {
  await stack?.stop();
});

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('id-token'));

async function authCookie(page: Page) {
  return (await page.context().cookies(stack.origin)).find(
    (cookie) => cookie.name === 'auth-token',
  );
}

async function signInWithPopup(page: Page, path = '/') {
  await page.goto(`${stack.origin}${path}`);
  await expect(page.getByTestId('login-screen')).toBeVisible();
  const popupOpened = page.waitForEvent('popup');
  await page.getByTestId('sign-in-button').click();
  const popup = await popupOpened;
  await completeIdpSignIn(popup);
  await popup.waitForEvent('close');
  await expect(page.getByTestId('account-name')).toHaveText(TEST_ACCOUNT.name);
}

test('without an issuer the console opens with no sign-in step', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('app-header')).toBeVisible();
  await expect(page.getByTestId('connect-button')).toBeVisible();
  await expect(page.getByTestId('login-screen')).toHaveCount(0);
  await expect(page.getByTestId('account-name')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('id-token'))).toBe('');
});

test('signs in through the popup, stays signed in on reload and signs out by hand', async ({
  page,
}) => {
  await signInWithPopup(page);
  await expect(page.getByTestId('app-header')).toBeVisible();
  const token = await storedToken(page);
  expect(token?.split('.')).toHaveLength(3);
  expect(await page.evaluate(() => localStorage.getItem('auth-token'))).toBe(token);
  const cookie = await authCookie(page);
  expect(cookie).toMatchObject({ value: token, sameSite: 'Strict', secure: false, path: '/' });
  // 365 days, give or take the test's run time.
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);

  await page.reload();
  await expect(page.getByTestId('account-name')).toHaveText(TEST_ACCOUNT.name);
  await expect(page.getByTestId('login-screen')).toHaveCount(0);

  await page.getByTestId('sign-out-button').click();
  await expect(page.getByTestId('login-screen')).toBeVisible();
  await expect(page).toHaveURL(`${stack.origin}/`);
  expect(await storedToken(page)).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('auth-token'))).toBeNull();
  expect(await authCookie(page)).toBeUndefined();
});

test('signs in inline and returns to the page the user was on', async ({ page }) => {
  await page.goto(`${stack.origin}/flows?login_hint=${TEST_ACCOUNT.login}`);
  await expect(page.getByTestId('login-screen')).toBeVisible();
  await page.getByTestId('sign-in-inline').click();
  await page.waitForURL((url) => url.origin !== stack.origin);
  await completeIdpSignIn(page);
  await expect(page.getByTestId('account-name')).toHaveText(TEST_ACCOUNT.name);
  await expect(page).toHaveURL(`${stack.origin}/flows?login_hint=${TEST_ACCOUNT.login}`);
  expect(await storedToken(page)).toBeTruthy();
});

test('an expired token signs the user out on the next navigation', async ({ page }) => {
  stack.idp.setIdTokenTtl(5);
  try {
    await signInWithPopup(page, '/flows');
  } finally {
    stack.idp.setIdTokenTtl(3600);
  }
  await page.waitForTimeout(6_000);
  // A client-side path change (the header's home link) runs the expiry check.
  await page.getByTestId('app-header').getByRole('link', { name: 'Ivory' }).click();
  await expect(page.getByTestId('login-screen')).toBeVisible();
  expect(await storedToken(page)).toBeNull();
  expect(await authCookie(page)).toBeUndefined();
});

test('signed in, the top bar fits at every width: the account name shows from 1200 px', async ({
  page,
}) => {
  // (This user holds no role on the seeded project: the header is what is measured.)
  await signInWithPopup(page, '/project/default/repos');
  await page.waitForLoadState('networkidle');
  for (const width of [420, 600, 800, 1000, 1199, 1200, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(page.getByTestId('sign-out-button')).toBeVisible();
    await expectHeaderControlsApart(page, width);
    const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(scrollWidth, `the page scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
    if (width >= 1200) await expect(page.getByTestId('account-name')).toBeVisible();
    else await expect(page.getByTestId('account-name')).toBeHidden();
  }
  // Below 1200 px Sign out's name says whose session it ends.
  await expect(page.getByTestId('sign-out-button')).toHaveAccessibleName(/Sign out/);
});
