import { expect, test } from '@playwright/test';
import { call, commitFiles, createProjectIfMissing, createRepo } from '../support/data-api.ts';
import { edaTestIds } from '../../web/src/features/eda/test-ids.ts';
import { testIds } from '../../web/src/test-ids.ts';
import { createPipelineViaApi } from './pipelines-support.ts';

// A two-stage flow (lint → synth, pipelines labelled flow=synth) over a bolt with an RTL file,
// all in project eda, against the shared server.
const BOLT = 'flow-core';
const LINT = 'synth-lint';
const SYNTH = 'synth-synth';

function stageSpec(name: string, stage: string, input: string, script: string[]) {
  return {
    pipeline: { name, project: { name: 'eda' } },
    metadata: { labels: { flow: 'synth', stage } },
    input: { pfs: { project: 'eda', repo: input, glob: '/' } },
    transform: { image: 'alpine:3.20', cmd: ['sh'], stdin: script },
  };
}

test.setTimeout(120_000);

test.beforeAll(async ({ baseURL }) => {
  const baseUrl = baseURL as string;
  await createProjectIfMissing(baseUrl, 'eda', 'Chip-design benchmarking');
  await createRepo(baseUrl, BOLT, 'RTL of the flow test', 'eda');
  await commitFiles(
    baseUrl,
    BOLT,
    { 'rtl/top.v': 'module top(input clk, output q);\nendmodule\n' },
    { project: 'eda', description: 'first RTL' },
  );
});

// The suite shares one server: other specs expect project eda without flows.
test.afterAll(async ({ baseURL }) => {
  for (const name of [SYNTH, LINT])
    await call(baseURL as string, 'pps_v2.API/DeletePipeline', {
      pipeline: { name, project: { name: 'eda' } },
      force: true,
    });
});

test('a two-stage flow: graph, stages in order, a successful run, a case and the bolts list', async ({
  page,
  request,
}) => {
  // Stage 2 is created first: the order on screen comes from the stage labels.
  await createPipelineViaApi(
    request,
    stageSpec(LINT, '1-lint', BOLT, [
      `grep -c module /pfs/${BOLT}/rtl/top.v > /pfs/out/lint.txt`,
      'echo lint ok',
    ]),
  );
  await createPipelineViaApi(
    request,
    stageSpec(SYNTH, '2-synth', LINT, [
      `cat /pfs/${LINT}/lint.txt > /pfs/out/netlist.txt`,
      'echo synth ok',
    ]),
  );

  await page.goto('/flow');
  await expect(page.getByTestId(testIds.edaFlowRow).filter({ hasText: 'synth' })).toContainText(
    '2 stages',
  );

  await page.goto('/flow/synth');
  await expect(page.getByRole('heading', { name: 'synth', level: 3 })).toBeVisible();
  // The ordered stage list.
  await expect(page.getByTestId(edaTestIds.flowStage)).toHaveText(['1-lint', '2-synth']);
  // The lineage graph of the flow: the bolt, then both stages, linked in order.
  const graph = page.getByTestId(edaTestIds.flowGraph);
  await expect(graph.getByTestId(testIds.lineageGraph)).toHaveAttribute('data-node-count', '3');
  const bolt = graph.locator(`[data-node-id="repo:eda/${BOLT}"]`);
  const lint = graph.locator(`[data-node-id="pipeline:eda/${LINT}"]`);
  const synth = graph.locator(`[data-node-id="pipeline:eda/${SYNTH}"]`);
  await expect(bolt).toBeVisible();
  await expect(lint).toBeVisible();
  await expect(synth).toBeVisible();
  const [boltBox, lintBox, synthBox] = await Promise.all(
    [bolt, lint, synth].map((node) => node.boundingBox()),
  );
  expect(boltBox!.y).toBeLessThan(lintBox!.y);
  expect(lintBox!.y).toBeLessThan(synthBox!.y);

  // A run of the flow (its stages' jobs under one global ID) reaches success.
  const done = page
    .getByTestId(edaTestIds.flowRun)
    .and(page.locator('[data-state="JOB_SUCCESS"]'))
    .first();
  await expect(done).toBeVisible({ timeout: 45_000 });
  await expect(done).toContainText('2-synth: Success');
  await done.getByRole('link', { name: /2-synth/ }).click();
  await expect(page).toHaveURL(new RegExp(`/project/eda/pipelines/${SYNTH}/jobs/[^/]+/logs$`));

  // A case through the case form, for this flow.
  await page.goto('/case');
  await page.getByLabel('Case', { exact: true }).fill('core-synth');
  await page.getByLabel('Bolt (rtl)').click();
  await page.locator('.ant-select-item-option', { hasText: BOLT }).click();
  await page.getByLabel('flow', { exact: true }).fill('synth');
  await page.getByLabel('process', { exact: true }).fill('n7');
  await page.getByLabel('author', { exact: true }).fill('e2e');
  await page.getByRole('button', { name: 'Create case' }).click();
  const caseRow = page.getByTestId(testIds.edaCaseRow).filter({ hasText: 'core-synth' });
  await expect(caseRow).toContainText(BOLT);
  await caseRow.getByRole('link', { name: 'core-synth' }).click();
  await expect(page).toHaveURL(/\/case\/core-synth$/);
  const config = page.locator('.ant-descriptions');
  await expect(config.locator('td', { hasText: 'n7' })).toBeVisible();
  await expect(config.locator('td', { hasText: 'e2e' })).toBeVisible();
  await expect(config.getByRole('link', { name: 'synth' })).toBeVisible();
  await expect(config.locator('td', { hasText: BOLT }).first()).toBeVisible();
  await expect(
    page.getByTestId(edaTestIds.caseRun).and(page.locator('[data-state="JOB_SUCCESS"]')).first(),
  ).toBeVisible();

  // The stages' output repos are not bolts.
  await page.goto('/bolt');
  await expect(page.getByTestId(testIds.edaBoltRow).filter({ hasText: BOLT })).toBeVisible();
  await expect(page.getByTestId(testIds.edaBoltRow).filter({ hasText: LINT })).toHaveCount(0);
  await expect(page.getByTestId(testIds.edaBoltRow).filter({ hasText: SYNTH })).toHaveCount(0);
});
