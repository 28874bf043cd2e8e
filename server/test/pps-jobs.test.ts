import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, commitFiles, ok, results, type Json } from './helpers/api-client.ts';
import { projectRoot } from '../src/platform/pps/runner/sandbox.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { createPipeline, lastJob, listDatums, pipeline, readAll, waitJob } from './helpers/pps.ts';

const { server, url } = useTestServer({ projects: ['default'], repos: ['in'] });

async function jobs(pipelineName: string): Promise<Json[]> {
  return results(url(), 'pps_v2.API/ListJob', { pipeline: pipeline(pipelineName), history: -1 });
}

describe('jobs, datums and logs', () => {
  it('fails a job on a failing datum, with logs; RestartDatum succeeds once the cause is gone; reruns skip', async () => {
    // A datum sees the project's folder (read-only), never the data folder: the flag lives there.
    const flag = path.join(projectRoot, 'node_modules', '.cache', `ivory-flag-${process.pid}`);
    await mkdir(path.dirname(flag), { recursive: true });
    await writeFile(flag, 'x');
    await commitFiles(url(), 'in', { '/good.txt': 'fine', '/bad.txt': 'bad data' });
    await createPipeline(url(), {
      pipeline: pipeline('fragile'),
      transform: {
        cmd: [
          'sh',
          '-c',
          'if grep -q bad /pfs/in/* && [ -f "$FLAG" ]; then echo "cannot parse $(ls /pfs/in)" >&2; exit 3; fi; echo copying; cp /pfs/in/* /pfs/out/',
        ],
        env: { FLAG: flag },
      },
      datumTries: 2,
      input: { pfs: { repo: 'in', glob: '/*' } },
    });
    const failed = await lastJob(url(), 'fragile');
    expect(failed.state).toBe('JOB_FAILURE');
    expect(failed.reason).toMatch(/exit code 3/);
    expect(failed.dataFailed).toBe('1');
    expect(failed.dataProcessed).toBe('1');
    const info = await ok(url(), 'pps_v2.API/InspectPipeline', { pipeline: pipeline('fragile') });
    expect(info.lastJobState).toBe('JOB_FAILURE');
    // The failed job's output commit is finished with an error and holds nothing.
    const output = await ok(url(), 'pfs_v2.API/InspectCommit', { commit: failed.outputCommit });
    expect(output.finished).not.toBeNull();
    expect(output.error).toMatch(/exit code 3/);
    expect(await readAll(url(), 'fragile', failed.job.id)).toEqual({});

    const badDatum = (await listDatums(url(), failed.job)).find((d: Json) => d.state === 'FAILED');
    expect(badDatum.data[0].file.path).toBe('/bad.txt');
    const logs = await results(url(), 'pps_v2.API/GetLogs', { job: failed.job });
    const user = logs.filter((l: Json) => l.user).map((l: Json) => l.message);
    expect(user).toContain('cannot parse bad.txt');
    expect(user).toContain('copying');
    const system = logs.filter((l: Json) => !l.user).map((l: Json) => l.message);
    expect(system).toContainEqual(
      expect.stringMatching(/^errored running user code after \S+: exit code 3$/),
    );
    // (As pachd, a datum's logs are asked for with its job.)
    const datumLogs = await results(url(), 'pps_v2.API/GetLogs', {
      job: failed.job,
      datum: { job: failed.job, id: badDatum.datum.id },
    });
    expect(datumLogs.every((l: Json) => l.datumId === badDatum.datum.id)).toBe(true);
    expect(datumLogs[0].data[0].path).toBe('/bad.txt');
    const tail = await results(url(), 'pps_v2.API/GetLogs', {
      pipeline: pipeline('fragile'),
      tail: 1,
    });
    expect(tail).toHaveLength(1);

    await rm(flag);
    await ok(url(), 'pps_v2.API/RestartDatum', { job: failed.job, dataFilters: [] });
    const all = await jobs('fragile');
    expect(all).toHaveLength(2);
    const fixed = await ok(url(), 'pps_v2.API/InspectJob', { job: all[0].job, wait: true });
    expect(fixed.state).toBe('JOB_SUCCESS');
    expect(fixed.dataSkipped).toBe('1');
    expect(fixed.dataProcessed).toBe('1');
    expect(await readAll(url(), 'fragile', fixed.job.id)).toEqual({
      '/bad.txt': 'bad data',
      '/good.txt': 'fine',
    });
    expect(
      (await ok(url(), 'pps_v2.API/InspectPipeline', { pipeline: pipeline('fragile') }))
        .lastJobState,
    ).toBe('JOB_SUCCESS');

    // Re-running processes nothing again.
    await ok(url(), 'pps_v2.API/RerunPipeline', { pipeline: pipeline('fragile') });
    const rerun = await ok(url(), 'pps_v2.API/InspectJob', {
      job: (await jobs('fragile'))[0].job,
      wait: true,
    });
    expect(rerun.state).toBe('JOB_SUCCESS');
    expect(rerun.dataSkipped).toBe('2');
    expect(rerun.dataProcessed).toBe('0');
    const skipped = await results(url(), 'pps_v2.API/ListDatum', {
      job: rerun.job,
      filter: { state: ['SKIPPED'] },
    });
    expect(skipped).toHaveLength(2);
    expect(await readAll(url(), 'fragile', rerun.job.id)).toEqual({
      '/bad.txt': 'bad data',
      '/good.txt': 'fine',
    });
  });

  it('gives a secret to the process as an env var and never shows its value', async () => {
    const value = 'p4ss-w0rd-only-the-process-knows';
    const manifest = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'creds', labels: { team: 'data' } },
      data: { token: Buffer.from(value).toString('base64') },
    };
    await ok(url(), 'pps_v2.API/CreateSecret', {
      file: Buffer.from(JSON.stringify(manifest)).toString('base64'),
    });
    const spec = {
      pipeline: pipeline('secretive'),
      transform: {
        cmd: [
          'sh',
          '-c',
          'printf %s "$TOKEN" | sha256sum | cut -d" " -f1 > /pfs/out/hash; echo "token length ${#TOKEN}"',
        ],
        secrets: [{ name: 'creds', key: 'token', envVar: 'TOKEN' }],
      },
      input: { pfs: { repo: 'in', glob: '/' } },
    };
    await createPipeline(url(), spec);
    const job = await lastJob(url(), 'secretive');
    expect(job.state).toBe('JOB_SUCCESS');
    const files = await readAll(url(), 'secretive', job.job.id);
    expect(files['/hash']?.trim()).toBe(createHash('sha256').update(value).digest('hex'));

    const responses = [
      await ok(url(), 'pps_v2.API/ListSecret', {}),
      await ok(url(), 'pps_v2.API/InspectSecret', { secret: { name: 'creds' } }),
      await results(url(), 'pps_v2.API/GetLogs', { pipeline: pipeline('secretive') }),
      await ok(url(), 'pps_v2.API/InspectPipeline', { pipeline: pipeline('secretive') }),
      await results(url(), 'pps_v2.API/ListJob', { details: true }),
    ];
    const text = JSON.stringify(responses);
    expect(text).not.toContain(value);
    expect(text).not.toContain(Buffer.from(value).toString('base64'));
    expect(responses[0].secretInfo.map((s: Json) => s.secret.name)).toEqual(['creds']);
    expect(responses[1].type).toBe('Opaque');
    const { readFile, stat } = await import('node:fs/promises');
    expect((await stat(path.join(server().dataDir, 'secret.key'))).mode & 0o777).toBe(0o600);
    const db = await readFile(path.join(server().dataDir, 'ivory.db'));
    expect(db.includes(Buffer.from(value))).toBe(false);
    await ok(url(), 'pps_v2.API/DeleteSecret', { secret: { name: 'creds' } });
    expect(
      (await call(url(), 'pps_v2.API/InspectSecret', { secret: { name: 'creds' } })).status,
    ).toBe(404);
  });

  it('GetLogs follow streams a line written after the stream started, and ends with the job', async () => {
    await createPipeline(url(), {
      pipeline: pipeline('slow'),
      transform: { cmd: ['sh', '-c', 'echo first-line; sleep 1; echo second-line'] },
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    let job: Json | undefined;
    while (!job) {
      job = (await jobs('slow'))[0];
      if (!job) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const response = await fetch(`${url()}/api/pps_v2.API/GetLogs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ job: job.job, follow: true }),
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let sawFirstBeforeSecond = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
      if (text.includes('first-line') && !text.includes('second-line')) sawFirstBeforeSecond = true;
    }
    const messages = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).result.message);
    expect(sawFirstBeforeSecond).toBe(true);
    expect(messages).toContain('second-line');
    expect(messages.at(-1)).toMatch(/JOB_SUCCESS/);
  });

  it('applies project defaults in the effective spec of a dry run', async () => {
    await ok(url(), 'pps_v2.API/SetProjectDefaults', {
      project: { name: 'default' },
      projectDefaultsJson: JSON.stringify({
        createPipelineRequest: {
          datumTries: '7',
          transform: { env: { FROM_DEFAULTS: 'yes' }, image: 'busybox' },
        },
      }),
    });
    const defaults = await ok(url(), 'pps_v2.API/GetProjectDefaults', {
      project: { name: 'default' },
    });
    expect(JSON.parse(defaults.projectDefaultsJson).createPipelineRequest.datumTries).toBe('7');
    const effective = await createPipeline(
      url(),
      {
        pipeline: pipeline('dry'),
        transform: { cmd: ['true'], image: 'mine' },
        input: { pfs: { repo: 'in', glob: '/' } },
      },
      { dryRun: true },
    );
    expect(effective.datumTries).toBe('7');
    expect(effective.transform).toEqual({
      cmd: ['true'],
      image: 'mine',
      env: { FROM_DEFAULTS: 'yes' },
    });
    expect(
      (await call(url(), 'pps_v2.API/InspectPipeline', { pipeline: pipeline('dry') })).status,
    ).toBe(404);

    const cluster = await ok(url(), 'pps_v2.API/SetClusterDefaults', {
      clusterDefaultsJson: JSON.stringify({ createPipelineRequest: { autoscaling: true } }),
      dryRun: true,
    });
    expect(cluster.affectedPipelines.length).toBeGreaterThan(0);
    expect((await ok(url(), 'pps_v2.API/GetClusterDefaults', {})).clusterDefaultsJson).toBe('{}');
  });

  it('stops a running job and deletes pipelines', async () => {
    await createPipeline(url(), {
      pipeline: pipeline('sleepy'),
      transform: { cmd: ['sleep', '30'] },
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    let job: Json | undefined;
    while (!job || job.state !== 'JOB_RUNNING') {
      job = (await jobs('sleepy'))[0];
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await ok(url(), 'pps_v2.API/StopJob', { job: job.job, reason: 'enough' });
    const stopped = await waitJob(url(), 'sleepy', job.job.id);
    expect(stopped.state).toBe('JOB_KILLED');
    expect(stopped.reason).toBe('enough');
    await ok(url(), 'pps_v2.API/StopPipeline', { pipeline: pipeline('sleepy') });
    expect(
      (await ok(url(), 'pps_v2.API/InspectPipeline', { pipeline: pipeline('sleepy') })).state,
    ).toBe('PIPELINE_PAUSED');
    await ok(url(), 'pps_v2.API/DeletePipeline', { pipeline: pipeline('sleepy') });
    const repos = await results(url(), 'pfs_v2.API/ListRepo', { type: '' });
    expect(repos.some((r: Json) => r.repo.name === 'sleepy')).toBe(false);
  });
});
