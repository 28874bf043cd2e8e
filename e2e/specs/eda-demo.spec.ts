import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { results, type Json } from '../../server/test/helpers/api-client.ts';
import { edaToolsDir } from '../../server/test/helpers/eda-tools.ts';
import type { ServerProcess } from '../../server/test/helpers/server-process.ts';
import { edaCliPath } from '../../server/src/eda/demo-flow.ts';
import { testIds } from '../../web/src/test-ids.ts';
import { expectNoSeriousAxeViolations } from '../support/axe.ts';
import {
  startSpecServer,
  stopSpecServer,
  uploadModal as modal,
  uploadPrimary as primary,
  writeTree,
} from '../support/spec-server.ts';

// The chip designer's loop end to end, on this spec's own fresh server (first start seeds
// project eda, its bolt demo-rtl and the yosys flow's trials). The flow's optional tools come
// from IVORY_EDA_TOOLS_PATH: OpenSTA and Verilator, but no simulator until the test "installs"
// Icarus Verilog. A new design in three folders goes through the modal as one commit and one
// trial of that design; a syntax error reads Failed with its file and line; the missing
// simulator reads "not run" until installed, and then a rerun simulates; compare shows the
// table of differences; every screen of the loop passes axe in both colour schemes.
const BOLT = 'demo-rtl';
const SEEDED_TRIALS = 3;

const counter4 = `// A 4-bit counter with enable and synchronous reset.
module counter4 (
    input  wire       clk,
    input  wire       rst,
    input  wire       en,
    output reg  [3:0] q
);
    always @(posedge clk) begin
        if (rst) q <= 4'd0;
        else if (en) q <= q + 4'd1;
    end
endmodule
`;
const bench = `\`timescale 1ns / 1ps
module counter4_tb;
    reg clk = 0, rst = 1, en = 0;
    wire [3:0] q;
    integer checks = 0, errors = 0, i;
    counter4 dut (.clk(clk), .rst(rst), .en(en), .q(q));
    always #5 clk = ~clk;
    initial begin
        @(negedge clk) rst = 0; en = 1;
        for (i = 1; i <= 20; i = i + 1) begin
            @(negedge clk);
            checks = checks + 1;
            if (q !== i[3:0]) errors = errors + 1;
        end
        $display("checks=%0d errors=%0d", checks, errors);
        $finish;
    end
endmodule
`;
const plugin = JSON.stringify(
  {
    case: 'counter4',
    description: 'A 4-bit counter',
    stages: [
      { name: 'yosys-elaborate', parameters: [{ name: 'design', default: 'counter4' }] },
      { name: 'yosys-timing', parameters: [{ name: 'clock_period', default: 5 }] },
    ],
  },
  null,
  2,
);

let server: ServerProcess;
let tempDir: string;
let tools: Awaited<ReturnType<typeof edaToolsDir>>;

const listTrials = (): Promise<Json[]> =>
  results(server.url, 'omni_v1.API/ListTrial', {
    project: { name: 'eda' },
    flow: 'yosys',
    pageSize: 100,
  });
const boltCommits = () =>
  results(server.url, 'pfs_v2.API/ListCommit', {
    repo: { name: BOLT, type: 'user', project: { name: 'eda' } },
  });

/** Yosys's own count of generic gates for the RTL (the flow's `cells`), outside the flow. */
function yosysCells(dir: string): number {
  execFileSync(
    process.execPath,
    [
      edaCliPath,
      'yosys',
      '-q',
      '-p',
      'read_verilog -sv counter4.v; hierarchy -check -top counter4; proc; synth -flatten -noabc -top counter4; abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX; opt_clean; tee -q -o yosys-stat.json stat -json',
    ],
    { cwd: dir },
  );
  return Number(
    JSON.parse(readFileSync(path.join(dir, 'yosys-stat.json'), 'utf8')).design.num_cells,
  );
}

async function upload(page: Page, folder: string, filePath: string, message: string) {
  await page.goto(`${server.url}/updatebolt/${BOLT}`);
  await expect(modal(page).getByRole('heading', { name: 'Upload Files', level: 2 })).toBeVisible();
  await modal(page).getByPlaceholder('please input file path').fill(filePath);
  await modal(page).getByPlaceholder('please input commit message').fill(message);
  await modal(page).locator('input[type=file]').setInputFiles(folder);
}

test.beforeAll(async () => {
  tempDir = await mkdtemp(path.join(tmpdir(), 'ivory-eda-demo-'));
  tools = await edaToolsDir('e2e');
  await tools.remove('iverilog');
  await tools.remove('vvp');
  // A design in three folders, picked as the folder rtl/ (its user_plugin from the rtl folder).
  await writeTree(path.join(tempDir, 'rtl'), {
    'counter4.v': counter4,
    'tb/counter4_tb.v': bench,
    'user_plugin/plugin.json': plugin,
  });
  await writeTree(path.join(tempDir, 'broken', 'rtl'), {
    'counter4.v': counter4.replace("q + 4'd1;", "q + 4'd1"),
  });
  await writeTree(path.join(tempDir, 'yosys'), { 'counter4.v': counter4 });
  server = await startSpecServer({ IVORY_SEED: 'true', IVORY_EDA_TOOLS_PATH: tools.dir });
});

test.afterAll(async () => {
  await stopSpecServer(server, tempDir);
  await tools.close();
});

test('a new design uploaded through the modal: one commit, one trial of it, Failed on a syntax error, a simulator installed, compared', async ({
  page,
}) => {
  test.setTimeout(480_000);
  // The seeded trials finish on their own; without a simulator their simulate stage is not run.
  await expect
    .poll(async () => (await listTrials()).filter((t) => t.finished).length, {
      timeout: 200_000,
      intervals: [1000],
    })
    .toBe(SEEDED_TRIALS);
  await page.goto(`${server.url}/project/eda/trials?flow=yosys`);
  const rows = page.getByTestId(testIds.trialRow);
  await expect(rows.filter({ hasText: 'Succeeded' })).toHaveCount(SEEDED_TRIALS);
  await expect(rows.filter({ hasText: '1 not run' })).toHaveCount(SEEDED_TRIALS);

  // The upload: File Path /rtl (the default) and the folder rtl/ are not doubled; nothing
  // misplaced is warned about; one Upload is one commit.
  const commitsBefore = (await boltCommits()).length;
  await upload(page, path.join(tempDir, 'rtl'), '/rtl', 'a 4-bit counter');
  await expect(modal(page).getByText('Total: 3 files')).toBeVisible();
  await expect(modal(page).getByTestId('eda-upload-item-target')).toHaveText([
    '→ /rtl/counter4.v',
    '→ /rtl/tb/counter4_tb.v',
    '→ /rtl/user_plugin/plugin.json',
  ]);
  await expect(modal(page).getByTestId('eda-upload-doubled')).toBeVisible();
  await expect(modal(page).getByTestId('eda-upload-placement')).toHaveCount(0);
  // A File Path the flow does not read is warned about before uploading.
  await modal(page).getByPlaceholder('please input file path').fill('/designs');
  await expect(modal(page).getByTestId('eda-upload-placement')).toContainText(
    '/designs/rtl/user_plugin/plugin.json',
  );
  await expectNoSeriousAxeViolations(page, 'the upload modal with a placement warning');
  await modal(page).getByPlaceholder('please input file path').fill('/rtl');
  await expect(modal(page).getByTestId('eda-upload-placement')).toHaveCount(0);
  await primary(page).click();
  await expect(primary(page)).toHaveText('Done', { timeout: 60_000 });
  await primary(page).click();
  // After Done: the commit and the trial it started, named and linked.
  const landed = page.getByTestId('eda-upload-landed').first();
  await expect(landed.getByTestId('eda-upload-trial')).toHaveText('counter4 (yosys)');
  await page.waitForURL(/\/bolt$/);
  await expect(page.getByTestId('eda-upload-landed')).toContainText('Trial started: counter4');
  await expectNoSeriousAxeViolations(page, 'the bolts list after an upload');
  expect((await boltCommits()).length).toBe(commitsBefore + 1);

  await page.getByTestId('eda-upload-trial').click();
  await expect(page).toHaveURL(/\/project\/eda\/trials\/[0-9a-f]{32}$/);
  const trialId = page.url().split('/').pop() as string;
  const detail = page.getByTestId(testIds.trialDetail);
  await expect(detail.getByTestId(testIds.trialState)).toHaveText('Succeeded', {
    timeout: 180_000,
  });
  const trials = await listTrials();
  const trial = trials.find((t) => t.id === trialId) as Json;
  expect(trials.filter((t) => t.labels?.commit === trial.labels.commit)).toHaveLength(1);
  expect(trial).toMatchObject({ case: 'counter4', parameters: { design: 'counter4' } });
  // Its cell count is Yosys's own on the same RTL.
  const cells = yosysCells(path.join(tempDir, 'yosys'));
  expect(trial.metrics.find((m: Json) => m.name === 'cells').value).toBe(cells);
  // The QoR first, with the reports; the missing simulator reads "not run", grey, with why.
  const qor = detail.getByTestId('trial-qor');
  await expect(qor.locator('[data-qor="cells"]')).toContainText(
    String(trial.metrics.find((m: Json) => m.name === 'std_cells').value),
  );
  await expect(qor.locator('[data-qor="area"]')).toContainText('µm²');
  await expect(qor.locator('[data-qor="delay"]')).toContainText('ns');
  await expect(qor.locator('[data-qor="sim"]')).toContainText('not run');
  await expect(qor.getByTestId('trial-report')).toContainText([
    'Stat report',
    'Netlist',
    'Timing report',
  ]);
  const simulate = detail.locator('[data-testid="trial-stage"][data-stage="3-simulate"]');
  await expect(simulate.getByTestId('trial-stage-state')).toHaveText('not run');
  await expect(simulate).toContainText('Icarus Verilog (iverilog) is not installed');
  await expect(detail.getByTestId('trial-not-run')).toHaveText('1 not run');
  await expectNoSeriousAxeViolations(page, 'a trial');

  // RTL with a syntax error: a Failed trial whose reason names the file and line.
  await upload(page, path.join(tempDir, 'broken', 'rtl'), '/rtl', 'a typo');
  await primary(page).click();
  await expect(primary(page)).toHaveText('Done', { timeout: 60_000 });
  await primary(page).click();
  await page.waitForURL(/\/bolt$/);
  await page.getByTestId('eda-upload-trial').click();
  await expect(detail.getByTestId(testIds.trialState)).toHaveText('Failed', { timeout: 120_000 });
  const failure = detail.getByTestId('trial-failure');
  await expect(failure).toContainText(/rtl\/counter4\.v:\d+: ERROR: syntax error/);
  await expect(
    detail
      .locator('[data-testid="trial-stage"][data-stage="2-synth"]')
      .getByTestId('trial-stage-state'),
  ).toHaveText('Unrunnable');
  await expectNoSeriousAxeViolations(page, 'a failed trial');
  await failure.getByRole('link', { name: 'Open the log at this line' }).click();
  await expect(page.locator('[data-found="true"]')).toContainText(/rtl\/counter4\.v:\d+: ERROR/);

  // Icarus Verilog "installed": a rerun of the counter's trial simulates (the tools' versions
  // are part of the design the later stages read, so the simulate datum is not reused).
  await tools.install('iverilog');
  await tools.install('vvp');
  await page.goto(`${server.url}/project/eda/trials/${trialId}`);
  await detail.getByTestId(testIds.trialRerun).click();
  await expect(page).not.toHaveURL(new RegExp(trialId));
  const rerunId = page.url().split('/').pop() as string;
  // The address changes before the new trial is drawn (the old one stays on screen meanwhile).
  await expect(detail.getByRole('heading', { level: 2 })).toContainText(rerunId);
  await expect(detail.getByTestId(testIds.trialState)).toHaveText('Succeeded', {
    timeout: 180_000,
  });
  await expect(detail.getByTestId('trial-qor').locator('[data-qor="sim"]')).toContainText('PASS');
  await expect(detail.getByTestId('trial-qor').locator('[data-qor="sim"]')).toContainText(
    '20 checks',
  );
  await expect(detail.getByTestId('trial-not-run')).toHaveCount(0);

  // Compare: the table of differences first — values, delta and per cent, missing as "—",
  // regressions red by the metric's direction (the 8-bit ALU is larger than the counter).
  const alu8 = trials.find((t) => t.case === 'alu-8') as Json;
  await page.goto(`${server.url}/project/eda/trials/compare?ids=${trialId},${rerunId},${alu8.id}`);
  const diff = page.getByTestId('trials-metric-diff');
  const row = (metric: string) =>
    diff.locator(`[data-testid="trials-metric-diff-row"][data-metric="${metric}"]`);
  await expect(row('area').locator('[data-verdict="worse"]')).toHaveCount(1);
  await expect(row('area').locator('[data-verdict="same"]')).toHaveCount(1);
  await expect(row('area')).toContainText('%');
  await expect(row('sim_checks')).toContainText('—');
  await expect(row('sim_ran').locator('[data-verdict]').first()).toContainText('+1');
  await expect(
    page.locator(
      `[data-testid="${testIds.trialsBarChart}"][data-metric="area"] .recharts-label-list text`,
    ),
  ).toHaveCount(3);
  await expectNoSeriousAxeViolations(page, 'compare');

  // The case's page: its own trials, its result files.
  await page.goto(`${server.url}/case/counter4`);
  await expect(page.getByTestId('eda-case-trial')).toHaveCount(3);
  await expect(page.getByTestId('eda-case-result').first()).toBeVisible();
  await expect(page.getByText('fifo-16')).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'a case');
});

test('the setup screen lists the EDA tools this server can run', async ({ page }) => {
  // The simulator is installed whether or not the loop above got that far.
  for (const program of ['iverilog', 'vvp']) {
    await tools.remove(program).catch(() => undefined);
    await tools.install(program);
  }
  await page.goto(`${server.url}/setup`);
  const table = page.getByRole('table', { name: 'EDA tools' });
  const row = (name: string) => table.getByRole('row').filter({ hasText: name });
  await expect(row('Yosys')).toContainText('installed @yowasp/yosys');
  await expect(row('Icarus Verilog')).toContainText(/installed Icarus Verilog/);
  await expect(row('Verilator')).toContainText(/installed Verilator/);
  await expect(row('OpenSTA')).toContainText(/installed OpenSTA/);
  await expectNoSeriousAxeViolations(page, 'setup');
});
