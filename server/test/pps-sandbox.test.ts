import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/platform/pps/runner/sandbox.ts';
import { commitFiles, ok, repo, results, type Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';
import { createPipeline, lastJob, listDatums, pipeline, readAll } from './helpers/pps.ts';

/**
 * Pipeline code runs in a bubblewrap sandbox (this machine has /usr/bin/bwrap). The data folder
 * lies under the project's folder here, as the default `.ivory-data` does: the sandbox shows
 * the project's code, so it must hide the data folder inside it.
 */
let server: TestServer;
let url: string;

const scratch = path.join(projectRoot, 'node_modules', '.cache');

beforeAll(async () => {
  await mkdir(scratch, { recursive: true });
  // Open to all, as `mkdir` makes the default one: only the sandbox keeps datums out.
  const dataDir = await mkdtemp(path.join(scratch, 'ivory-sandbox-'));
  await chmod(dataDir, 0o755);
  server = await startTestServer({ dataDir });
  url = server.url;
  await ok(url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
  await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('in') });
  await commitFiles(url, 'in', { '/a.txt': 'alpha' });
});
afterAll(async () => {
  await server.close();
});

/** Runs `probe` as a shell snippet in a datum: "allowed" when it exits 0, else "denied". */
const check = (name: string, probe: string) =>
  `if ${probe} >/dev/null 2>&1; then echo allowed; else echo denied; fi > /pfs/out/${name}`;

describe('the sandbox around pipeline code', () => {
  it('a datum cannot read the data folder, secret.key, another job’s folder or the network', async () => {
    expect(existsSync(path.join(server.dataDir, 'secret.key'))).toBe(true);
    // Another pipeline's job, running while the probe runs: its folder exists on the host.
    await createPipeline(url, {
      pipeline: pipeline('holder'),
      transform: { cmd: ['sleep', '30'] },
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    const holderJobs = await results(url, 'pps_v2.API/ListJob', { pipeline: pipeline('holder') });
    const holderDir = path.join(server.dataDir, 'work', holderJobs[0].job.id, 'default', 'holder');
    await expect.poll(() => existsSync(holderDir), { timeout: 10_000 }).toBe(true);

    await createPipeline(url, {
      pipeline: pipeline('prober'),
      transform: {
        cmd: ['sh'],
        stdin: [
          // (Where the data folder lies under a folder the sandbox shows, it is an empty one.)
          check('data-dir', '[ -n "$(ls -A "$DATA")" ]'),
          check('secret-key', 'cat "$DATA/secret.key"'),
          check('other-job', 'ls "$OTHER"'),
          check(
            'network',
            `node -e "fetch('$URL').then(() => process.exit(0), () => process.exit(1))"`,
          ),
          check('write-input', 'touch /pfs/in/new'),
          // What it may do: read its input, run the project's code with node, use /tmp.
          check('own-input', 'grep -q alpha /pfs/in/a.txt'),
          check('project-code', 'node -e "require(process.env.PKG)"'),
          check('tmp', 'touch /tmp/x'),
          'id -u > /pfs/out/uid',
        ],
        env: {
          DATA: server.dataDir,
          OTHER: holderDir,
          URL: url,
          PKG: path.join(projectRoot, 'package.json'),
        },
      },
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    const job = await lastJob(url, 'prober');
    await ok(url, 'pps_v2.API/StopJob', { job: holderJobs[0].job, reason: 'test over' });
    expect(job.state).toBe('JOB_SUCCESS');
    const files = await readAll(url, 'prober', job.job.id);
    const verdicts = Object.fromEntries(
      Object.entries(files)
        .filter(([name]) => name !== '/uid')
        .map(([name, text]) => [name.slice(1), text.trim()]),
    );
    expect(verdicts).toEqual({
      'data-dir': 'denied',
      'secret-key': 'denied',
      'other-job': 'denied',
      network: 'denied',
      'write-input': 'denied',
      'own-input': 'allowed',
      'project-code': 'allowed',
      tmp: 'allowed',
    });
    // An unprivileged uid: nobody when the server runs as root.
    const uid = Number(files['/uid']);
    expect(uid).not.toBe(0);
    if (process.getuid?.() === 0) expect(uid).toBe(65534);
  });

  it('hides the data folder when the server names it through a link', async () => {
    const target = await mkdtemp(path.join(scratch, 'ivory-sandbox-linked-'));
    await chmod(target, 0o755);
    const link = path.join(await mkdtemp(path.join(tmpdir(), 'ivory-link-')), 'data');
    await symlink(target, link);
    const linked = await startTestServer({ dataDir: link });
    try {
      await ok(linked.url, 'pfs_v2.API/CreateProject', { project: { name: 'default' } });
      await ok(linked.url, 'pfs_v2.API/CreateRepo', { repo: repo('in') });
      await commitFiles(linked.url, 'in', { '/a.txt': 'alpha' });
      await createPipeline(linked.url, {
        pipeline: pipeline('peek'),
        transform: {
          cmd: ['sh', '-c', check('data-dir', '[ -n "$(ls -A "$DATA")" ]')],
          env: { DATA: target },
        },
        input: { pfs: { repo: 'in', glob: '/' } },
      });
      const job = await lastJob(linked.url, 'peek');
      expect(job.state).toBe('JOB_SUCCESS');
      expect(await readAll(linked.url, 'peek', job.job.id)).toEqual({ '/data-dir': 'denied\n' });
    } finally {
      await linked.close();
      await rm(target, { recursive: true, force: true });
      await rm(path.dirname(link), { recursive: true, force: true });
    }
  });

  it('an output that links to a file outside /pfs fails the datum (its bytes never land)', async () => {
    await createPipeline(url, {
      pipeline: pipeline('linker'),
      transform: {
        cmd: ['sh', '-c', 'ln -s "$DATA/secret.key" /pfs/out/key; ln -s /pfs/in/a.txt /pfs/out/a'],
        env: { DATA: server.dataDir },
      },
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    const job = await lastJob(url, 'linker');
    expect(job.state).toBe('JOB_FAILURE');
    expect(job.reason).toMatch(/cannot read the outputs: output key is a link to outside \/pfs/);
  });

  it('kills what a datum leaves running when it ends (while its job runs on)', async () => {
    await commitFiles(url, 'in', { '/b.txt': 'beta' });
    const nap = `9.${process.pid}`;
    const sleepers = async () => {
      const found: string[] = [];
      for (const pid of await readdir('/proc')) {
        const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
        if (cmdline === `sleep\0${nap}\0`) found.push(pid);
      }
      return found;
    };
    // a.txt's datum leaves a sleep behind and ends; b.txt's keeps the job running for a while.
    await createPipeline(url, {
      pipeline: pipeline('leaver'),
      transform: {
        cmd: ['sh', '-c', `if [ -e /pfs/in/a.txt ]; then sleep ${nap} & else sleep 3; fi`],
      },
      parallelismSpec: { constant: 2 },
      input: { pfs: { repo: 'in', glob: '/*' } },
    });
    const [listed] = await results(url, 'pps_v2.API/ListJob', { pipeline: pipeline('leaver') });
    const datumOf = async (file: string) =>
      (await listDatums(url, listed.job)).find((d: Json) => d.data[0].file.path === file);
    await expect
      .poll(async () => (await datumOf('/a.txt'))?.state, { timeout: 10_000 })
      .toBe('SUCCESS');
    const running = await ok(url, 'pps_v2.API/InspectJob', { job: listed.job });
    expect(running.state).toBe('JOB_RUNNING');
    expect(await sleepers()).toEqual([]);
    expect((await lastJob(url, 'leaver')).state).toBe('JOB_SUCCESS');
  });

  it('each datum sees only its own inputs, however many ran in its slot before it', async () => {
    // Folders, nested files and empty files, over two inputs: the slots are emptied between
    // datums from what was put in them, not by listing them.
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('nest') });
    const nest: Record<string, string> = {};
    for (let i = 0; i < 24; i++) {
      if (i % 3 === 0) nest[`/d${i}/x/deep.txt`] = `deep ${i}`;
      else if (i % 3 === 1) nest[`/e${i}.txt`] = '';
      else nest[`/f${i}.txt`] = `file ${i}`;
    }
    await commitFiles(url, 'nest', nest);
    await ok(url, 'pfs_v2.API/CreateRepo', { repo: repo('side') });
    await commitFiles(url, 'side', { '/s1/one.txt': 'one', '/s2.txt': 'two' });
    await createPipeline(url, {
      pipeline: pipeline('lister'),
      transform: {
        cmd: [
          'sh',
          '-c',
          'n=$(ls /pfs/nest)-$(ls /pfs/side); (cd /pfs && find nest side | sort) > /pfs/out/$n',
        ],
      },
      input: {
        cross: [{ pfs: { repo: 'nest', glob: '/*' } }, { pfs: { repo: 'side', glob: '/*' } }],
      },
    });
    const job = await lastJob(url, 'lister');
    expect(job.state).toBe('JOB_SUCCESS');
    const files = await readAll(url, 'lister', job.job.id);
    const sides: Record<string, string[]> = {
      s1: ['side/s1', 'side/s1/one.txt'],
      's2.txt': ['side/s2.txt'],
    };
    const expected: Record<string, string> = {};
    for (const top of Object.keys(nest).map((p) => p.split('/')[1] as string))
      for (const [side, sideEntries] of Object.entries(sides)) {
        const nestEntries = top.startsWith('d')
          ? [`nest/${top}`, `nest/${top}/x`, `nest/${top}/x/deep.txt`]
          : [`nest/${top}`];
        expected[`/${top}-${side}`] =
          ['nest', ...nestEntries, 'side', ...sideEntries].sort().join('\n') + '\n';
      }
    expect(files).toEqual(expected);
  });

  it('a link to an input under /pfs becomes a copy of it', async () => {
    await createPipeline(url, {
      pipeline: pipeline('copier'),
      transform: { cmd: ['ln', '-s', '/pfs/in/a.txt', '/pfs/out/a'] },
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    const job = await lastJob(url, 'copier');
    expect(job.state).toBe('JOB_SUCCESS');
    expect(await readAll(url, 'copier', job.job.id)).toEqual({ '/a': 'alpha' });
  });
});

describe('the seeded demo', () => {
  it('runs its first jobs as first runs (Restarts 0, no "resuming")', async () => {
    const seeded = await startTestServer({ seed: true });
    try {
      const pipelines = await results(seeded.url, 'pps_v2.API/ListPipeline', {});
      expect(pipelines.length).toBeGreaterThan(0);
      for (const info of pipelines) {
        const job = await lastJob(seeded.url, info.pipeline.name);
        expect(job.state).toBe('JOB_SUCCESS');
        expect(job.restart ?? '0').toBe('0');
        const logs = await results(seeded.url, 'pps_v2.API/GetLogs', { job: job.job });
        expect(logs.map((l: Json) => l.message)).not.toContain(
          'the server restarted: resuming the job',
        );
      }
    } finally {
      await seeded.close();
    }
  });
});

describe('without bubblewrap', () => {
  const saved = process.env.IVORY_BWRAP;
  beforeAll(() => {
    process.env.IVORY_BWRAP = path.join(scratch, 'no-such-bwrap');
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.IVORY_BWRAP;
    else process.env.IVORY_BWRAP = saved;
  });

  it('with sign-in off, runs pipelines unsandboxed and says so in the job’s logs', async () => {
    await createPipeline(url, {
      pipeline: pipeline('bare'),
      transform: { cmd: ['sh', '-c', 'cp /pfs/in/a.txt /pfs/out/; echo "$PFS" > /pfs/out/pfs'] },
      input: { pfs: { repo: 'in', glob: '/' } },
    });
    const job = await lastJob(url, 'bare');
    expect(job.state).toBe('JOB_SUCCESS');
    const files = await readAll(url, 'bare', job.job.id);
    expect(files['/a.txt']).toBe('alpha');
    // No sandbox: /pfs is the slot's folder on the host (commands are rewritten to it).
    expect(files['/pfs']?.trim()).toMatch(/.+\/pfs$/);
    const logs = await results(url, 'pps_v2.API/GetLogs', { job: job.job });
    expect(logs.map((l: Json) => l.message)).toContainEqual(
      expect.stringMatching(
        /^warning: bubblewrap \(.*no-such-bwrap\) is not installed; .*unsandboxed/,
      ),
    );
  });

  it('with sign-in on, refuses to run pipelines', async () => {
    const { startOidcProvider } = await import('./helpers/oidc-provider.ts');
    const idp = await startOidcProvider({ consoleOrigin: 'http://127.0.0.1:9' });
    const signedIn = await startTestServer({
      seed: true,
      auth: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
    });
    try {
      const { store } = signedIn.server.platform.pps;
      await expect.poll(() => store.activeJobs().length, { timeout: 20_000 }).toBe(0);
      const jobs = store.listJobs({ projects: ['default'] });
      expect(jobs.length).toBeGreaterThan(0);
      for (const job of jobs) {
        expect(job.state).toBe('JOB_FAILURE');
        expect(job.reason).toMatch(/with sign-in on, pipeline code only runs in a sandbox/);
      }
      // Nothing ran: no job made a work folder.
      const work = path.join(signedIn.dataDir, 'work');
      const made = existsSync(work) ? await readdir(work) : [];
      expect(made.filter((name) => !name.startsWith('.'))).toEqual([]);
    } finally {
      await signedIn.close();
      await idp.stop();
    }
  });
});
