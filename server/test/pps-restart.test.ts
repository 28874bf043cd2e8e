import { afterEach, describe, expect, it } from 'vitest';
import { commitFiles, ok, repo, results, type Json } from './helpers/api-client.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';
import { createPipeline, pipeline, readAll } from './helpers/pps.ts';

let current: ServerProcess | null = null;
afterEach(async () => {
  await current?.kill('SIGKILL');
  current = null;
});

describe('restart safety', () => {
  it('resumes a job killed mid-way and lands a whole output commit', async () => {
    current = await startServerProcess();
    let url = current.url;
    await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('in') });
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i++) files[`/f${i}.txt`] = `content ${i}`;
    const id = await commitFiles(url, 'in', files);
    await createPipeline(url, {
      pipeline: pipeline('copy'),
      transform: {
        cmd: [
          'sh',
          '-c',
          'sleep 0.4; for f in /pfs/in/*; do tr a-z A-Z < "$f" > /pfs/out/$(basename "$f"); done',
        ],
      },
      input: { pfs: { repo: 'in', glob: '/*' } },
    });

    // Wait until some datums are done (and the output commit is still open), then SIGKILL.
    let job: Json | undefined;
    for (;;) {
      job = (await results(url, 'pps_v2.API/ListJob', { pipeline: pipeline('copy') }))[0];
      if (job && Number(job.dataProcessed) >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(job.state).toBe('JOB_RUNNING');
    const open = await ok(url, 'pfs_v2.API/InspectCommit', { commit: job.outputCommit });
    expect(open.finished).toBeNull();
    current = await current.restart();
    url = current.url;

    const done = await ok(url, 'pps_v2.API/InspectJob', { job: job.job, wait: true });
    expect(done.state).toBe('JOB_SUCCESS');
    expect(done.restart).toBe('1');
    expect(done.dataTotal).toBe('6');
    const expected: Record<string, string> = {};
    for (const [path, text] of Object.entries(files)) expected[path] = text.toUpperCase();
    expect(await readAll(url, 'copy', job.job.id)).toEqual(expected);
    const logs = await results(url, 'pps_v2.API/GetLogs', { job: job.job });
    expect(logs.some((l: Json) => /restarted/.test(l.message))).toBe(true);
    expect(id).toBeTruthy();
  });
});
