import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edaCliPath, edaRtlDir } from '../src/eda/demo-flow.ts';
import { modifyFile, ok, results, type Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

// The EDA demo on a fresh server: the seeded project, its flow of real Yosys stages and the
// seeded trials' metrics; then a changed RTL commit to the bolt runs the flow again as a trial.

let server: TestServer;
let url: string;
const eda = { name: 'eda' };

beforeAll(async () => {
  server = await startTestServer({ seed: true, seedEda: true });
  url = server.url;
});
afterAll(() => server.close());

const metric = (trial: Json, name: string): number | undefined =>
  trial.metrics.find((m: Json) => m.name === name)?.value;

async function listTrials(): Promise<Json[]> {
  return results(url, 'omni_v1.API/ListTrial', { project: eda, flow: 'yosys', pageSize: 100 });
}

async function waitFor<T>(what: string, get: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const value = await get();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function commitToBolt(files: Record<string, string>, description: string): Promise<string> {
  const commit = await ok(url, 'pfs_v2.API/StartCommit', {
    branch: { repo: { name: 'demo-rtl', type: 'user', project: eda }, name: 'master' },
    description,
  });
  const written = await modifyFile(url, [
    { setCommit: commit },
    // A put, as pachctl's: delete, then add (a bare addFile appends to the file, as in pachd).
    ...Object.entries(files).flatMap(([p, content]) => [
      { deleteFile: { path: p } },
      { addFile: { path: p, raw: Buffer.from(content).toString('base64') } },
    ]),
  ]);
  expect(written.status).toBe(200);
  await ok(url, 'pfs_v2.API/FinishCommit', { commit });
  return commit.id as string;
}

describe('the seeded EDA demo', () => {
  it('has the bolt, its cases, the flow described by its plugin, and finished trials', async () => {
    const plugin = await ok(url, 'omni_v1.API/InspectFlowPlugin', { project: eda, flow: 'yosys' });
    expect(plugin.source).toBe('PLUGIN');
    expect(plugin.bolt).toBe('demo-rtl');
    expect(plugin.stages.map((s: Json) => s.pipeline.name)).toEqual([
      'yosys-elaborate',
      'yosys-synth',
      'yosys-lint',
      'yosys-simulate',
    ]);
    const names = plugin.stages.flatMap((s: Json) => s.parameters.map((p: Json) => p.name));
    expect(names).toEqual(
      expect.arrayContaining(['design', 'width', 'depth', 'flatten', 'abc_dff', 'target']),
    );
    const branches = await results(url, 'pfs_v2.API/ListBranch', {
      repo: { name: 'demo-rtl', type: 'user', project: eda },
    });
    expect(
      branches
        .map((b: Json) => b.metadata?.case)
        .filter(Boolean)
        .sort(),
    ).toEqual(['alu-32', 'alu-8', 'fifo-16']);

    const seeded = await waitFor('the seeded trials', async () => {
      const trials = await listTrials();
      return trials.length >= 3 && trials.every((t) => t.finished) ? trials : undefined;
    });
    for (const trial of seeded) {
      expect(trial.state, `${trial.case}: ${trial.reason}`).toBe('STARTED');
      for (const name of ['cells', 'wires', 'transistors', 'logic_depth', 'elab_cells'])
        expect(metric(trial, name), `${trial.case} ${name}`).toBeGreaterThan(0);
      expect(metric(trial, 'synth_ms')).toBeGreaterThanOrEqual(0);
      // Cells after elaboration, after generic synthesis, after mapping: a chart of three points.
      const perStep = trial.metrics.find((m: Json) => m.name === 'synth_cells_by_step');
      expect(perStep.history.map((p: Json) => p.step)).toEqual(['1', '2', '3']);
      expect(perStep.value).toBe(metric(trial, 'cells'));
      expect(perStep.history[0].value).toBe(metric(trial, 'elab_cells'));
      // Optional stages ran (1) or said they could not (0).
      expect([0, 1]).toContain(metric(trial, 'sim_ran'));
      expect([0, 1]).toContain(metric(trial, 'lint_ran'));
      if (metric(trial, 'sim_ran') === 1) expect(metric(trial, 'sim_errors')).toBe(0);
    }
    const byCase = (name: string) => seeded.find((t) => t.case === name) as Json;
    const alu8 = byCase('alu-8');
    const alu32 = byCase('alu-32');
    expect(alu8.parameters).toMatchObject({ design: 'alu', width: '8', flatten: 'true' });
    expect(alu32.parameters).toMatchObject({ design: 'alu', width: '32' });
    // Wider data, more logic.
    expect(metric(alu8, 'cells')).toBeLessThan(metric(alu32, 'cells') as number);
    expect(metric(alu8, 'transistors')).toBeLessThan(metric(alu32, 'transistors') as number);
    expect(metric(alu8, 'logic_depth')).toBeLessThan(metric(alu32, 'logic_depth') as number);
    // The FIFO, mapped for CMOS: flip-flops, and otherwise only NAND/NOR/NOT.
    const fifo = byCase('fifo-16');
    expect(fifo.parameters).toMatchObject({ design: 'fifo', target: 'cmos', abc_dff: 'true' });
    const kinds = fifo.metrics
      .map((m: Json) => m.name as string)
      .filter((name: string) => name.startsWith('cells_'));
    expect(kinds.filter((k: string) => k.includes('DFF')).length).toBeGreaterThan(0);
    expect(
      kinds.every(
        (k: string) => k.includes('DFF') || ['cells_NAND', 'cells_NOR', 'cells_NOT'].includes(k),
      ),
    ).toBe(true);
  }, 180_000);

  it('runs the flow again as a new trial when the bolt gets changed RTL', async () => {
    const before = await listTrials();
    const last = before.reduce((a, b) => (a.created > b.created ? a : b));
    // A cut-down ALU: no shifter (ops 5 and 6 give zero) — fewer cells than the seeded one.
    const alu = (await readFile(path.join(edaRtlDir, 'alu.v'), 'utf8'))
      .replace(/OP_SHL: .*\n/, '')
      .replace(/OP_SHR: .*\n/, '');
    const commitId = await commitToBolt({ '/rtl/alu.v': alu }, 'ALU without the shifter');
    const trial = await waitFor('the bolt-run trial', async () => {
      const found = (await listTrials()).find((t) => t.labels?.commit === commitId);
      return found?.finished ? found : undefined;
    });
    expect(trial.state, trial.reason).toBe('STARTED');
    expect(trial.labels).toMatchObject({ trigger: 'bolt', bolt: 'demo-rtl' });
    expect(trial.description).toContain('ALU without the shifter');
    expect(trial.parameters).toEqual(last.parameters);
    expect(trial.case).toBe(last.case);
    expect(metric(trial, 'cells')).toBeLessThan(metric(last, 'cells') as number);
    expect((await listTrials()).filter((t) => t.labels?.commit === commitId)).toHaveLength(1);
  }, 180_000);
});

describe('a trial with a bad parameter', () => {
  it('ends UNRUNNABLE with the stage’s own message', async () => {
    const created = await ok(url, 'omni_v1.API/CreateTrial', {
      project: eda,
      flow: 'yosys',
      case: 'alu-8',
      parameters: { width: 'wide' },
    });
    const trial = await waitFor('the failed trial', async () => {
      const found = await ok(url, 'omni_v1.API/InspectTrial', { trial: { id: created.id } });
      return found.finished ? found : undefined;
    });
    expect(trial.state).toBe('UNRUNNABLE');
    expect(trial.reason).toContain('yosys-elaborate');
    const jobs = await results(url, 'pps_v2.API/ListJob', {
      pipeline: { name: 'yosys-elaborate', project: eda },
    });
    const job = jobs.find((j: Json) => j.job.id === trial.jobSetId);
    const logs = await results(url, 'pps_v2.API/GetLogs', { job: job.job });
    expect(logs.map((l: Json) => l.message).join('\n')).toContain(
      'parameter width must be an integer from 1 to 1024, not "wide"',
    );
  }, 60_000);
});

describe('the plugin description', () => {
  it('is read where the upload modal puts it (/rtl/user_plugin), then at the root', async () => {
    const repo = { name: 'plug-rtl', type: 'user', project: eda };
    await ok(url, 'pfs_v2.API/CreateRepo', { repo });
    await ok(url, 'pps_v2.API/CreatePipeline', {
      pipeline: { name: 'plug-stage', project: eda },
      metadata: { labels: { flow: 'plugcheck', stage: 'one', bolt: 'plug-rtl' } },
      transform: { cmd: ['true'] },
      input: { pfs: { project: 'eda', repo: 'plug-rtl', glob: '/' } },
    });
    const put = async (files: Record<string, string>) => {
      const commit = await ok(url, 'pfs_v2.API/StartCommit', { branch: { repo, name: 'master' } });
      await modifyFile(url, [
        { setCommit: commit },
        ...Object.entries(files).map(([p, content]) => ({
          addFile: { path: p, raw: Buffer.from(content).toString('base64') },
        })),
      ]);
      await ok(url, 'pfs_v2.API/FinishCommit', { commit });
    };
    const describe = (param: string) =>
      JSON.stringify({ stages: [{ name: 'one', parameters: [{ name: param, default: 1 }] }] });
    const inspect = () =>
      ok(url, 'omni_v1.API/InspectFlowPlugin', { project: eda, flow: 'plugcheck' });
    expect((await inspect()).source).toBe('NONE');
    await put({ '/user_plugin/plugin.json': describe('at_root') });
    let plugin = await inspect();
    expect(plugin.source).toBe('PLUGIN');
    expect(plugin.stages[0].parameters.map((p: Json) => p.name)).toEqual(['at_root']);
    await put({ '/rtl/user_plugin/plugin.json': describe('from_modal') });
    plugin = await inspect();
    expect(plugin.stages[0].parameters.map((p: Json) => p.name)).toEqual(['from_modal']);
  });
});

describe('the EDA tools of this server', () => {
  it('lists Yosys (WebAssembly) and whether iverilog and verilator are on PATH', async () => {
    const onPath = (program: string, flag: string) => !spawnSync(program, [flag]).error;
    const { tools } = await ok(url, 'omni_v1.API/InspectEdaTools', {});
    const byName = (name: string) => tools.find((t: Json) => t.name === name);
    expect(byName('Yosys')).toMatchObject({ available: true, stage: 'elaborate, synth' });
    expect(byName('Yosys').version).toMatch(/^@yowasp\/yosys \d+\.\d+/);
    expect(byName('Icarus Verilog').available).toBe(
      onPath('iverilog', '-V') && onPath('vvp', '-V'),
    );
    expect(byName('Verilator').available).toBe(onPath('verilator', '--version'));
    for (const tool of tools) expect(tool.install).not.toBe('');
  });
});

describe('eda-cli without the optional tools', () => {
  it('says plainly that Icarus Verilog and Verilator are missing, and still writes metrics', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ivory-eda-cli-'));
    try {
      await mkdir(path.join(dir, 'in', 'rtl'), { recursive: true });
      await writeFile(path.join(dir, 'in', 'params.json'), '{"design":"alu","width":"8"}');
      for (const stage of ['simulate', 'lint']) {
        const out = path.join(dir, stage);
        await mkdir(out);
        // No PATH folder holds iverilog, vvp or verilator.
        const run = spawnSync(
          process.execPath,
          [edaCliPath, stage, '--in', path.join(dir, 'in'), '--out', out],
          { encoding: 'utf8', env: { PATH: path.join(dir, 'empty') } },
        );
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout).toMatch(/is not installed on this server: (simulation|lint) skipped/);
        const metrics = JSON.parse(await readFile(path.join(out, 'metrics.json'), 'utf8'));
        expect(metrics).toEqual(stage === 'simulate' ? { sim_ran: 0 } : { lint_ran: 0 });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
