import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';
import { completeIdpSignIn, startAuthStack, type AuthStack } from '../support/auth-server.ts';

// Two users of one server with sign-in on, through the real identity provider: alice creates a
// project (so she owns it) and shares it with bob as a viewer; bob sees it but cannot upload,
// and the console says why; alice grants bob repoWriter in the repo's Roles panel; bob uploads.
test.describe.configure({ mode: 'serial' });

let stack: AuthStack;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  stack = await startAuthStack({ IVORY_SEED: 'false' });
});

test.afterAll(async () => {
  await stack?.stop();
});

async function signedInPage(browser: Browser, login: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${stack.origin}/`);
  await expect(page.getByTestId('login-screen')).toBeVisible();
  const popupOpened = page.waitForEvent('popup');
  await page.getByTestId('sign-in-button').click();
  const popup = await popupOpened;
  await completeIdpSignIn(popup, login);
  await popup.waitForEvent('close');
  await expect(page.getByTestId('account-name')).toBeVisible();
  return page;
}

/** A call to the platform with the page's own id token. */
async function api(page: Page, method: string, body: unknown): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('id-token'));
  const response = await page.request.post(`${stack.origin}/api/${method}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: body,
  });
  return response.status();
}

const repoPage = (project: string) => `${stack.origin}/project/${project}/repos`;

async function openRepoPanel(page: Page, repo: string) {
  await page.getByRole('button', { name: `Details of ${repo}` }).click();
  await expect(page.getByTestId(testIds.repoPanel)).toBeVisible();
}

test('a viewer cannot upload and is told why; once granted writer, can', async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await signedInPage(browser, 'alice');
  expect(await api(alice, 'pfs_v2.API/CreateProject', { project: { name: 'shared' } })).toBe(200);
  expect(
    await api(alice, 'pfs_v2.API/CreateRepo', {
      repo: { name: 'data', type: 'user', project: { name: 'shared' } },
    }),
  ).toBe(200);
  // Shared with bob as a viewer, through the project's Roles panel.
  await alice.goto(repoPage('shared'));
  await alice.getByTestId(testIds.rolesOpen).click();
  const projectRoles = alice.getByTestId(testIds.rolesPanel);
  await expect(projectRoles.locator(`[data-principal="user:alice@example.com"]`)).toContainText(
    'projectOwner',
  );
  await projectRoles.getByTestId(testIds.rolePrincipal).fill('bob@example.com');
  await projectRoles.getByTestId(testIds.roleSelect).click();
  await alice.locator('.ant-select-item-option[title="projectViewer"]').click();
  await projectRoles.getByTestId(testIds.roleGrant).click();
  await expect(projectRoles.locator(`[data-principal="user:bob@example.com"]`)).toContainText(
    'projectViewer',
  );

  const bob = await signedInPage(browser, 'bob');
  await expect(bob.getByTestId(testIds.projectRow).filter({ hasText: 'shared' })).toBeVisible();
  await bob.goto(repoPage('shared'));
  // Other actions a viewer may not take are disabled with the reason too.
  await expect(bob.getByTestId(testIds.createRepoButton)).toBeDisabled();
  await expect(bob.getByTestId(testIds.createRepoButton)).toHaveAttribute(
    'title',
    /projectWriter role/,
  );
  await expect(bob.getByRole('button', { name: 'Delete data' })).toBeDisabled();
  await openRepoPanel(bob, 'data');
  const upload = bob.getByTestId(testIds.uploadAction);
  await expect(upload).toBeDisabled();
  await expect(
    bob.getByTestId(testIds.repoPanel).getByTestId(testIds.permissionReason).first(),
  ).toContainText('ask its owner for the repoWriter role to upload');
  // bob cannot change roles either, and the panel says so.
  await expect(bob.getByTestId(testIds.roleGrant)).toBeDisabled();

  // alice grants bob repoWriter on the repo in its Roles panel.
  await alice.goto(repoPage('shared'));
  await openRepoPanel(alice, 'data');
  const repoRoles = alice.getByTestId(testIds.repoPanel).getByTestId(testIds.rolesPanel);
  await repoRoles.getByTestId(testIds.rolePrincipal).fill('bob@example.com');
  await repoRoles.getByTestId(testIds.roleSelect).click();
  await alice.locator('.ant-select-item-option[title="repoWriter"]').click();
  await repoRoles.getByTestId(testIds.roleGrant).click();
  await expect(repoRoles.locator(`[data-principal="user:bob@example.com"]`)).toContainText(
    'repoWriter',
  );

  await bob.reload();
  await openRepoPanel(bob, 'data');
  await expect(bob.getByTestId(testIds.uploadAction)).toBeEnabled();
  await bob.getByTestId(testIds.uploadAction).click();
  await expect(bob.getByRole('heading', { name: 'Upload Files' })).toBeVisible();
  const dir = mkdtempSync(join(tmpdir(), 'ivory-roles-'));
  writeFileSync(join(dir, 'hello.txt'), 'from bob');
  await bob.getByTestId(testIds.uploadFileInput).setInputFiles(join(dir, 'hello.txt'));
  await bob.getByTestId(testIds.uploadSubmit).click();
  await expect(bob.getByTestId(testIds.uploadResult)).toContainText('Uploaded 1 file');
});

test('the console runs under its own CSP: its scripts run, an injected one does not', async ({
  page,
}) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(event.effectiveDirective),
    );
  });
  const violations = () =>
    page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  const response = await page.goto('/project/default/repos');
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain("frame-ancestors 'none'");
  await expect(page.getByTestId(testIds.repoRow).first()).toBeVisible();
  // The page's own inline preload script (allowed by its hash) and modules ran unrefused.
  expect(await violations()).toEqual([]);
  // A script injected into the page is refused.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = 1';
    document.body.append(script);
  });
  await expect.poll(violations).toEqual(['script-src-elem']);
  expect(await page.evaluate(() => 'injected' in window)).toBe(false);
});
