/**
 * The designer's loop, timed (not part of the test suite): npx tsx perf/eda-upload-figures.ts
 * Starts the real server as a child process on a fresh data dir with the EDA demo seeded, waits
 * for the seeded trials, then uploads a changed ALU (the demo's alu.v without its shifter) to the
 * bolt `demo-rtl` under /rtl with the console's upload engine (as the modal sends it), and prints
 * the time from the upload's start to: the commit landed, the first metric of the trial it
 * started, and that trial finished. For scale, in the same run: the seeded trials' own time from
 * created to finished (the flow alone, no upload).
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { createUploadItem, finishUploads, startUploads, type UploadFile } from '@ivory/api';
import { edaRtlDir } from '../server/src/eda/demo-flow.ts';
import { results, type Json } from '../server/test/helpers/api-client.ts';
import { startServerProcess } from '../server/test/helpers/server-process.ts';
import { printFigure } from './support/figures.ts';

const SEEDED_TRIALS = 3;
const TIMEOUT_MS = 300_000;
const project = { name: 'eda' };

const trialsOf = (url: string): Promise<Json[]> =>
  results(url, 'omni_v1.API/ListTrial', { project, flow: 'yosys', pageSize: 100 });

async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ms = (from: string, to: string) => new Date(to).getTime() - new Date(from).getTime();

async function main(): Promise<void> {
  const server = await startServerProcess({ IVORY_SEED: 'true' });
  try {
    const seeded = await until('the seeded trials', async () => {
      const trials = await trialsOf(server.url);
      return trials.length >= SEEDED_TRIALS && trials.every((t) => t.finished) ? trials : undefined;
    });
    const flowAlone = seeded.map((t) => ms(t.created, t.finished)).sort((a, b) => a - b);

    const alu = (await readFile(path.join(edaRtlDir, 'alu.v'), 'utf8'))
      .replace(/OP_SHL: .*\n/, '')
      .replace(/OP_SHR: .*\n/, '');
    const file: UploadFile = new File([alu], 'alu.v');
    const started = Date.now();
    const run = await startUploads({
      items: [createUploadItem(file, 'rtl/alu.v')],
      repo: 'demo-rtl',
      projectId: project.name,
      path: '/',
      description: 'ALU without the shifter',
      baseUrl: server.url,
    });
    if (run.error) throw new Error(`upload failed: ${run.error}`);
    let commitId = '';
    const failure = await finishUploads({
      uploadIds: run.items,
      baseUrl: server.url,
      onFinished: (answer) => (commitId = answer.commitId ?? commitId),
    });
    if (failure || !commitId) throw new Error(`finish failed: ${failure ?? 'no commit'}`);
    const landed = Date.now() - started;

    const ofCommit = async () =>
      (await trialsOf(server.url)).find((t) => t.labels?.commit === commitId);
    await until('a metric of the new trial', async () => {
      const trial = await ofCommit();
      return trial && (trial.metrics ?? []).length > 0 ? trial : undefined;
    });
    const firstMetric = Date.now() - started;
    const trial = await until('the new trial finished', async () => {
      const found = await ofCommit();
      return found?.finished ? found : undefined;
    });
    const finished = Date.now() - started;

    printFigure('upload start → commit landed', `${landed} ms`);
    printFigure('upload start → first metric of the new trial', `${firstMetric} ms`);
    printFigure('upload start → new trial finished', `${finished} ms (${trial.state})`);
    printFigure(
      'seeded trials, created → finished (the flow alone)',
      flowAlone.map((t) => `${t} ms`).join(' / '),
    );
    printFigure(
      'first metric after upload / fastest flow alone',
      `${(firstMetric / flowAlone[0]!).toFixed(2)}×`,
    );
  } finally {
    await server.kill();
    await rm(server.dataDir, { recursive: true, force: true });
  }
}

await main();
