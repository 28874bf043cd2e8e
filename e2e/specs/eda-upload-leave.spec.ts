import { expect, test, type Page } from '@playwright/test';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createApiClient,
  createProject,
  createRepo,
  fileUrl,
  listCommits,
  type ApiClient,
} from '@ivory/api';
import type { ServerProcess } from '../../server/test/helpers/server-process.ts';
import { testIds } from '../../web/src/test-ids.ts';
import {
  startSpecServer,
  stopSpecServer,
  uploadModal as modal,
  uploadPrimary as primary,
  writeTree,
} from '../support/spec-server.ts';

// Closing the upload modal with uploaded but unfinished files asks to finish (the default) or
// discard — for ×, Escape, a route change and a closed tab — and each row shows where its file
// lands (the flow plugin's description at /rtl/user_plugin/plugin.json).
const plugin = {
  'user_plugin/plugin.json': JSON.stringify({ name: 'demo-plugin', parameters: { seed: 1 } }),
  'user_plugin/run.sh': '#!/bin/sh\necho run\n',
};

let server: ServerProcess;
let client: ApiClient;
let tempDir: string;

test.beforeAll(async () => {
  tempDir = await mkdtemp(path.join(tmpdir(), 'ivory-upload-leave-'));
  await writeTree(tempDir, plugin);
  server = await startSpecServer();
  client = createApiClient({ baseUrl: server.url, getToken: () => null });
  await createProject(client, { project: 'eda' });
  for (const bolt of ['by-escape', 'by-close', 'by-back', 'by-tab'])
    await createRepo(client, { project: 'eda', repo: bolt, description: '' });
});

test.afterAll(() => stopSpecServer(server, tempDir));

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Finish the upload?' });

/** Opens the modal for a bolt, attaches the plugin folder and uploads it (not finished). */
async function uploadUnfinished(page: Page, bolt: string) {
  // In-app navigation from the bolts list, so that Back is a route change of the app.
  await page.goto(`${server.url}/bolt`);
  await page
    .getByTestId(testIds.edaBoltRow)
    .filter({ hasText: bolt })
    .getByRole('button', { name: 'Upload' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/updatebolt/${bolt}$`));
  await expect(modal(page).getByRole('heading', { name: 'Upload Files' })).toBeVisible();
  await expect(modal(page).getByText(/lands at \/rtl\/user_plugin\/plugin\.json/)).toBeVisible();
  await modal(page).locator('input[type=file]').setInputFiles(path.join(tempDir, 'user_plugin'));
  const rows = page.getByTestId(testIds.edaUploadItem);
  await expect(rows).toHaveCount(2);
  // Each row says where its file will land.
  await expect(
    rows.filter({ hasText: 'user_plugin/plugin.json' }).getByTestId('eda-upload-item-target'),
  ).toHaveText('→ /rtl/user_plugin/plugin.json');
  await expect(
    rows.filter({ hasText: 'user_plugin/run.sh' }).getByTestId('eda-upload-item-target'),
  ).toHaveText('→ /rtl/user_plugin/run.sh');
  await primary(page).click();
  await expect(primary(page)).toHaveText('Done');
}

async function landed(bolt: string): Promise<string | null> {
  const response = await fetch(
    fileUrl(
      { project: 'eda', repo: bolt, commitId: 'master', path: '/rtl/user_plugin/plugin.json' },
      server.url,
    ),
  );
  return response.ok ? response.text() : null;
}

test('Escape with unfinished files asks; Enter finishes (the default) and the files land', async ({
  page,
}) => {
  await uploadUnfinished(page, 'by-escape');
  // Upload's button lost the focus while it spun: Escape reaches the page, not the modal.
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).getByText('2 files are uploaded but not committed yet.')).toBeVisible();
  await expect(dialog(page).getByRole('button', { name: 'Finish' })).toBeFocused();
  // "Keep editing" returns to the modal with the files.
  await dialog(page).getByRole('button', { name: 'Keep editing' }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(primary(page)).toHaveText('Done');
  expect(await landed('by-escape')).toBeNull();

  await page.keyboard.press('Escape');
  await expect(dialog(page).getByRole('button', { name: 'Finish' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('upload file success.')).toBeVisible();
  await page.waitForURL(/\/bolt$/);
  await expect.poll(() => landed('by-escape')).toBe(plugin['user_plugin/plugin.json']);
});

test('× with unfinished files asks; Discard closes and commits nothing', async ({ page }) => {
  await uploadUnfinished(page, 'by-close');
  await modal(page).getByRole('button', { name: 'Close' }).click();
  await expect(dialog(page)).toBeVisible();
  await dialog(page).getByRole('button', { name: 'Discard' }).click();
  await expect(modal(page)).toBeHidden();
  await expect(page).toHaveURL(/\/bolt$/);
  expect(await listCommits(client, { project: 'eda', repo: 'by-close' })).toHaveLength(0);
});

test('a route change (Back) with unfinished files asks; Finish lands them and goes on', async ({
  page,
}) => {
  await uploadUnfinished(page, 'by-back');
  await page.goBack();
  await expect(dialog(page)).toBeVisible();
  // Still on the modal's route until the user answers.
  await expect(page).toHaveURL(/\/updatebolt\/by-back$/);
  await dialog(page).getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/bolt$/);
  await expect.poll(() => landed('by-back')).toBe(plugin['user_plugin/plugin.json']);
});

test('closing the tab with unfinished files asks the browser; files stay resumable', async ({
  page,
}) => {
  await uploadUnfinished(page, 'by-tab');
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (d) => {
      resolve(d.type());
      void d.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
  // Dismissed: the page stays, the modal with its uploaded files too.
  expect(page.isClosed()).toBe(false);
  await expect(primary(page)).toHaveText('Done');
  await primary(page).click();
  await expect.poll(() => landed('by-tab')).toBe(plugin['user_plugin/plugin.json']);
});

test('a plugin uploaded through the modal gives the flow its parameters', async ({ page }) => {
  // A one-stage flow `pf` whose stage names the bolt `plugin-bolt`; no param labels of its own.
  const post = async (method: string, body: object) => {
    const response = await fetch(`${server.url}/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.ok, `${method}: ${await response.clone().text()}`).toBe(true);
  };
  await createRepo(client, { project: 'eda', repo: 'plugin-bolt', description: '' });
  await createRepo(client, { project: 'eda', repo: 'pf-params', description: '' });
  await post('pps_v2.API/CreatePipelineV2', {
    createPipelineRequestJson: JSON.stringify({
      pipeline: { name: 'pf-run', project: { name: 'eda' } },
      metadata: { labels: { flow: 'pf', stage: 'run', bolt: 'plugin-bolt' } },
      transform: { cmd: ['true'] },
      input: { pfs: { project: 'eda', repo: 'pf-params', glob: '/' } },
    }),
  });
  const folder = path.join(tempDir, 'flow-plugin', 'user_plugin');
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, 'plugin.json'),
    JSON.stringify({
      stages: [
        {
          name: 'run',
          parameters: [{ name: 'clock_mhz', type: 'number', default: '250', description: 'MHz' }],
        },
      ],
    }),
  );

  await page.goto(`${server.url}/updatebolt/plugin-bolt`);
  await modal(page).locator('input[type=file]').setInputFiles(folder);
  await expect(page.getByTestId(testIds.edaUploadItem)).toHaveCount(1);
  await primary(page).click();
  await expect(primary(page)).toHaveText('Done');
  await primary(page).click();
  await expect(page.getByText('upload file success.')).toBeVisible();

  // The trial form of the flow offers the plugin's parameter with its default.
  await page.goto(`${server.url}/project/eda/trials?flow=pf`);
  await page.getByTestId(testIds.trialCreate).click();
  await expect(page.getByRole('dialog').getByLabel('Parameter clock_mhz')).toHaveValue('250');
});
