#!/usr/bin/env node
// The EDA demo flow's command-line entry: a datum runs it like any program,
//   node server/src/eda/eda-cli.mjs <stage> --in <folder>... --out <folder>
// with inputs under /pfs/<input> and its results in /pfs/out (the pipeline runner gives the
// real folders). Stages:
//   elaborate --params <dir> --bolt <dir> --out <dir>   check the RTL with Yosys; copy it forward
//   synth     --in <dir> --out <dir>                    synthesise with Yosys (WebAssembly)
//   simulate  --in <dir> --out <dir>                    run the testbench with Icarus Verilog
//   lint      --in <dir> --out <dir>                    lint with Verilator
//   yosys     <yosys arguments>                         Yosys itself, on the current folder
// Each stage writes /metrics.json (numbers only) that the trial service reads; the optional
// stages (simulate, lint) say plainly when their tool is not installed and still succeed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [stage = '', ...rest] = process.argv.slice(2);

function option(name) {
  const at = rest.indexOf(`--${name}`);
  const value = at >= 0 ? rest[at + 1] : undefined;
  if (!value) fail(`${stage}: --${name} <folder> is required`);
  return path.resolve(value);
}

function fail(message) {
  console.error(`error: ${message}`);
  process.exit(1);
}

const say = (line) => console.log(line);

/** Verilog sources under `dir` (relative paths), the testbenches and the plugin left out. */
function sources(dir) {
  const out = [];
  const walk = (relative) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== 'tb' && entry.name !== 'user_plugin') walk(child);
      } else if (/\.s?v$/.test(entry.name)) out.push(child);
    }
  };
  if (existsSync(dir)) walk('');
  return out.sort();
}

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
  return {
    design,
    width: integer('width', '8'),
    depth: integer('depth', '16'),
    flatten: bool('flatten', 'true'),
    abcDff: bool('abc_dff', 'false'),
    target,
  };
}

/** `-chparam` arguments for the parameters the top module declares. */
function chparams(files, params) {
  const text = Object.values(files).join('\n');
  const module = new RegExp(`module\\s+${params.design}\\b[\\s\\S]*?endmodule`).exec(text)?.[0];
  if (!module) fail(`no module ${params.design} in the RTL (${Object.keys(files).join(', ')})`);
  const out = [];
  if (/parameter\s+WIDTH\b/.test(module)) out.push(`-chparam WIDTH ${params.width}`);
  if (/parameter\s+DEPTH\b/.test(module)) out.push(`-chparam DEPTH ${params.depth}`);
  return out.join(' ');
}

function loadFiles(rtlDir) {
  const names = sources(rtlDir);
  if (names.length === 0) fail(`no Verilog files (*.v, *.sv) in ${rtlDir}`);
  return Object.fromEntries(
    names.map((name) => [
      name.replaceAll('/', '__'),
      readFileSync(path.join(rtlDir, name), 'utf8'),
    ]),
  );
}

/** Runs Yosys (WebAssembly) on in-memory files; returns its log and the files it wrote. */
async function yosys(script, files) {
  const { runYosys } = await import('@yowasp/yosys');
  let log = '';
  const collect = (bytes) => {
    if (bytes) log += Buffer.from(bytes).toString('utf8');
  };
  try {
    const tree = await runYosys(['-p', script], files, {
      stdout: collect,
      stderr: collect,
      decodeASCII: true,
    });
    return { log, files: tree ?? {} };
  } catch (error) {
    const tail = log.split('\n').slice(-25).join('\n');
    fail(`yosys failed (${error.message})\n${tail}`);
  }
}

const warnings = (log) => log.split('\n').filter((line) => /^Warning:/.test(line));

function writeMetrics(out, metrics) {
  writeFileSync(path.join(out, 'metrics.json'), JSON.stringify(metrics, null, 2) + '\n');
  say(`metrics: ${JSON.stringify(metrics)}`);
}

function copyTree(from, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) copyTree(path.join(from, entry.name), path.join(to, entry.name));
    else writeFileSync(path.join(to, entry.name), readFileSync(path.join(from, entry.name)));
  }
}

async function elaborate() {
  const paramsDir = option('params');
  const bolt = option('bolt');
  const out = option('out');
  const params = readParams(path.join(paramsDir, 'params.json'));
  const rtl = path.join(bolt, 'rtl');
  const files = loadFiles(rtl);
  say(`elaborate ${params.design}: ${Object.keys(files).length} files, width ${params.width}`);
  const started = Date.now();
  const { log, files: written } = await yosys(
    [
      `read_verilog -sv ${Object.keys(files).join(' ')}`,
      `hierarchy -check -top ${params.design} ${chparams(files, params)}`,
      'proc',
      'check -assert',
      'tee -q -o stat.json stat -json',
    ].join('; '),
    files,
  );
  const ms = Date.now() - started;
  const design = JSON.parse(String(written['stat.json'])).design;
  // Forward the RTL and the parameters to the later stages.
  copyTree(rtl, path.join(out, 'rtl'));
  writeFileSync(path.join(out, 'params.json'), JSON.stringify(params, null, 2) + '\n');
  writeFileSync(path.join(out, 'elaborate.log'), log);
  for (const line of warnings(log)) say(line);
  say(`elaborated: ${design.num_cells} word-level cells, ${design.num_wires} wires`);
  writeMetrics(out, {
    elab_cells: design.num_cells,
    elab_wires: design.num_wires,
    elab_warnings: warnings(log).length,
    elab_ms: ms,
  });
}

async function synth() {
  const input = option('in');
  const out = option('out');
  const params = readParams(path.join(input, 'params.json'));
  const files = loadFiles(path.join(input, 'rtl'));
  const gates = params.target === 'cmos' ? '-g cmos2' : '-g AND,NAND,OR,NOR,XOR,XNOR,MUX';
  say(
    `synthesise ${params.design} (width ${params.width}${params.design === 'fifo' ? `, depth ${params.depth}` : ''}): ` +
      `${params.flatten ? '-flatten, ' : ''}${params.abcDff ? 'abc -dff, ' : ''}target ${params.target}`,
  );
  const started = Date.now();
  const { log, files: written } = await yosys(
    [
      `read_verilog -sv ${Object.keys(files).join(' ')}`,
      `hierarchy -check -top ${params.design} ${chparams(files, params)}`,
      'proc',
      'tee -q -o step1.json stat -json',
      `synth ${params.flatten ? '-flatten ' : ''}-noabc -top ${params.design}`,
      'tee -q -o step2.json stat -json',
      `abc ${params.abcDff ? '-dff ' : ''}${gates}`,
      'opt_clean',
      'tee -q -o stat.json stat -json',
      'tee -q -o cmos.txt stat -tech cmos',
      'tee -q -o ltp.txt ltp -noff',
      'write_verilog -noattr netlist.v',
    ].join('; '),
    files,
  );
  const ms = Date.now() - started;
  const design = JSON.parse(String(written['stat.json'])).design;
  const transistors = Number(
    /Estimated number of transistors:\s*(\d+)/.exec(written['cmos.txt'])?.[1],
  );
  const depth = Number(/length=(\d+)/.exec(written['ltp.txt'])?.[1]);
  writeFileSync(path.join(out, 'netlist.v'), String(written['netlist.v'] ?? ''));
  writeFileSync(path.join(out, 'stat.json'), String(written['stat.json']));
  writeFileSync(path.join(out, 'synth.log'), log);
  for (const line of warnings(log)) say(line);
  const byType = Object.fromEntries(
    Object.entries(design.num_cells_by_type ?? {}).map(([type, count]) => [
      `cells_${type.replace(/^\$_?|_$/g, '')}`,
      count,
    ]),
  );
  // Cells after each step: elaborated (word-level), generic gates before ABC, mapped.
  const cellsPerStep = [written['step1.json'], written['step2.json']]
    .map((json) => JSON.parse(String(json)).design.num_cells)
    .concat(design.num_cells)
    .map((value, i) => ({ step: i + 1, value }));
  say(`synthesised: ${design.num_cells} cells, ${design.num_wires} wires, depth ${depth}`);
  writeMetrics(out, {
    cells: design.num_cells,
    synth_cells_by_step: cellsPerStep,
    ...byType,
    wires: design.num_wires,
    wire_bits: design.num_wire_bits,
    ...(Number.isFinite(transistors) ? { transistors } : {}),
    ...(Number.isFinite(depth) ? { logic_depth: depth } : {}),
    synth_ms: ms,
  });
}

/** Whether `program` is on PATH (runs `<program> <versionFlag>`). */
function installed(program, versionFlag) {
  const result = spawnSync(program, [versionFlag], { encoding: 'utf8' });
  if (result.error) return null;
  return `${result.stdout}${result.stderr}`.split('\n')[0].trim() || program;
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

function simulate() {
  const input = option('in');
  const out = option('out');
  const params = readParams(path.join(input, 'params.json'));
  const version = installed('iverilog', '-V');
  if (!version || !installed('vvp', '-V')) {
    say('Icarus Verilog (iverilog, vvp) is not installed on this server: simulation skipped.');
    say('Install it (Debian: apt-get install iverilog) to run the testbench in this stage.');
    writeMetrics(out, { sim_ran: 0 });
    return;
  }
  const rtl = path.join(input, 'rtl');
  const bench = path.join(rtl, 'tb', `${params.design}_tb.v`);
  if (!existsSync(bench)) {
    say(`no testbench rtl/tb/${params.design}_tb.v: simulation skipped.`);
    writeMetrics(out, { sim_ran: 0 });
    return;
  }
  say(`simulate ${params.design}_tb with ${version}`);
  const work = workDir(out);
  const started = Date.now();
  const top = `${params.design}_tb`;
  const files = [...sources(rtl).map((name) => path.join(rtl, name)), bench];
  const compiled = run(
    'iverilog',
    [
      '-g2012',
      '-o',
      path.join(work, 'sim.vvp'),
      '-s',
      top,
      `-P${top}.WIDTH=${params.width}`,
      ...(params.design === 'fifo' ? [`-P${top}.DEPTH=${params.depth}`] : []),
      ...files,
    ],
    work,
  );
  let log = compiled.output;
  let checks = 0;
  let errors = 0;
  if (compiled.code !== 0) {
    rmSync(work, { recursive: true, force: true });
    writeFileSync(path.join(out, 'sim.log'), log);
    fail(`iverilog could not compile the testbench:\n${log}`);
  }
  const simulated = run('vvp', ['-n', path.join(work, 'sim.vvp')], work, { cwd: work });
  log += simulated.output;
  rmSync(work, { recursive: true, force: true });
  writeFileSync(path.join(out, 'sim.log'), log);
  for (const line of simulated.output.split('\n').filter(Boolean).slice(-12)) say(line);
  const summary = /checks=(\d+) errors=(\d+)/.exec(simulated.output);
  if (summary) {
    checks = Number(summary[1]);
    errors = Number(summary[2]);
  } else fail('the testbench ended without its "checks=N errors=N" summary');
  say(
    errors === 0
      ? `testbench passed: ${checks} checks`
      : `testbench reported ${errors} errors in ${checks} checks`,
  );
  writeMetrics(out, {
    sim_ran: 1,
    sim_checks: checks,
    sim_errors: errors,
    sim_ms: Date.now() - started,
  });
}

function lint() {
  const input = option('in');
  const out = option('out');
  const params = readParams(path.join(input, 'params.json'));
  const version = installed('verilator', '--version');
  if (!version) {
    say('Verilator is not installed on this server: lint skipped.');
    say('Install it (Debian: apt-get install verilator) to lint the RTL in this stage.');
    writeMetrics(out, { lint_ran: 0 });
    return;
  }
  say(`lint ${params.design} with ${version}`);
  const rtl = path.join(input, 'rtl');
  const started = Date.now();
  const work = workDir(out);
  const linted = run(
    'verilator',
    [
      '--lint-only',
      '-Wall',
      '-Wno-fatal',
      '--top-module',
      params.design,
      `-GWIDTH=${params.width}`,
      ...(params.design === 'fifo' ? [`-GDEPTH=${params.depth}`] : []),
      ...sources(rtl).map((name) => path.join(rtl, name)),
    ],
    work,
    { cwd: rtl },
  );
  rmSync(work, { recursive: true, force: true });
  writeFileSync(path.join(out, 'lint.log'), linted.output);
  const lines = linted.output.split('\n');
  const lintWarnings = lines.filter((line) => line.startsWith('%Warning')).length;
  const lintErrors = lines.filter((line) => line.startsWith('%Error')).length;
  for (const line of lines.filter((l) => l.startsWith('%')).slice(0, 20)) say(line);
  say(`lint: ${lintWarnings} warnings, ${lintErrors} errors`);
  writeMetrics(out, {
    lint_ran: 1,
    lint_warnings: lintWarnings,
    lint_errors: lintErrors,
    lint_ms: Date.now() - started,
  });
}

async function plainYosys() {
  const { runYosys } = await import('@yowasp/yosys');
  const files = Object.fromEntries(
    readdirSync('.', { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => [entry.name, readFileSync(entry.name)]),
  );
  try {
    const tree = await runYosys(rest, files);
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

const stages = { elaborate, synth, simulate, lint, yosys: plainYosys };
const chosen = stages[stage];
if (!chosen)
  fail(`unknown stage ${JSON.stringify(stage)}: one of ${Object.keys(stages).join(', ')}`);
await chosen();
