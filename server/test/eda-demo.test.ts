import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edaCliPath, edaRtlDir } from '../src/eda/demo-flow.ts';
import { modifyFile, ok, results, type Json } from './helpers/api-client.ts';
import { edaToolsDir } from './helpers/eda-tools.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

// The EDA demo on a fresh server: the seeded project, its flow of real Yosys stages (with Icarus
// Verilog, Verilator and OpenSTA from IVORY_EDA_TOOLS_PATH) and the seeded trials' metrics; a
// changed RTL commit to the bolt runs again the cases it affects; reuse notices a tool's version
// and a tool taken away reads "not run".

let server: TestServer;
let url: string;
let tools: Awaited<ReturnType<typeof edaToolsDir>>;
const eda = { name: 'eda' };

beforeAll(async () => {
  tools = await edaToolsDir('demo');
  server = await startTestServer({ seed: true, seedEda: true, edaToolsPath: tools.dir });
  url = server.url;
});
afterAll(async () => {
  await server.close();
  await tools.close();
});

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
      'yosys-timing',
    ]);
    const names = plugin.stages.flatMap((s: Json) => s.parameters.map((p: Json) => p.name));
    expect(names).toEqual(
      expect.arrayContaining([
        'design',
        'width',
        'depth',
        'flatten',
        'abc_dff',
        'target',
        'clock_period',
      ]),
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
      expect(trial.reason).toBe('');
      // QoR: cells, area on the SKY130 cells, depth, worst path from OpenSTA, simulation, lint.
      for (const name of [
        'cells',
        'wires',
        'transistors',
        'logic_depth',
        'elab_cells',
        'area',
        'std_cells',
        'delay_ns',
        'sim_checks',
      ])
        expect(metric(trial, name), `${trial.case} ${name}`).toBeGreaterThan(0);
      expect(metric(trial, 'sim_pass')).toBe(1);
      expect(metric(trial, 'lint_ran')).toBe(1);
      expect(trial.stages.map((s: Json) => [s.name, s.state])).toEqual([
        ['1-elaborate', 'SUCCESS'],
        ['2-synth', 'SUCCESS'],
        ['3-lint', 'SUCCESS'],
        ['3-simulate', 'SUCCESS'],
        ['4-timing', 'SUCCESS'],
      ]);
      const reports = trial.stages.flatMap((s: Json) => s.reports.map((r: Json) => r.label));
      expect(reports).toEqual(
        expect.arrayContaining(['Stat report', 'Netlist', 'Timing report', 'Lint report']),
      );
      expect(metric(trial, 'synth_ms')).toBeGreaterThanOrEqual(0);
      // Cells after elaboration, after generic synthesis, after mapping: a chart of three points.
      const perStep = trial.metrics.find((m: Json) => m.name === 'synth_cells_by_step');
      expect(perStep.history.map((p: Json) => p.step)).toEqual(['1', '2', '3']);
      expect(perStep.value).toBe(metric(trial, 'cells'));
      expect(perStep.history[0].value).toBe(metric(trial, 'elab_cells'));
      expect(metric(trial, 'sim_errors')).toBe(0);
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
    expect(metric(alu8, 'area')).toBeLessThan(metric(alu32, 'area') as number);
    expect(metric(alu8, 'delay_ns')).toBeLessThan(metric(alu32, 'delay_ns') as number);
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

  it('runs again the cases a changed RTL file affects, each with its own parameters', async () => {
    const before = await listTrials();
    const last = (name: string) =>
      before
        .filter((t) => t.case === name)
        .reduce((a, b) => (a.created > b.created ? a : b)) as Json;
    // A cut-down ALU: no shifter (ops 5 and 6 give zero) — fewer cells than the seeded one.
    const alu = (await readFile(path.join(edaRtlDir, 'alu.v'), 'utf8'))
      .replace(/OP_SHL: .*\n/, '')
      .replace(/OP_SHR: .*\n/, '');
    const commitId = await commitToBolt({ '/rtl/alu.v': alu }, 'ALU without the shifter');
    const trials = await waitFor('the trials of the commit', async () => {
      const found = (await listTrials()).filter((t) => t.labels?.commit === commitId);
      return found.length === 2 && found.every((t) => t.finished) ? found : undefined;
    });
    // The FIFO's case does not read alu.v.
    expect(trials.map((t) => t.case).sort()).toEqual(['alu-32', 'alu-8']);
    for (const trial of trials) {
      expect(trial.state, trial.reason).toBe('STARTED');
      expect(trial.labels).toMatchObject({ trigger: 'bolt', bolt: 'demo-rtl' });
      expect(trial.description).toContain('ALU without the shifter');
      expect(trial.parameters).toEqual(last(trial.case).parameters);
      expect(metric(trial, 'cells')).toBeLessThan(metric(last(trial.case), 'cells') as number);
    }
    const branches = await results(url, 'pfs_v2.API/ListBranch', {
      repo: { name: 'demo-rtl', type: 'user', project: eda },
    });
    const head = (name: string) => branches.find((b: Json) => b.branch.name === name).head.id;
    expect([head('alu-8'), head('alu-32')]).toEqual([commitId, commitId]);
    expect(head('fifo-16')).not.toBe(commitId);
  }, 180_000);

  it('reuses a stage’s output until a tool it runs with changes, and says which stage did not run', async () => {
    const original = (await listTrials()).find(
      (t) => t.case === 'alu-8' && t.labels?.commit,
    ) as Json;
    const rerun = async () => {
      const started = await ok(url, 'omni_v1.API/RerunTrial', { trial: { id: original.id } });
      return waitFor('the rerun', async () => {
        const trial = await ok(url, 'omni_v1.API/InspectTrial', { trial: { id: started.id } });
        return trial.finished ? trial : undefined;
      });
    };
    const lintJob = (trial: Json) =>
      ok(url, 'pps_v2.API/InspectJob', {
        job: { pipeline: { name: 'yosys-lint', project: eda }, id: trial.jobSetId },
      });
    // Same design, parameters and tools: the later stages reuse their outputs.
    const same = await rerun();
    expect(same.state, same.reason).toBe('STARTED');
    expect(await lintJob(same)).toMatchObject({ dataProcessed: '0', dataSkipped: '1' });
    expect(metric(same, 'cells')).toBe(metric(original, 'cells'));
    // Verilator "upgraded", OpenSTA taken away: lint runs again, timing reads not run.
    await tools.setVerilatorVersion('Verilator 5.999 (upgraded)');
    await tools.remove('sta');
    const changed = await rerun();
    expect(changed.state, changed.reason).toBe('STARTED');
    expect(await lintJob(changed)).toMatchObject({ dataProcessed: '1', dataSkipped: '0' });
    const timing = changed.stages.find((s: Json) => s.name === '4-timing');
    expect(timing.state).toBe('NOT_RUN');
    expect(timing.reason).toContain('OpenSTA (sta) is not installed in EDA_TOOLS_PATH');
    expect(changed.reason).toContain('4-timing not run: OpenSTA (sta) is not installed');
    expect(metric(changed, 'delay_ns')).toBeUndefined();
    expect(metric(changed, 'area')).toBe(metric(original, 'area'));
  }, 240_000);
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
    expect(trial.reason).toBe(
      'stage 1-elaborate failed: error: parameter width must be an integer from 1 to 1024, not "wide"',
    );
    expect(trial.stages.slice(1).map((s: Json) => s.state)).toEqual([
      'UNRUNNABLE',
      'UNRUNNABLE',
      'UNRUNNABLE',
      'UNRUNNABLE',
    ]);
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
  it('lists Yosys (WebAssembly) and the optional tools found in IVORY_EDA_TOOLS_PATH', async () => {
    const { tools: found } = await ok(url, 'omni_v1.API/InspectEdaTools', {});
    const byName = (name: string) => found.find((t: Json) => t.name === name);
    expect(byName('Yosys')).toMatchObject({ available: true, stage: 'elaborate, synth' });
    expect(byName('Yosys').version).toMatch(/^@yowasp\/yosys \d+\.\d+/);
    expect(byName('Icarus Verilog')).toMatchObject({ available: true });
    expect(byName('Icarus Verilog').version).toMatch(/^Icarus Verilog/);
    expect(byName('OpenSTA').stage).toBe('timing');
    for (const tool of found) expect(tool.install).not.toBe('');
  });
});

describe('eda-cli without the optional tools', () => {
  it('says plainly that Icarus Verilog, Verilator and OpenSTA are missing: not run', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ivory-eda-cli-'));
    try {
      await mkdir(path.join(dir, 'in', 'design', 'rtl'), { recursive: true });
      await writeFile(
        path.join(dir, 'in', 'design', 'params.json'),
        '{"design":"alu","width":"8"}',
      );
      for (const [stage, metrics, what] of [
        ['simulate', { sim_ran: 0 }, 'simulation'],
        ['lint', { lint_ran: 0 }, 'lint'],
        ['timing', {}, 'static timing'],
      ] as const) {
        const out = path.join(dir, stage);
        await mkdir(out);
        // No PATH folder holds iverilog, vvp, verilator or sta.
        const run = spawnSync(
          process.execPath,
          [edaCliPath, stage, '--in', path.join(dir, 'in'), '--out', out],
          { encoding: 'utf8', env: { PATH: path.join(dir, 'empty') } },
        );
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout).toContain(`is not installed on this server: ${what} not run`);
        expect(JSON.parse(await readFile(path.join(out, 'metrics.json'), 'utf8'))).toEqual(metrics);
        const status = JSON.parse(await readFile(path.join(out, 'stage.json'), 'utf8'));
        expect(status.state).toBe('NOT_RUN');
        expect(status.reason).toMatch(
          /Install it \(Debian: apt-get install (iverilog|verilator|opensta)\)/,
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
