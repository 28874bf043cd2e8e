import { expect, test, type APIRequestContext } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';

// A real one-stage flow `demo` in project `default`: `demo-train` reads the trial's
// /params.json from `demo-params` and writes /metrics.json with accuracy = 2 * lr and a loss
// history. Three trials (lr 0.1, 0.3, 0.4 → accuracy 0.2, 0.6, 0.8); accuracy > 0.5 keeps two.

const train = `
const fs = require('fs');
const p = JSON.parse(fs.readFileSync(process.env.PFS_DEMO_PARAMS + '/params.json', 'utf8'));
const lr = Number(p.lr);
const loss = [1, 2, 3].map((step) => ({ step, value: 1 / (step * (1 + lr)) }));
fs.writeFileSync(process.env.PFS_OUT + '/metrics.json',
  JSON.stringify({ accuracy: Number((lr * 2).toFixed(6)), loss }));
`;

async function call(api: APIRequestContext, method: string, body: object) {
  const response = await api.post(`/api/${method}`, { data: body });
  const text = await response.text();
  expect(response.ok(), `${method}: ${text}`).toBe(true);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

let api: APIRequestContext;
const apiTrialIds: string[] = [];

test.beforeAll(async ({ playwright }, testInfo) => {
  api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  await call(api, 'pfs_v2.API/CreateRepo', {
    repo: { name: 'demo-params', type: 'user', project: { name: 'default' } },
  });
  await call(api, 'pps_v2.API/CreatePipelineV2', {
    createPipelineRequestJson: JSON.stringify({
      pipeline: { name: 'demo-train', project: { name: 'default' } },
      metadata: { labels: { flow: 'demo', stage: 'train', 'param.lr': '0.1' } },
      transform: { cmd: [process.execPath, '-e', train] },
      datumTries: 1,
      input: { pfs: { repo: 'demo-params', glob: '/' } },
    }),
    update: false,
    dryRun: false,
  });
  for (const lr of ['0.1', '0.4']) {
    const trial = await call(api, 'omni_v1.API/CreateTrial', {
      project: { name: 'default' },
      flow: 'demo',
      parameters: { lr },
      description: `api lr=${lr}`,
    });
    apiTrialIds.push(String(trial.id));
  }
});

test.afterAll(async () => {
  await api.dispose();
});

test('create trials, filter them by a metric, and compare two', async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto('/project/default/trials?flow=demo');
  await expect(page.getByRole('heading', { name: 'Trials' })).toBeVisible();

  // One trial through the form: the flow is preselected, lr prefilled from the flow's label.
  await page.getByTestId(testIds.trialCreate).click();
  const dialog = page.getByRole('dialog');
  const lr = dialog.getByLabel('Parameter lr');
  await expect(lr).toHaveValue('0.1');
  await lr.fill('0.3');
  await dialog.getByLabel('Description').fill('ui lr=0.3');
  await dialog.getByRole('button', { name: 'Create trial' }).click();
  await expect(dialog).toHaveCount(0);

  // The table polls unfinished trials until their runs succeed.
  const rows = page.getByTestId(testIds.trialRow);
  await expect(rows.filter({ hasText: 'Succeeded' })).toHaveCount(3, { timeout: 90_000 });
  await expect(page.getByTestId(testIds.trialsCount)).toHaveText('3 trials');

  // Filter on the metric: accuracy > 0.5 keeps lr 0.3 and 0.4.
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel('Filter 1 field').fill('metric.accuracy');
  await page.getByRole('combobox', { name: 'Filter 1 operator' }).click();
  await page.getByRole('option', { name: 'GT', exact: true }).click();
  await page.getByLabel('Filter 1 value').fill('0.5');
  await page.getByTestId(testIds.trialsFilterApply).click();
  await expect(page).toHaveURL(/f=metric\.accuracy%3AGT%3A0\.5/);
  await expect(page.getByTestId(testIds.trialsCount)).toHaveText('2 trials');
  await expect(rows).toHaveCount(2);
  const ids = await rows.evaluateAll((elements) =>
    elements.map((element) => element.getAttribute('data-trial-id') ?? ''),
  );
  expect(ids).toContain(apiTrialIds[1]);
  expect(ids).not.toContain(apiTrialIds[0]);

  // The view survives a reload (it lives in the URL).
  await page.reload();
  await expect(page.getByTestId(testIds.trialsCount)).toHaveText('2 trials');

  for (const id of ids) await page.getByLabel(`Select trial ${id}`).check();
  await page.getByTestId(testIds.trialsCompare).click();
  await expect(page).toHaveURL(/\/project\/default\/trials\/compare\?ids=/);

  // The table of differences first: accuracy per trial, and the second's delta against the first.
  const accuracyRow = page.locator(
    '[data-testid="trials-metric-diff-row"][data-metric="accuracy"]',
  );
  await expect(accuracyRow.locator('[data-verdict]')).toHaveCount(1);
  await expect(accuracyRow).toContainText('%');
  // Below it, a bar per trial named on the axis, in the columns' order, its value on it.
  const chart = page.locator(`[data-testid="${testIds.trialsBarChart}"][data-metric="accuracy"]`);
  await expect(chart.locator('.recharts-bar-rectangle')).toHaveCount(2);
  const ticks = chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-label');
  await expect(ticks).toHaveText(ids.map((id) => id.slice(-8)));
  await expect(chart.locator('.recharts-label-list text')).toHaveCount(2);
  // The loss histories overlaid: a line per trial, the step on the x axis.
  const history = page.locator(`[data-testid="${testIds.trialsHistoryChart}"][data-metric="loss"]`);
  await expect(history.locator('.recharts-line')).toHaveCount(2);
  await expect(history.locator('.recharts-label', { hasText: 'step' })).toHaveCount(1);
  for (const id of ids) {
    await expect(history.locator('.recharts-legend-item', { hasText: id.slice(-8) })).toHaveCount(
      1,
    );
  }
  const lrRow = page.locator(`[data-testid="${testIds.trialsParamDiffRow}"][data-param="lr"]`);
  await expect(lrRow).toHaveAttribute('data-differs', 'true');
  await expect(lrRow).toContainText('0.3');
  await expect(lrRow).toContainText('0.4');
  await expect(page.getByTestId(testIds.trialsParallelCoords)).toContainText('metric: accuracy');
});
