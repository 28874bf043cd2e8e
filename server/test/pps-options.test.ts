import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, ok, repo, results, type Json } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { createPipeline, lastJob, listDatums, pipeline, readAll, waitJob } from './helpers/pps.ts';

const { url } = useTestServer({ projects: ['default'], repos: ['in'] });
beforeAll(() => commitFiles(url(), 'in', { '/a.txt': 'alpha', '/b.txt': 'beta' }));

const systemLogs = async (job: Json): Promise<string[]> =>
  (await results(url(), 'pps_v2.API/GetLogs', { job }))
    .filter((l: Json) => !l.user)
    .map((l: Json) => l.message as string);

describe('transform and job options', () => {
  it('errCmd: a datum that fails on every try but whose errCmd succeeds is RECOVERED', async () => {
    await createPipeline(url(), {
      pipeline: pipeline('recovering'),
      transform: {
        cmd: ['sh', '-c', 'case "$(ls /pfs/in)" in b.txt) exit 4;; esac; cp /pfs/in/* /pfs/out/'],
        errCmd: ['sh', '-c', 'read line; echo "errCmd saw $line"'],
        errStdin: ['/pfs/in'],
      },
      datumTries: 2,
      input: { pfs: { repo: 'in', glob: '/*' } },
    });
    const job = await lastJob(url(), 'recovering');
    expect(job.state).toBe('JOB_SUCCESS');
    expect(job.dataRecovered).toBe('1');
    expect(job.dataProcessed).toBe('1');
    expect(job.dataFailed).toBe('0');
    const states = (await listDatums(url(), job.job)).map((d: Json) => d.state).sort();
    expect(states).toEqual(['RECOVERED', 'SUCCESS']);
    // A recovered datum contributes no output.
    expect(await readAll(url(), 'recovering', job.job.id)).toEqual({ '/a.txt': 'alpha' });
    const logs = await results(url(), 'pps_v2.API/GetLogs', { job: job.job });
    const messages = logs.map((l: Json) => l.message as string);
    // pachd's words for a failed try.
    const failedTries = messages.filter((m) =>
      /^errored running user code after \S+: exit code 4$/.test(m),
    );
    expect(failedTries).toHaveLength(2);
    expect(messages).toContain('errCmd succeeded: datum recovered');
    // errStdin runs as written, like stdin: /pfs is real in the sandbox.
    expect(messages).toContain('errCmd saw /pfs/in');

    // The job's metadata lands in the pipeline's meta repo under the job's ID.
    const metaCommit = {
      repo: { name: 'recovering', type: 'meta', project: { name: 'default' } },
      id: job.job.id,
    };
    const meta = await ok(url(), 'pfs_v2.API/InspectCommit', { commit: metaCommit });
    expect(meta.finished).not.toBeNull();
    const chunks = await results(url(), 'pfs_v2.API/GetFile', {
      file: { commit: metaCommit, path: '/job.json' },
    });
    const document = JSON.parse(
      Buffer.concat(chunks.map((c: string) => Buffer.from(c, 'base64'))).toString(),
    );
    expect(document.job).toMatchObject({ id: job.job.id, state: 'JOB_SUCCESS' });
    expect(document.datums.map((d: Json) => d.state).sort()).toEqual(['RECOVERED', 'SUCCESS']);
    expect(document.datums.find((d: Json) => d.state === 'SUCCESS').outputs[0].path).toBe('/a.txt');
  });

  it('datumTries: a datum that fails once and succeeds on its second try', async () => {
    // The sandbox's private /tmp lasts for the job (one sandbox per worker slot).
    const marker = `/tmp/tried-once-${Date.now()}`;
    await createPipeline(url(), {
      pipeline: pipeline('flaky'),
      transform: {
        cmd: [
          'sh',
          '-c',
          'if [ ! -e "$MARKER" ]; then touch "$MARKER"; echo first try fails >&2; exit 1; fi; cat /pfs/in/* > /pfs/out/all',
        ],
        env: { MARKER: marker },
      },
      datumTries: 2,
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    const job = await lastJob(url(), 'flaky');
    expect(job.state).toBe('JOB_SUCCESS');
    expect(job.dataProcessed).toBe('1');
    expect(await readAll(url(), 'flaky', job.job.id)).toEqual({ '/all': 'alphabeta' });
    const messages = await systemLogs(job.job);
    expect(messages.some((m) => /try 1 of 2/.test(m))).toBe(true);
    expect(messages.some((m) => /try 2 of 2/.test(m))).toBe(true);
    expect(messages).toContainEqual(
      expect.stringMatching(/^errored running user code after \S+: exit code 1$/),
    );
  });

  it('datumTimeout: a datum running longer fails with a clear reason, its processes killed', async () => {
    // A sleep no other process runs: it must not outlive the timeout.
    const nap = `7.${process.pid}`;
    const sleepers = async () => {
      const found: string[] = [];
      for (const pid of await readdir('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
        if (cmdline === `sleep\0${nap}\0`) found.push(pid);
      }
      return found;
    };
    await createPipeline(url(), {
      pipeline: pipeline('slowpoke'),
      // The background subshell must die too: the whole process group is killed.
      transform: { cmd: ['sh', '-c', `(sleep ${nap}; echo late) & wait`] },
      datumTimeout: '1s',
      datumTries: 1,
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    // A wait, not a speed bound: on a loaded machine the job may take a while to start.
    await expect.poll(sleepers, { timeout: 30_000, interval: 100 }).toHaveLength(1);
    const job = await lastJob(url(), 'slowpoke');
    expect(job.state).toBe('JOB_FAILURE');
    expect(job.reason).toMatch(/timed out after 1s/);
    const [datum] = await listDatums(url(), job.job);
    expect(datum.state).toBe('FAILED');
    expect(await systemLogs(job.job)).toContainEqual(
      expect.stringMatching(/^errored running user code after \S+: timed out after 1s$/),
    );
    expect(await sleepers()).toEqual([]);
  });

  it('datumTimeout with parallelism 1: only the slow datum fails; datums queued behind it run', async () => {
    const files: Record<string, string> = { '/a-slow.txt': 'slow' };
    for (let i = 0; i < 8; i++) files[`/quick-${i}.txt`] = `quick ${i}`;
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('mixed') });
    await commitFiles(url(), 'mixed', files);
    await createPipeline(url(), {
      pipeline: pipeline('one-slow'),
      transform: {
        cmd: [
          'sh',
          '-c',
          'for f in /pfs/mixed/*; do case "$f" in */a-slow.txt) sleep 5;; esac; cp "$f" /pfs/out/; done',
        ],
      },
      parallelismSpec: { constant: 1 },
      datumTimeout: '1s',
      datumTries: 1,
      input: { pfs: { repo: 'mixed', glob: '/*' } },
    });
    const job = await lastJob(url(), 'one-slow');
    expect(job.state).toBe('JOB_FAILURE');
    const datums = await listDatums(url(), job.job);
    const failed = datums.filter((d: Json) => d.state === 'FAILED');
    expect(failed.map((d: Json) => d.data[0].file.path)).toEqual(['/a-slow.txt']);
    expect(datums.filter((d: Json) => d.state === 'SUCCESS')).toHaveLength(8);
    expect(await systemLogs(job.job)).not.toContain(
      expect.stringMatching(/errored running user code after \S+: (?!timed out)/),
    );
  });

  it('credits every output line to the datum that printed it, also without a final newline', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) files[`/n${i}.txt`] = `n${i}`;
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('chatty-in') });
    await commitFiles(url(), 'chatty-in', files);
    await createPipeline(url(), {
      pipeline: pipeline('chatty'),
      transform: {
        cmd: [
          'sh',
          '-c',
          'echo "first $PACH_DATUM_ID"; echo "to stderr $PACH_DATUM_ID" >&2; printf "last $PACH_DATUM_ID"',
        ],
      },
      parallelismSpec: { constant: 1 },
      input: { pfs: { repo: 'chatty-in', glob: '/*' } },
    });
    const job = await lastJob(url(), 'chatty');
    expect(job.state).toBe('JOB_SUCCESS');
    const datums = await listDatums(url(), job.job);
    expect(datums).toHaveLength(10);
    for (const datum of datums) {
      const id = datum.datum.id as string;
      const lines = (
        await results(url(), 'pps_v2.API/GetLogs', { job: job.job, datum: { job: job.job, id } })
      )
        .filter((l: Json) => l.user)
        .map((l: Json) => l.message);
      expect(lines).toEqual([`first ${id}`, `to stderr ${id}`, `last ${id}`]);
    }
  });

  it('jobTimeout: a job running longer is stopped and fails with the reason', async () => {
    // Not stopped, the job would succeed after its 30 s sleep: the reason says it was stopped.
    await createPipeline(url(), {
      pipeline: pipeline('overtime'),
      transform: { cmd: ['sleep', '30'] },
      jobTimeout: '1s',
      input: { pfs: { repo: 'in', glob: '/*' } },
    });
    const job = await lastJob(url(), 'overtime');
    expect(job.state).toBe('JOB_FAILURE');
    expect(job.reason).toMatch(/job timed out after 1s/);
    const output = await ok(url(), 'pfs_v2.API/InspectCommit', { commit: job.outputCommit });
    expect(output.finished).not.toBeNull();
    expect(output.error).toMatch(/timed out/);
  });

  it('acceptReturnCode: a listed exit code counts as success', async () => {
    await createPipeline(url(), {
      pipeline: pipeline('lenient'),
      transform: {
        cmd: ['sh', '-c', 'cp /pfs/in/* /pfs/out/; exit 3'],
        acceptReturnCode: ['3'],
      },
      input: { pfs: { repo: 'in', glob: '/*' } },
    });
    const job = await lastJob(url(), 'lenient');
    expect(job.state).toBe('JOB_SUCCESS');
    expect(job.dataProcessed).toBe('2');
    expect(await readAll(url(), 'lenient', job.job.id)).toEqual({
      '/a.txt': 'alpha',
      '/b.txt': 'beta',
    });
    // Another code still fails.
    await createPipeline(url(), {
      pipeline: pipeline('strict'),
      transform: { cmd: ['sh', '-c', 'exit 5'], acceptReturnCode: [3] },
      datumTries: 1,
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    const strict = await lastJob(url(), 'strict');
    expect(strict.state).toBe('JOB_FAILURE');
    expect(strict.reason).toMatch(/exit code 5/);
  });

  it('passes PACH_JOB_ID, PACH_DATUM_ID, PACH_OUTPUT_COMMIT_ID and PFS_<INPUT>; honours workingDir and stdin', async () => {
    await ok(url(), 'pfs_v2.API/CreateRepo', { repo: repo('my-input') });
    await commitFiles(url(), 'my-input', { '/only.txt': 'only' });
    await createPipeline(url(), {
      pipeline: pipeline('envy'),
      transform: {
        cmd: ['sh'],
        stdin: [
          'echo "job=$PACH_JOB_ID" > /pfs/out/env',
          'echo "datum=$PACH_DATUM_ID" >> /pfs/out/env',
          'echo "commit=$PACH_OUTPUT_COMMIT_ID" >> /pfs/out/env',
          'echo "input=$PFS_MY_INPUT" >> /pfs/out/env',
          'echo "pfs=$PFS" >> /pfs/out/env',
          'pwd > /pfs/out/cwd',
          'cat only.txt > /pfs/out/read-from-cwd',
          // (sh drops such names from its children's environment: read its own.)
          'tr "\\0" "\\n" < /proc/$$/environ | grep "^ODD-NAME=" > /pfs/out/odd',
          'printf %s "$QUOTED" > /pfs/out/quoted',
        ],
        // A name that is not a shell identifier, and a value with quotes and a newline.
        env: { 'ODD-NAME': 'yes', QUOTED: `it's "quoted"\n$HOME` },
        workingDir: '/pfs/my-input',
      },
      input: { pfs: { repo: 'my-input', glob: '/' } },
    });
    const job = await lastJob(url(), 'envy');
    expect(job.state).toBe('JOB_SUCCESS');
    const [datum] = await listDatums(url(), job.job);
    const files = await readAll(url(), 'envy', job.job.id);
    const env = Object.fromEntries(
      (files['/env'] ?? '')
        .trim()
        .split('\n')
        .map((line) => line.split('=') as [string, string]),
    );
    expect(env.job).toBe(job.job.id);
    expect(env.datum).toBe(datum.datum.id);
    expect(env.commit).toBe(job.outputCommit.id);
    expect(env.input).toBe(`${env.pfs}/my-input`);
    expect(files['/cwd']?.trim()).toBe(env.input);
    expect(files['/read-from-cwd']).toBe('only');
    expect(files['/odd']).toBe('ODD-NAME=yes\n');
    expect(files['/quoted']).toBe(`it's "quoted"\n$HOME`);
  });

  it.skipIf(os.cpus().length < 2)(
    'parallelismSpec.constant 2 runs two datums at once',
    async () => {
      await createPipeline(url(), {
        pipeline: pipeline('paired'),
        transform: {
          cmd: [
            'sh',
            '-c',
            'n=$(ls /pfs/in); date +%s%N > /pfs/out/$n.start; sleep 0.6; date +%s%N > /pfs/out/$n.end',
          ],
        },
        parallelismSpec: { constant: 2 },
        input: { pfs: { repo: 'in', glob: '/*' } },
      });
      const job = await lastJob(url(), 'paired');
      expect(job.state).toBe('JOB_SUCCESS');
      const files = await readAll(url(), 'paired', job.job.id);
      const at = (name: string) => Number(BigInt((files[name] ?? '').trim()) / 1_000_000n);
      const [a, b] = [
        { start: at('/a.txt.start'), end: at('/a.txt.end') },
        { start: at('/b.txt.start'), end: at('/b.txt.end') },
      ] as [{ start: number; end: number }, { start: number; end: number }];
      // The two intervals overlap: each started before the other ended.
      expect(a.start).toBeLessThan(b.end);
      expect(b.start).toBeLessThan(a.end);
    },
  );

  it("runs the program a command names (never the shell's own word), with argv[0] as given", async () => {
    await createPipeline(url(), {
      pipeline: pipeline('programs'),
      transform: {
        cmd: [
          'sh',
          '-c',
          'tr "\\0" " " < /proc/$$/cmdline > /pfs/out/argv; pwd > /pfs/out/cwd; printf %s "$QUOTED" > /pfs/out/quoted',
        ],
        env: { QUOTED: `it's "quoted"\n$HOME` },
        workingDir: '/pfs/in',
      },
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    const job = await lastJob(url(), 'programs');
    expect(job.state).toBe('JOB_SUCCESS');
    const files = await readAll(url(), 'programs', job.job.id);
    expect(files['/argv']).toMatch(/^sh -c /);
    expect(files['/cwd']).toMatch(/\/pfs\/in\n$/);
    expect(files['/quoted']).toBe(`it's "quoted"\n$HOME`);

    // `echo` is the echo program (which takes -e), not the shell's builtin (which prints it).
    await createPipeline(url(), {
      pipeline: pipeline('echoes'),
      transform: { cmd: ['echo', '-e', 'tab\\there'] },
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    const echoed = await lastJob(url(), 'echoes');
    expect(echoed.state).toBe('JOB_SUCCESS');
    const lines = (await results(url(), 'pps_v2.API/GetLogs', { job: echoed.job }))
      .filter((l: Json) => l.user)
      .map((l: Json) => l.message as string);
    expect(lines).toEqual(['tab\there']);

    // `exit` names no program: the datum fails with 127, and the shells go on running datums.
    await createPipeline(url(), {
      pipeline: pipeline('exits'),
      transform: { cmd: ['exit', '3'] },
      datumTries: 1,
      input: { pfs: { repo: 'in', glob: '/*' } },
    });
    const exited = await lastJob(url(), 'exits');
    expect(exited.state).toBe('JOB_FAILURE');
    const reasons = (await systemLogs(exited.job))
      .filter((m) => m.startsWith('errored running user code'))
      .map((m) => m.replace(/^errored running user code after \S+: /, ''));
    expect(reasons).toEqual(Array(2).fill('exit code 127 (is exit installed?)'));
  });

  it('cron: ticks write commits to the cron repo and start jobs; RunCron ticks at once', async () => {
    await createPipeline(url(), {
      pipeline: pipeline('ticker'),
      transform: { cmd: ['sh', '-c', 'ls /pfs/tick > /pfs/out/seen'] },
      input: { cron: { name: 'tick', spec: '@every 2s', overwrite: true } },
    });
    const cronRepo = 'ticker_tick';
    const repos = await results(url(), 'pfs_v2.API/ListRepo', { type: 'user' });
    expect(repos.some((r: Json) => r.repo.name === cronRepo)).toBe(true);

    // RunCron: a tick now, without waiting for the schedule.
    await ok(url(), 'pps_v2.API/RunCron', { pipeline: pipeline('ticker') });
    const commits = async () =>
      (await results(url(), 'pfs_v2.API/ListCommit', { repo: repo(cronRepo) })).filter(
        (c: Json) => c.finished,
      );
    const first = (await commits())[0];
    expect(first).toBeTruthy();
    const job = await waitJob(url(), 'ticker', first.commit.id);
    expect(job.state).toBe('JOB_SUCCESS');
    const seen = (await readAll(url(), 'ticker', job.job.id))['/seen']?.trim() ?? '';
    expect(seen).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);

    // The schedule ticks by itself (every 2s) and each tick starts a job.
    const deadline = Date.now() + 10_000;
    let scheduled: Json[] = [];
    while (Date.now() < deadline) {
      scheduled = (await commits()).filter((c: Json) => c.commit.id !== first.commit.id);
      if (scheduled.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(scheduled.length).toBeGreaterThan(0);
    const ticked = await waitJob(url(), 'ticker', scheduled[0].commit.id);
    expect(ticked.state).toBe('JOB_SUCCESS');
    // overwrite: each tick's commit holds only its own file.
    const files = await results(url(), 'pfs_v2.API/ListFile', {
      file: { commit: { repo: repo(cronRepo), id: scheduled[0].commit.id }, path: '/' },
    });
    expect(files).toHaveLength(1);
    await ok(url(), 'pps_v2.API/StopPipeline', { pipeline: pipeline('ticker') });
  });
});
