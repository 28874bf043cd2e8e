/**
 * The EDA demo's first start (not part of the test suite):
 *   npx tsx perf/eda-seed-figures.ts
 * Starts the real server as a child process on a fresh data dir (seeding on, as a new user runs
 * it) and prints the time from spawn to /healthz, and to every seeded trial of the `yosys` flow
 * finished, with each trial's synthesis figures (target: seeded trials finished under 60 s).
 */
import { rm } from 'node:fs/promises';
import { results, type Json } from '../server/test/helpers/api-client.ts';
import { startServerProcess } from '../server/test/helpers/server-process.ts';

const SEEDED_TRIALS = 3;
const timeoutMs = 300_000;

async function main(): Promise<void> {
  const started = Date.now();
  const server = await startServerProcess({ IVORY_SEED: 'true' });
  const healthy = Date.now() - started;
  try {
    let trials: Json[] = [];
    for (;;) {
      trials = await results(server.url, 'omni_v1.API/ListTrial', {
        project: { name: 'eda' },
        flow: 'yosys',
        pageSize: 100,
      });
      if (trials.length >= SEEDED_TRIALS && trials.every((t) => t.finished)) break;
      if (Date.now() - started > timeoutMs) throw new Error('the seeded trials did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const finished = Date.now() - started;
    console.log(`first start → /healthz:                ${healthy} ms`);
    console.log(`first start → seeded trials finished:  ${finished} ms (target < 60000 ms)`);
    const value = (trial: Json, name: string) =>
      trial.metrics.find((m: Json) => m.name === name)?.value ?? '-';
    for (const trial of [...trials].sort((a, b) => (a.created < b.created ? -1 : 1)))
      console.log(
        `  ${trial.case.padEnd(8)} ${trial.state.padEnd(10)} ` +
          `${JSON.stringify(trial.parameters)} cells=${value(trial, 'cells')} ` +
          `transistors=${value(trial, 'transistors')} depth=${value(trial, 'logic_depth')} ` +
          `synth=${value(trial, 'synth_ms')} ms`,
      );
  } finally {
    await server.kill();
    await rm(server.dataDir, { recursive: true, force: true });
  }
}

await main();
