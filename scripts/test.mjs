#!/usr/bin/env node
// `npm test`: every check and test; each step runs even if an earlier one failed, and the last
// line counts the tests of all runners together. Two lanes run side by side: the end-to-end suite
// (mostly waiting on a browser and a server) and the rest in order (typecheck, lint, unit, server
// integration), whose output is kept in a file and printed when the lane ends, so the two never
// interleave. The lane runs its tests one file at a time (one core), leaving the other to the
// browser and server of the end-to-end suite. On two cores this takes about the end-to-end
// suite's time instead of the sum.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, 'test-results', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const vitestReport = (name) => [
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(reports, name)}`,
];
const steps = [
  // Pipelines run in bubblewrap's sandbox (the integration and end-to-end tests run them); the
  // EDA demo's tests run its flow with Icarus Verilog, Verilator and OpenSTA (and without them).
  {
    name: 'system packages',
    cmd: ['bash', 'scripts/ensure-packages.sh', 'bubblewrap', 'iverilog', 'verilator', 'opensta'],
  },
  { name: 'typecheck', cmd: ['npm', 'run', 'typecheck'] },
  { name: 'lint', cmd: ['npm', 'run', 'lint'] },
  {
    name: 'unit',
    cmd: [
      'npx',
      'vitest',
      'run',
      '--project',
      'api',
      '--project',
      'web',
      '--project',
      'server-unit',
      '--maxWorkers=1',
      ...vitestReport('unit.json'),
    ],
  },
  {
    name: 'server integration',
    cmd: [
      'npx',
      'vitest',
      'run',
      '--project',
      'server-integration',
      ...vitestReport('server.json'),
    ],
    env: { IVORY_TEST_WORKERS: '1' },
  },
  {
    name: 'end-to-end',
    cmd: ['npm', 'run', 'test:e2e', '--', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: join(reports, 'e2e.json') },
  },
];

/** Runs one step; its output goes to the terminal, or to `log` when given. */
function run(step, log) {
  return new Promise((done) => {
    const started = Date.now();
    log?.write(`\n=== ${step.name} ===\n`);
    if (!log) console.log(`\n=== ${step.name} ===`);
    const child = spawn(step.cmd[0], step.cmd.slice(1), {
      cwd: root,
      stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...step.env },
    });
    if (log) {
      child.stdout.pipe(log, { end: false });
      child.stderr.pipe(log, { end: false });
    }
    child.on('close', (status) =>
      done({ name: step.name, ok: status === 0, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

async function lane(laneSteps, log) {
  const laneResults = [];
  for (const step of laneSteps) laneResults.push(await run(step, log));
  return laneResults;
}

const [system, ...checks] = steps.filter((step) => step.name !== 'end-to-end');
const e2e = steps.find((step) => step.name === 'end-to-end');
const results = [await run(system)];
const checksLog = join(reports, 'checks.log');
const checksOut = createWriteStream(checksLog);
const [checkResults, e2eResults] = await Promise.all([
  lane(checks, checksOut).then(async (laneResults) => {
    await new Promise((closed) => checksOut.end(closed));
    console.log(readFileSync(checksLog, 'utf8'));
    return laneResults;
  }),
  lane([e2e]),
]);
results.push(...checkResults, ...e2eResults);

function countVitest(file) {
  if (!existsSync(file)) return { passed: 0, failed: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: report.numPassedTests ?? 0, failed: report.numFailedTests ?? 0 };
}
function countPlaywright(file) {
  if (!existsSync(file)) return { passed: 0, failed: 0 };
  const stats = JSON.parse(readFileSync(file, 'utf8')).stats ?? {};
  return { passed: (stats.expected ?? 0) + (stats.flaky ?? 0), failed: stats.unexpected ?? 0 };
}
const counts = [
  countVitest(join(reports, 'unit.json')),
  countVitest(join(reports, 'server.json')),
  countPlaywright(join(reports, 'e2e.json')),
];

console.log('\n=== summary ===');
for (const result of results)
  console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name} (${result.seconds.toFixed(1)} s)`);
const passed = counts.reduce((sum, count) => sum + count.passed, 0);
const failedSteps = results.filter((result) => !result.ok).length;
const failed =
  counts.reduce((sum, count) => sum + count.failed, 0) +
  (failedSteps > 0 && counts.every((c) => c.failed === 0) ? failedSteps : 0);
console.log(`Tests: ${passed} passed, ${failed} failed`);
process.exit(failedSteps > 0 ? 1 : 0);
