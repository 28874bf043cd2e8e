import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createApiClient,
  createProject,
  createRepo,
  fileUrl,
  getFileBytes,
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

// The folder-upload modal end to end, against this spec's own server: the shared one cannot
// inject faults. IVORY_FAULT_FAIL_CHUNK makes the server answer HTTP 500 for chunk 1 of core.bin
// once, so the file goes to its error state and Retry has something to resume.
const BOLT = 'soc1';
const MiB = 1024 * 1024;
const FAILING_FILE = 'core.bin';
const FAULT_MESSAGE = `injected fault: chunk 1 of ${FAILING_FILE} failed`;

const files: Record<string, Buffer> = {
  'bench/top.v': Buffer.from('module top(input clk);\nendmodule\n'),
  // 45 MiB: three 20 MiB chunks (20 + 20 + 5).
  [`bench/big/${FAILING_FILE}`]: randomBytes(45 * MiB),
  'bench/src/alu/alu.v': Buffer.from('module alu(input [7:0] a, b, output [7:0] y);\nendmodule\n'),
  'bench/src/alu/regs.v': Buffer.from('module regs();\nendmodule\n'),
};
const dirs = ['bench', 'bench/big', 'bench/src/alu'];

let server: ServerProcess;
let client: ApiClient;
let tempDir: string;
let folder: string;

test.beforeAll(async () => {
  tempDir = await mkdtemp(path.join(tmpdir(), 'ivory-eda-upload-'));
  folder = path.join(tempDir, 'bench');
  await writeTree(tempDir, files);
  server = await startSpecServer({ IVORY_FAULT_FAIL_CHUNK: `${FAILING_FILE}:1` });
  client = createApiClient({ baseUrl: server.url, getToken: () => null });
  // The modal is opened for an existing bolt: project eda and the repo come first.
  await createProject(client, { project: 'eda' });
  await createRepo(client, { project: 'eda', repo: BOLT, description: 'SoC benchmark' });
});

test.afterAll(() => stopSpecServer(server, tempDir));

const items = (page: Page) => page.getByTestId(testIds.edaUploadItem);
const item = (page: Page, relative: string) => items(page).filter({ hasText: relative });

async function attachFolder(page: Page) {
  await modal(page).locator('input[type=file]').setInputFiles(folder);
}

test('upload a folder: validation, clear, a failed chunk, retry, done, files landed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto(`${server.url}/updatebolt/${BOLT}`);

  // Layout and defaults.
  await expect(modal(page).getByRole('heading', { name: 'Upload Files', level: 2 })).toBeVisible();
  const filePath = modal(page).getByPlaceholder('please input file path');
  const commitMessage = modal(page).getByPlaceholder('please input commit message');
  await expect(filePath).toHaveValue('/rtl');
  await expect(commitMessage).toHaveValue('');
  await expect(modal(page).getByText('File Path', { exact: true })).toBeVisible();
  await expect(modal(page).getByText('Commit Message')).toBeVisible();
  await expect(modal(page).getByText('Attach Files')).toBeVisible();
  await expect(
    modal(page).getByText(/upload the user_plugin folder located in the rtl directory/),
  ).toBeVisible();
  await expect(modal(page).getByText('Total: 0 files')).toBeVisible();
  await expect(modal(page).getByText('Upload your file on the left!')).toBeVisible();
  await expect(primary(page)).toHaveText('Upload');
  await expect(primary(page)).toBeDisabled();

  // Validation: an empty path shows the alert under the field; the path is trimmed.
  await filePath.fill('');
  await expect(modal(page).getByRole('alert')).toHaveText('A path is required');
  await filePath.fill('   ');
  await expect(modal(page).getByRole('alert')).toHaveText('A path is required');
  await filePath.fill('  /rtl/  ');
  await expect(modal(page).getByRole('alert')).toHaveCount(0);
  await commitMessage.fill('  benchmark upload  ');

  // Attach the folder: every file by its relative path, with a progress bar.
  await attachFolder(page);
  await expect(modal(page).getByText('Total: 4 files')).toBeVisible();
  for (const relative of Object.keys(files)) {
    await expect(item(page, relative)).toBeVisible();
    await expect(item(page, relative).locator('.ant-progress-small')).toBeVisible();
    await expect(item(page, relative)).toHaveAttribute('data-status', 'normal');
  }
  await expect(primary(page)).toBeEnabled();

  // Delete one by its relative path; picking the folder again brings it back, no duplicates.
  await modal(page).getByRole('button', { name: 'Delete bench/src/alu/regs.v' }).click();
  await expect(modal(page).getByText('Total: 3 files')).toBeVisible();
  await expect(item(page, 'bench/src/alu/regs.v')).toHaveCount(0);
  await expect(item(page, 'bench/src/alu/alu.v')).toBeVisible();
  await attachFolder(page);
  await expect(modal(page).getByText('Total: 4 files')).toBeVisible();

  // Clear asks first: NO keeps the files, YES empties the list.
  await modal(page).getByRole('button', { name: 'Clear' }).click();
  const confirm = page.getByRole('dialog', { name: 'Clear uploaded files' });
  await expect(confirm).toBeVisible();
  await expect(
    confirm.getByText('Are you certain you wish to delete the uploaded files?'),
  ).toBeVisible();
  await confirm.getByRole('button', { name: 'NO' }).click();
  await expect(confirm).toBeHidden();
  await expect(modal(page).getByText('Total: 4 files')).toBeVisible();
  await modal(page).getByRole('button', { name: 'Clear' }).click();
  await page
    .getByRole('dialog', { name: 'Clear uploaded files' })
    .getByRole('button', { name: 'YES' })
    .click();
  await expect(modal(page).getByText('Total: 0 files')).toBeVisible();
  await expect(modal(page).getByText('Upload your file on the left!')).toBeVisible();
  await expect(primary(page)).toBeDisabled();
  await attachFolder(page);
  await expect(modal(page).getByText('Total: 4 files')).toBeVisible();

  // Upload: chunk 1 of core.bin fails at the server → the file errors, keeping 33 % (1 of 3).
  await primary(page).click();
  await expect(page.getByText(FAULT_MESSAGE)).toBeVisible();
  const big = item(page, `bench/big/${FAILING_FILE}`);
  await expect(big).toHaveAttribute('data-status', 'error');
  await expect(big).toHaveAttribute('data-progress', '33');
  await expect(big.locator('.ant-progress-status-exception')).toBeVisible();
  // The bar keeps the percent reached (antd shows the exception icon instead of the number).
  await expect(big.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33');
  await expect(primary(page)).toHaveText('Upload');
  await expect(primary(page)).toBeEnabled();

  // Retry sends only the chunks the server lacks: chunk 1, and chunk 2 unless the server kept it
  // (the engine keeps two chunks in flight, so chunk 2 may have arrived whole before the failure
  // aborted it); never chunk 0.
  const chunkPosts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/upload') {
      chunkPosts.push(request.url());
    }
  });
  await big.getByRole('button', { name: 'Retry' }).click();
  await expect(big).toHaveAttribute('data-status', 'success');
  await expect(big).toHaveAttribute('data-progress', '100');
  await expect(big.locator('.ant-progress-status-success')).toBeVisible();
  expect(chunkPosts.length).toBeGreaterThanOrEqual(1);
  expect(chunkPosts.length).toBeLessThanOrEqual(2);

  // The run stopped at the failure; files it had not reached are sent by Upload again.
  if ((await primary(page).textContent())?.includes('Upload')) await primary(page).click();
  await expect(primary(page)).toHaveText('Done', { timeout: 60_000 });
  for (const relative of Object.keys(files)) {
    await expect(item(page, relative)).toHaveAttribute('data-status', 'success');
  }

  // Done finishes every session, says so, and goes to /bolt about a second later.
  const clickedAt = Date.now();
  await primary(page).click();
  await expect(page.getByText('upload file success.')).toBeVisible();
  await page.waitForURL(/\/bolt$/);
  // The redirect timer (1000 ms) starts once every /upload/finish has answered: never sooner
  // (a bound load cannot break; how much later depends on the machine, so no upper bound).
  const waited = Date.now() - clickedAt;
  expect(waited).toBeGreaterThanOrEqual(1000);
  await expect(page.getByRole('heading', { name: 'Bolts', level: 2 })).toBeVisible();
  await expect(page.getByTestId(testIds.edaBoltRow).filter({ hasText: BOLT })).toContainText(
    'benchmark upload',
  );

  // One Upload is one commit, whatever the folders: every file of every directory in it, with the
  // trimmed commit message (a flow run sees the whole design, never half of it).
  const commits = await listCommits(client, { project: 'eda', repo: BOLT });
  expect(commits).toHaveLength(1);
  expect(commits[0]!.description).toBe('benchmark upload');
  expect(commits[0]!.finished).not.toBeNull();
  expect(new Set(Object.keys(files).map((relative) => path.posix.dirname(relative)))).toEqual(
    new Set(dirs),
  );
  for (const relative of Object.keys(files)) {
    const response = await fetch(
      fileUrl(
        { project: 'eda', repo: BOLT, commitId: commits[0]!.commit.id, path: `/rtl/${relative}` },
        server.url,
      ),
    );
    expect(response.ok, relative).toBe(true);
  }

  // Byte-identical at the head of master: through /files, and small files through GetFile too.
  for (const [relative, bytes] of Object.entries(files)) {
    const response = await fetch(
      fileUrl(
        { project: 'eda', repo: BOLT, commitId: 'master', path: `/rtl/${relative}` },
        server.url,
      ),
    );
    expect(response.ok).toBe(true);
    const served = Buffer.from(await response.arrayBuffer());
    expect(served.equals(bytes)).toBe(true);
    expect(served.equals(await readFile(path.join(tempDir, relative)))).toBe(true);
    if (bytes.length < MiB) {
      const viaGetFile = await getFileBytes(client, {
        project: 'eda',
        repo: BOLT,
        commitId: '',
        branch: 'master',
        path: `/rtl/${relative}`,
      });
      expect(Buffer.from(viaGetFile).equals(bytes)).toBe(true);
    }
  }
});

test('closing the modal goes back after about 200 ms', async ({ page }) => {
  await page.goto(`${server.url}/bolt`);
  await page
    .getByTestId(testIds.edaBoltRow)
    .filter({ hasText: BOLT })
    .getByRole('button', { name: 'Upload' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/updatebolt/${BOLT}$`));
  await expect(modal(page).getByRole('heading', { name: 'Upload Files' })).toBeVisible();
  await modal(page).getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/bolt$/);
  await expect(modal(page)).toBeHidden();
});
