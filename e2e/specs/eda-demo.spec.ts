import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { results, type Json } from '../../server/test/helpers/api-client.ts';
import type { ServerProcess } from '../../server/test/helpers/server-process.ts';
import { edaRtlDir } from '../../server/src/eda/demo-flow.ts';
import { testIds } from '../../web/src/test-ids.ts';
import {
  startSpecServer,
  stopSpecServer,
  uploadModal as modal,
  uploadPrimary as primary,
} from '../support/spec-server.ts';

// The EDA demo end to end, on this spec's own fresh server (first start seeds project eda, its
// bolt demo-rtl and the yosys flow's trials): upload a changed ALU through the upload modal, and
// the flow runs again as a new trial whose synthesis metrics differ from the seeded trial's.
const BOLT = 'demo-rtl';
const SEEDED_TRIALS = 3;

let server: ServerProcess;
let tempDir: string;
let folder: string;

const listTrials = (): Promise<Json[]> =>
  results(server.url, 'omni_v1.API/ListTrial', {
    project: { name: 'eda' },
    flow: 'yosys',
    pageSize: 100,
  });
const metric = (trial: Json, name: string): number | undefined =>
  trial.metrics.find((m: Json) => m.name === name)?.value;

test.beforeAll(async () => {
  tempDir = await mkdtemp(path.join(tmpdir(), 'ivory-eda-demo-'));
  // A folder named rtl holding only alu.v, uploaded to File Path "/": it lands at /rtl/alu.v.
  folder = path.join(tempDir, 'rtl');
  await mkdir(folder);
  const alu = (await readFile(path.join(edaRtlDir, 'alu.v'), 'utf8'))
    .replace(/OP_SHL: .*\n/, '')
    .replace(/OP_SHR: .*\n/, '');
  await writeFile(path.join(folder, 'alu.v'), alu);
  server = await startSpecServer({ IVORY_SEED: 'true' });
});

test.afterAll(() => stopSpecServer(server, tempDir));

test('a changed ALU uploaded through the modal runs the flow again with different metrics', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // The seeded trials finish on their own.
  await expect
    .poll(async () => (await listTrials()).filter((t) => t.finished).length, {
      timeout: 150_000,
      intervals: [1000],
    })
    .toBe(SEEDED_TRIALS);
  const seeded = await listTrials();
  // A bolt commit reruns the flow with its last trial's parameters (the params repo's head).
  const last = seeded.reduce((a, b) => (a.created > b.created ? a : b));
  expect(last.state, last.reason).toBe('STARTED');

  await page.goto(`${server.url}/project/eda/trials?flow=yosys`);
  const rows = page.getByTestId(testIds.trialRow);
  await expect(rows.filter({ hasText: 'Succeeded' })).toHaveCount(SEEDED_TRIALS);

  await page.goto(`${server.url}/updatebolt/${BOLT}`);
  await expect(modal(page).getByRole('heading', { name: 'Upload Files', level: 2 })).toBeVisible();
  await modal(page).getByPlaceholder('please input file path').fill('/');
  await modal(page).getByPlaceholder('please input commit message').fill('ALU without the shifter');
  await modal(page).locator('input[type=file]').setInputFiles(folder);
  await expect(modal(page).getByText('Total: 1 files')).toBeVisible();
  await primary(page).click();
  await expect(primary(page)).toHaveText('Done', { timeout: 60_000 });
  await primary(page).click();
  await page.waitForURL(/\/bolt$/);

  // The new trial appears in the table and finishes.
  await page.goto(`${server.url}/project/eda/trials?flow=yosys`);
  await expect(rows.filter({ hasText: 'Succeeded' })).toHaveCount(SEEDED_TRIALS + 1, {
    timeout: 120_000,
  });
  const trials = await listTrials();
  const changed = trials.find((t) => t.labels?.trigger === 'bolt') as Json;
  expect(changed.description).toContain('ALU without the shifter');
  expect(changed.parameters).toEqual(last.parameters);
  const cells = metric(changed, 'cells') as number;
  expect(cells).toBeGreaterThan(0);
  expect(cells).not.toBe(metric(last, 'cells'));

  // Its page shows the new numbers.
  await page.goto(`${server.url}/project/eda/trials/${changed.id}`);
  const detail = page.getByTestId(testIds.trialDetail);
  await expect(detail.getByText('ALU without the shifter')).toBeVisible();
  const cellsRow = detail
    .getByRole('table', { name: 'metrics' })
    .getByRole('row')
    .filter({ has: page.locator('code', { hasText: /^cells$/ }) });
  await expect(cellsRow).toContainText(String(cells));
});

test('the setup screen lists the EDA tools this server can run', async ({ page }) => {
  const onPath = (program: string, flag: string) => !spawnSync(program, [flag]).error;
  await page.goto(`${server.url}/setup`);
  const table = page.getByRole('table', { name: 'EDA tools' });
  const row = (name: string) => table.getByRole('row').filter({ hasText: name });
  await expect(row('Yosys')).toContainText('installed @yowasp/yosys');
  const icarus = onPath('iverilog', '-V') && onPath('vvp', '-V');
  await expect(row('Icarus Verilog')).toContainText(
    icarus ? /installed Icarus Verilog/ : 'not installed',
  );
  await expect(row('Verilator')).toContainText(
    onPath('verilator', '--version') ? /installed Verilator/ : 'not installed',
  );
});
