#!/usr/bin/env node
// The EDA demo flow's command-line entry: a datum runs it like any program,
//   node server/src/eda/eda-cli.mjs <stage> --in <folder> --out <folder>
// with inputs under /pfs/<input> and its results in /pfs/out (the pipeline runner gives the
// real folders). Stages:
//   elaborate --params <dir> --bolt <dir> --out <dir>  check the RTL (<bolt>/rtl) with Yosys;
//                                                      forward it in design/ with the parameters
//                                                      and the tools' versions
//   synth     --in <dir> --out <dir>   synthesise with Yosys; map to the SKY130 cell library
//   timing    --in <dir> --out <dir>   static timing of the mapped netlist with OpenSTA
//   simulate  --in <dir> --out <dir>   run the testbench with Icarus Verilog
//   lint      --in <dir> --out <dir>   lint with Verilator
//   top                                the top module Yosys finds in {"files": {path: text}}
//                                      read on stdin (hierarchy -auto-top); prints {"top"}
//   yosys     <yosys arguments>        Yosys itself, on the current folder
// Each stage writes /metrics.json (numbers only), which the trial service reads, and
// /stage.json: {"state": "SUCCESS" | "NOT_RUN", "reason", "reports": [{"label", "path"}]}. A
// stage whose tool is missing says so (NOT_RUN, with the reason) and still succeeds; a stage
// that fails prints the tool's first error line (file:line: message) before anything else.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import {
  libertyName,
  libertyPath,
  clockPorts,
  parseTimingReport,
  staScript,
} from './cli/timing.mjs';
import { findTool, missingTool, toolVersion, toolVersions } from './cli/tools.mjs';
import {
  designTree,
  errorLines,
  outputText,
  sources,
  warnings,
  yosys,
  YosysFailure,
} from './cli/yosys.mjs';

const [stage = '', ...rest] = process.argv.slice(2);

function option(name) {
  const at = rest.indexOf(`--${name}`);
  const value = at >= 0 ? rest[at + 1] : undefined;
  if (!value) fail(`${stage}: --${name} <folder> is required`);
  return path.resolve(value);
}

/** Ends the stage as failed: the first line is what the trial quotes as the reason. */
function fail(message, detail = '') {
  console.error(
    message.startsWith('error') || /:\d+:/.test(message) ? message : `error: ${message}`,
  );
  if (detail) console.error(detail);
  process.exit(1);
}

const say = (line) => console.log(line);

/** The design's parameters from the trial's params.json, with the demo's defaults. */
function readParams(file) {
  let raw = {};
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(`cannot read the trial's parameters ${file}: ${error.message}`);
  }
  const text = (value, fallback) =>
    value === undefined || value === null || value === '' ? fallback : String(value);
  const integer = (name, fallback) => {
    const value = Number(text(raw[name], fallback));
    if (!Number.isInteger(value) || value < 1 || value > 1024)
      fail(`parameter ${name} must be an integer from 1 to 1024, not ${JSON.stringify(raw[name])}`);
    return value;
  };
  const bool = (name, fallback) => {
    const value = text(raw[name], fallback).toLowerCase();
    if (!['true', 'false', '1', '0', 'yes', 'no'].includes(value))
      fail(`parameter ${name} must be true or false, not ${JSON.stringify(raw[name])}`);
    return ['true', '1', 'yes'].includes(value);
  };
  const design = text(raw.design, 'alu');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(design))
    fail(`parameter design must be a Verilog module name, not ${JSON.stringify(design)}`);
  const target = text(raw.target, 'gates');
  if (!['gates', 'cmos'].includes(target))
    fail(`parameter target must be "gates" or "cmos", not ${JSON.stringify(target)}`);
  const period = Number(text(raw.clock_period, '10'));
  if (!Number.isFinite(period) || period <= 0 || period > 1e6)
    fail(
      `parameter clock_period must be a number of nanoseconds above 0, not ${JSON.stringify(raw.clock_period)}`,
    );
  return {
    design,
    width: integer('width', '8'),
    depth: integer('depth', '16'),
    flatten: bool('flatten', 'true'),
    abcDff: bool('abc_dff', 'false'),
    target,
    clockPeriod: period,
  };
}

/** `-chparam` arguments for the parameters the top module declares. */
function chparams(texts, params) {
  const all = Object.values(texts).join('\n');
  const module = new RegExp(`module\\s+${params.design}\\b[\\s\\S]*?endmodule`).exec(all)?.[0];
  if (!module)
    fail(`no module ${params.design} in the RTL (${Object.keys(texts).join(', ') || 'no files'})`);
  const out = [];
  if (/parameter\s+WIDTH\b/.test(module)) out.push(`-chparam WIDTH ${params.width}`);
  if (/parameter\s+DEPTH\b/.test(module)) out.push(`-chparam DEPTH ${params.depth}`);
  return out.join(' ');
}

function writeMetrics(out, metrics) {
  writeFileSync(path.join(out, 'metrics.json'), JSON.stringify(metrics, null, 2) + '\n');
  say(`metrics: ${JSON.stringify(metrics)}`);
}

/** The stage's status for the trial: ran (with its reports) or not run (and why). */
function writeStage(out, { notRun = '', reports = [] } = {}) {
  const status = notRun
    ? { state: 'NOT_RUN', reason: notRun, reports }
    : { state: 'SUCCESS', reason: '', reports };
  writeFileSync(path.join(out, 'stage.json'), JSON.stringify(status, null, 2) + '\n');
}

/** A stage that could not do its work: says why (log, stage.json) and still succeeds. */
function notRun(out, reason, metrics) {
  say(reason);
  writeStage(out, { notRun: reason });
  writeMetrics(out, metrics);
}

/** Runs Yosys; on failure the stage fails with Yosys's first error line, then its log's tail. */
async function runYosys(script, files) {
  try {
    return await yosys(script, files);
  } catch (error) {
    if (!(error instanceof YosysFailure)) throw error;
    const lines = errorLines(error.log);
    fail(error.message, [...lines.slice(1), '', ...error.log.split('\n').slice(-25)].join('\n'));
  }
}

/** A scratch folder inside the output (a sandboxed datum may have no other writable place). */
function workDir(out) {
  const dir = path.join(out, '.work');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Runs a tool with its temporary files in `work`; its whole output and exit code. */
function run(program, args, work, options = {}) {
  const env = { ...process.env, TMPDIR: work, TMP: work, TEMP: work };
  const result = spawnSync(program, args, { encoding: 'utf8', env, ...options });
  return { code: result.status ?? 1, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/** The first line of a tool's output that names what failed (file:line: … error …). */
function firstError(output) {
  const lines = output.split('\n').map((line) => line.trim());
  return (
    lines.find((line) => /\S:\d+(:\d+)?:/.test(line) && /error/i.test(line)) ??
    lines.find((line) => /error/i.test(line)) ??
    lines.find(Boolean) ??
    ''
  );
}

// ---- elaborate ----------------------------------------------------------------------------

async function elaborate() {
  const paramsDir = option('params');
  const bolt = option('bolt');
  const out = option('out');
  const params = readParams(path.join(paramsDir, 'params.json'));
  const rtl = path.join(bolt, 'rtl');
  const { tree, paths, texts } = designTree(rtl, 'rtl');
  if (paths.length === 0) fail('no Verilog files (*.v, *.sv) under /rtl of the bolt');
  say(`elaborate ${params.design}: ${paths.length} files, width ${params.width}`);
  const started = Date.now();
  const { log, files: written } = await runYosys(
    [
      `read_verilog -sv ${paths.join(' ')}`,
      `hierarchy -check -top ${params.design} ${chparams(texts, params)}`,
      'proc',
      'check -assert',
      'tee -q -o stat.json stat -json',
    ].join('; '),
    tree,
  );
  const ms = Date.now() - started;
  const design = JSON.parse(outputText(written, 'stat.json')).design;
  // The design forwarded to the later stages (they read design/ alone): the RTL, the
  // parameters and the tools' versions — so their datums are the same exactly when all three
  // are, and installing or upgrading a tool runs them again.
  const forward = path.join(out, 'design');
  mkdirSync(forward, { recursive: true });
  cpSync(rtl, path.join(forward, 'rtl'), { recursive: true });
  writeFileSync(path.join(forward, 'params.json'), JSON.stringify(params, null, 2) + '\n');
  const tools = toolVersions();
  writeFileSync(path.join(forward, 'tools.json'), JSON.stringify(tools, null, 2) + '\n');
  writeFileSync(path.join(out, 'elaborate.log'), log);
  for (const line of warnings(log)) say(line);
  say(
    `tools: ${Object.entries(tools)
      .map(([name, version]) => `${name} ${version || 'missing'}`)
      .join('; ')}`,
  );
  say(`elaborated: ${design.num_cells} word-level cells, ${design.num_wires} wires`);
  writeStage(out, { reports: [{ label: 'Elaboration log', path: '/elaborate.log' }] });
  writeMetrics(out, {
    elab_cells: design.num_cells,
    elab_wires: design.num_wires,
    elab_warnings: warnings(log).length,
    elab_ms: ms,
  });
}

// ---- synth --------------------------------------------------------------------------------

/** Yosys's synthesis of the design (shared with the tests, which run the same script). */
export function synthScript(paths, params, chparamArgs) {
  const gates = params.target === 'cmos' ? '-g cmos2' : '-g AND,NAND,OR,NOR,XOR,XNOR,MUX';
  return [
    `read_verilog -sv ${paths.join(' ')}`,
    `hierarchy -check -top ${params.design} ${chparamArgs}`,
    'proc',
    'tee -q -o step1.json stat -json',
    `synth ${params.flatten ? '-flatten ' : ''}-noabc -top ${params.design}`,
    'tee -q -o step2.json stat -json',
    'design -save generic',
    // Generic gates (or NAND/NOR/NOT for a CMOS estimate): cells by type, depth.
    `abc ${params.abcDff ? '-dff ' : ''}${gates}`,
    'opt_clean',
    'tee -q -o stat.json stat -json',
    'tee -q -o cmos.txt stat -tech cmos',
    'tee -q -o ltp.txt ltp -noff',
    // The same logic mapped to the cell library: area, and the netlist static timing reads.
    'design -load generic',
    'dfflibmap -liberty cells.lib',
    'abc -liberty cells.lib',
    'opt_clean',
    'tee -q -o stat.txt stat -liberty cells.lib',
    'tee -q -o mapped.json stat -json -liberty cells.lib',
    'write_verilog -noattr netlist.v',
  ].join('; ');
}

async function synth() {
  const input = path.join(option('in'), 'design');
  const out = option('out');
  const params = readParams(path.join(input, 'params.json'));
  const { tree, paths, texts } = designTree(path.join(input, 'rtl'), 'rtl');
  tree['cells.lib'] = readFileSync(libertyPath, 'utf8');
  say(
    `synthesise ${params.design} (width ${params.width}${params.design === 'fifo' ? `, depth ${params.depth}` : ''}): ` +
      `${params.flatten ? '-flatten, ' : ''}${params.abcDff ? 'abc -dff, ' : ''}target ${params.target}; ` +
      `mapped to ${libertyName}`,
  );
  const started = Date.now();
  const { log, files: written } = await runYosys(
    synthScript(paths, params, chparams(texts, params)),
    tree,
  );
  const ms = Date.now() - started;
  const design = JSON.parse(outputText(written, 'stat.json')).design;
  const mapped = JSON.parse(outputText(written, 'mapped.json')).design;
  const transistors = Number(
    /Estimated number of transistors:\s*(\d+)/.exec(outputText(written, 'cmos.txt'))?.[1],
  );
  const depth = Number(/length=(\d+)/.exec(outputText(written, 'ltp.txt'))?.[1]);
  const forward = path.join(out, 'design');
  mkdirSync(forward, { recursive: true });
  writeFileSync(path.join(forward, 'netlist.v'), outputText(written, 'netlist.v'));
  for (const name of ['params.json', 'tools.json'])
    writeFileSync(path.join(forward, name), readFileSync(path.join(input, name)));
  const statReport = [
    `Cell library: ${libertyName} (server/src/eda/liberty/sky130_fd_sc_hd_subset.lib)`,
    outputText(written, 'stat.txt')
      .replace(/^[\s\S]*?(?====)/, '')
      .trim(),
    '',
    'Generic gates (before mapping to the library):',
    outputText(written, 'cmos.txt').trim(),
    '',
  ].join('\n');
  writeFileSync(path.join(out, 'stat.txt'), statReport);
  writeFileSync(path.join(out, 'stat.json'), outputText(written, 'stat.json'));
  writeFileSync(path.join(out, 'synth.log'), log);
  for (const line of warnings(log)) say(line);
  const byType = Object.fromEntries(
    Object.entries(design.num_cells_by_type ?? {}).map(([type, count]) => [
      `cells_${type.replace(/^\$_?|_$/g, '')}`,
      count,
    ]),
  );
  // Cells after each step: elaborated (word-level), generic gates before ABC, mapped.
  const cellsPerStep = ['step1.json', 'step2.json']
    .map((name) => JSON.parse(outputText(written, name)).design.num_cells)
    .concat(design.num_cells)
    .map((value, i) => ({ step: i + 1, value }));
  const area = Number(mapped.area);
  say(
    `synthesised: ${design.num_cells} cells, ${design.num_wires} wires, depth ${depth}; ` +
      `${mapped.num_cells} library cells, area ${area} um^2`,
  );
  writeStage(out, {
    reports: [
      { label: 'Stat report', path: '/stat.txt' },
      { label: 'Netlist', path: '/design/netlist.v' },
      { label: 'Synthesis log', path: '/synth.log' },
    ],
  });
  writeMetrics(out, {
    cells: design.num_cells,
    synth_cells_by_step: cellsPerStep,
    ...byType,
    wires: design.num_wires,
    wire_bits: design.num_wire_bits,
    ...(Number.isFinite(transistors) ? { transistors } : {}),
    ...(Number.isFinite(depth) ? { logic_depth: depth } : {}),
    ...(Number.isFinite(area) ? { area } : {}),
    std_cells: mapped.num_cells,
    synth_ms: ms,
  });
}

// ---- timing -------------------------------------------------------------------------------

function timing() {
  const input = path.join(option('in'), 'design');
  const out = option('out');
  const params = readParams(path.join(input, 'params.json'));
  const sta = findTool('sta');
  if (!sta) return notRun(out, missingTool('sta', 'static timing'), {});
  const netlist = readFileSync(path.join(input, 'netlist.v'), 'utf8');
  const clocks = clockPorts(netlist, params.design);
  const work = workDir(out);
  writeFileSync(path.join(work, 'netlist.v'), netlist);
  writeFileSync(path.join(work, 'cells.lib'), readFileSync(libertyPath));
  writeFileSync(
    path.join(work, 'sta.tcl'),
    staScript({ top: params.design, clocks, periodNs: params.clockPeriod }),
  );
  say(
    `static timing of ${params.design} with ${toolVersion('sta')}: ` +
      (clocks.length
        ? `clock ${clocks.join(', ')} at ${params.clockPeriod} ns`
        : `combinational, a virtual clock of ${params.clockPeriod} ns`),
  );
  const started = Date.now();
  const result = run(sta, ['-no_splash', '-exit', 'sta.tcl'], work, { cwd: work });
  rmSync(work, { recursive: true, force: true });
  writeFileSync(path.join(out, 'timing.txt'), result.output);
  if (result.code !== 0 || /^Error/m.test(result.output))
    fail(`OpenSTA: ${firstError(result.output)}`, result.output.split('\n').slice(-20).join('\n'));
  const path0 = parseTimingReport(result.output);
  if (!path0) {
    say('no constrained path: the design has no logic between its ports and flip-flops');
    writeStage(out, { reports: [{ label: 'Timing report', path: '/timing.txt' }] });
    return writeMetrics(out, { timing_ms: Date.now() - started });
  }
  say(
    `worst path ${path0.startpoint} → ${path0.endpoint}: ${path0.delayNs} ns, slack ${path0.slackNs} ns`,
  );
  const minPeriod = path0.slackNs === null ? null : params.clockPeriod - path0.slackNs;
  writeStage(out, { reports: [{ label: 'Timing report', path: '/timing.txt' }] });
  writeMetrics(out, {
    delay_ns: path0.delayNs,
    ...(path0.slackNs !== null ? { slack_ns: path0.slackNs } : {}),
    ...(clocks.length && minPeriod && minPeriod > 0
      ? { fmax_mhz: Math.round((1000 / minPeriod) * 10) / 10 }
      : {}),
    timing_ms: Date.now() - started,
  });
}

// ---- simulate -----------------------------------------------------------------------------

/** `-P<top>.NAME=value` for the parameters the testbench declares. */
function testbenchParams(text, top, params) {
  const out = [];
  if (/parameter\s+WIDTH\b/.test(text)) out.push(`-P${top}.WIDTH=${params.width}`);
  if (/parameter\s+DEPTH\b/.test(text)) out.push(`-P${top}.DEPTH=${params.depth}`);
  return out;
}

/** PASS/FAIL and checks: the testbench's "checks=N errors=N", else its exit and its words. */
export function simulationResult(output, exitCode) {
  const summary = /checks=(\d+)\s+errors=(\d+)/.exec(output);
  if (summary) {
    const errors = Number(summary[2]);
    return { pass: exitCode === 0 && errors === 0, checks: Number(summary[1]), errors };
  }
  const failures = output.split('\n').filter((line) => /\b(fail|failed|error)\b/i.test(line));
  return { pass: exitCode === 0 && failures.length === 0, checks: null, errors: failures.length };
}

function simulate() {
  const input = path.join(option('in'), 'design');
  const out = option('out');
  const params = readParams(path.join(input, 'params.json'));
  const iverilog = findTool('iverilog');
  const vvp = findTool('vvp');
  if (!iverilog || !vvp)
    return notRun(out, missingTool(iverilog ? 'vvp' : 'iverilog', 'simulation'), { sim_ran: 0 });
  const top = `${params.design}_tb`;
  const bench = ['v', 'sv']
    .map((ext) => `rtl/tb/${top}.${ext}`)
    .find((name) => existsSync(path.join(input, name)));
  if (!bench)
    return notRun(out, `no testbench rtl/tb/${top}.v in the bolt: simulation not run.`, {
      sim_ran: 0,
    });
  say(`simulate ${top} with ${toolVersion('iverilog')}`);
  const work = workDir(out);
  const started = Date.now();
  const files = [...sources(path.join(input, 'rtl')).map((name) => `rtl/${name}`), bench];
  const benchText = readFileSync(path.join(input, bench), 'utf8');
  // Run in the design folder, so messages name rtl/<file> as the bolt does.
  const compiled = run(
    iverilog,
    [
      '-g2012',
      '-o',
      path.join(work, 'sim.vvp'),
      '-s',
      top,
      ...testbenchParams(benchText, top, params),
      ...files,
    ],
    work,
    { cwd: input },
  );
  let log = compiled.output;
  if (compiled.code !== 0) {
    rmSync(work, { recursive: true, force: true });
    writeFileSync(path.join(out, 'sim.log'), log);
    fail(firstError(log) || 'iverilog could not compile the testbench', log);
  }
  const simulated = run(vvp, ['-n', path.join(work, 'sim.vvp')], work, { cwd: work });
  log += simulated.output;
  rmSync(work, { recursive: true, force: true });
  writeFileSync(path.join(out, 'sim.log'), log);
  for (const line of simulated.output.split('\n').filter(Boolean).slice(-12)) say(line);
  const result = simulationResult(simulated.output, simulated.code);
  say(
    result.pass
      ? `testbench PASS${result.checks === null ? '' : `: ${result.checks} checks`}`
      : `testbench FAIL: ${result.errors} errors${result.checks === null ? '' : ` in ${result.checks} checks`}`,
  );
  writeStage(out, { reports: [{ label: 'Simulation log', path: '/sim.log' }] });
  writeMetrics(out, {
    sim_ran: 1,
    sim_pass: result.pass ? 1 : 0,
    ...(result.checks === null ? {} : { sim_checks: result.checks }),
    sim_errors: result.errors,
    sim_ms: Date.now() - started,
  });
}

// ---- lint ---------------------------------------------------------------------------------

function lint() {
  const input = path.join(option('in'), 'design');
  const out = option('out');
  const params = readParams(path.join(input, 'params.json'));
  const verilator = findTool('verilator');
  if (!verilator) return notRun(out, missingTool('verilator', 'lint'), { lint_ran: 0 });
  say(`lint ${params.design} with ${toolVersion('verilator')}`);
  const rtl = path.join(input, 'rtl');
  const texts = sources(rtl)
    .map((name) => readFileSync(path.join(rtl, name), 'utf8'))
    .join('\n');
  const module =
    new RegExp(`module\\s+${params.design}\\b[\\s\\S]*?endmodule`).exec(texts)?.[0] ?? '';
  const started = Date.now();
  const work = workDir(out);
  const linted = run(
    verilator,
    [
      '--lint-only',
      '-Wall',
      '-Wno-fatal',
      '--top-module',
      params.design,
      ...(/parameter\s+WIDTH\b/.test(module) ? [`-GWIDTH=${params.width}`] : []),
      ...(/parameter\s+DEPTH\b/.test(module) ? [`-GDEPTH=${params.depth}`] : []),
      ...sources(rtl).map((name) => `rtl/${name}`),
    ],
    work,
    { cwd: input },
  );
  rmSync(work, { recursive: true, force: true });
  writeFileSync(path.join(out, 'lint.log'), linted.output);
  const lines = linted.output.split('\n');
  const lintWarnings = lines.filter((line) => line.startsWith('%Warning')).length;
  const lintErrors = lines.filter((line) => line.startsWith('%Error')).length;
  for (const line of lines.filter((l) => l.startsWith('%')).slice(0, 20)) say(line);
  say(`lint: ${lintWarnings} warnings, ${lintErrors} errors`);
  writeStage(out, { reports: [{ label: 'Lint report', path: '/lint.log' }] });
  writeMetrics(out, {
    lint_ran: 1,
    lint_warnings: lintWarnings,
    lint_errors: lintErrors,
    lint_ms: Date.now() - started,
  });
}

// ---- top ----------------------------------------------------------------------------------

/** The top module of a set of Verilog files, as Yosys's `hierarchy -auto-top` picks it. */
async function top() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const { files = {} } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  const tree = {};
  const paths = [];
  for (const [name, text] of Object.entries(files)) {
    const parts = name.replace(/^\/+/, '').split('/');
    let node = tree;
    for (const part of parts.slice(0, -1)) node = node[part] ??= {};
    node[parts[parts.length - 1]] = text;
    paths.push(parts.join('/'));
  }
  if (paths.length === 0) fail('top: no files');
  const { log } = await runYosys(`read_verilog -sv ${paths.join(' ')}; hierarchy -auto-top`, tree);
  const found = /Top module:\s+\\?(\S+)/.exec(log)?.[1];
  if (!found) fail('top: Yosys found no top module');
  process.stdout.write(JSON.stringify({ top: found }) + '\n');
}

// ---- yosys --------------------------------------------------------------------------------

async function plainYosys() {
  const { runYosys: runPlain } = await import('@yowasp/yosys');
  const files = Object.fromEntries(
    readdirSync('.', { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => [entry.name, readFileSync(entry.name)]),
  );
  try {
    const tree = await runPlain(rest, files);
    for (const [name, content] of Object.entries(tree ?? {}))
      if (typeof content !== 'object' || content instanceof Uint8Array)
        if (
          !(name in files) ||
          Buffer.compare(Buffer.from(files[name]), Buffer.from(content)) !== 0
        )
          writeFileSync(name, content);
  } catch (error) {
    process.exit(typeof error.code === 'number' ? error.code : 1);
  }
}

const stages = { elaborate, synth, timing, simulate, lint, top, yosys: plainYosys };
if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const chosen = stages[stage];
  if (!chosen)
    fail(`unknown stage ${JSON.stringify(stage)}: one of ${Object.keys(stages).join(', ')}`);
  await chosen();
}
