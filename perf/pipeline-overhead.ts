/**
 * Pipeline overhead of the embedded platform (not part of the test suite):
 *   npx tsx perf/pipeline-overhead.ts [datums]
 * Prints the time of a job of N trivial datums (one `cp` per datum, glob "/*" over N tiny
 * files) against N runs of the same command in a plain shell loop, as a ratio (target ≤ 1.5),
 * and datums per second with parallelism 1 and 2. The machine may be shared: the shell loop is
 * timed right before and right after each job, and each ratio uses the mean of those two.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { modifyFile, ok, repo } from '../server/test/helpers/api-client.ts';
import { startTestServer } from '../server/test/helpers/in-process-server.ts';

const count = Number(process.argv[2] ?? 1000);

async function shellLoop(): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ivory-perf-shell-'));
  await mkdir(path.join(dir, 'in'));
  await mkdir(path.join(dir, 'out'));
  for (let i = 0; i < count; i++) await writeFile(path.join(dir, 'in', `f${i}.txt`), `line ${i}\n`);
  const started = process.hrtime.bigint();
  execFileSync('sh', ['-c', 'for f in in/*; do cp -r "$f" out/; done'], { cwd: dir });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  await rm(dir, { recursive: true, force: true });
  return ms;
}

async function main(): Promise<void> {
  const server = await startTestServer({ logLevel: 'error' });
  const url = server.url;
  try {
    await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('tiny') });
    const commit = await ok(url, 'pfs_v2.API/StartCommit', {
      branch: { repo: repo('tiny'), name: 'master' },
    });
    const messages: Parameters<typeof modifyFile>[1] = [{ setCommit: commit }];
    for (let i = 0; i < count; i++)
      messages.push({
        addFile: { path: `/f${i}.txt`, raw: Buffer.from(`line ${i}\n`).toString('base64') },
      });
    await modifyFile(url, messages);
    await ok(url, 'pfs_v2.API/FinishCommit', { commit });

    const runJob = async (parallelism: number, update: boolean): Promise<number> => {
      const started = process.hrtime.bigint();
      await ok(url, 'pps_v2.API/CreatePipelineV2', {
        createPipelineRequestJson: JSON.stringify({
          pipeline: { name: 'overhead' },
          transform: { cmd: ['cp', '-r', '/pfs/tiny/.', '/pfs/out/'] },
          parallelismSpec: { constant: parallelism },
          input: { pfs: { repo: 'tiny', glob: '/*' } },
        }),
        update,
        reprocess: update,
      });
      const info = await ok(url, 'pps_v2.API/InspectPipeline', { pipeline: { name: 'overhead' } });
      const job = await ok(url, 'pps_v2.API/InspectJob', {
        job: { pipeline: { name: 'overhead' }, id: info.specCommit.id },
        wait: true,
      });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (job.state !== 'JOB_SUCCESS' || job.dataProcessed !== String(count))
        throw new Error(`job ended ${job.state}: ${job.reason} (${job.dataProcessed} processed)`);
      return ms;
    };
    const shell0 = await shellLoop();
    const p1 = await runJob(1, false);
    const shell1 = await shellLoop();
    const p2 = await runJob(2, true);
    const shell2 = await shellLoop();
    const shellMs = (shell0 + shell1 + shell2) / 3;
    const shellP1 = (shell0 + shell1) / 2;
    const shellP2 = (shell1 + shell2) / 2;
    const fmt = (n: number) => n.toFixed(0).padStart(8);
    console.log(`pipeline overhead, ${count} datums (one \`cp\` each, glob "/*")`);
    console.log(
      `  plain shell loop (${count} x cp):      ${fmt(shellMs)} ms  (runs: ${[shell0, shell1, shell2].map((n) => n.toFixed(0)).join(', ')})`,
    );
    console.log(`  job, parallelism 1:                 ${fmt(p1)} ms`);
    console.log(`  job, parallelism 2:                 ${fmt(p2)} ms`);
    console.log(
      `  overhead ratio, parallelism 1:      ${(p1 / shellP1).toFixed(2).padStart(8)}  (target <= 1.5)`,
    );
    console.log(
      `  overhead ratio, parallelism 2:      ${(p2 / shellP2).toFixed(2).padStart(8)}  (target <= 1.5)`,
    );
    console.log(
      `  datums per second, parallelism 1:   ${(count / (p1 / 1000)).toFixed(1).padStart(8)}`,
    );
    console.log(
      `  datums per second, parallelism 2:   ${(count / (p2 / 1000)).toFixed(1).padStart(8)}`,
    );
  } finally {
    await server.close();
  }
}

await main();
