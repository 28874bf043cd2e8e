import { describe, expect, it } from 'vitest';
import { commitFiles, getFile, ok, repo, results, type Json } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { uploadClient } from './helpers/upload-client.ts';
import { createPipeline, pipeline } from './helpers/pps.ts';

// A flow that carries its design: its first stage reads only its params repo, where each trial's
// commit holds the bolt's files under /bolt. A commit to the bolt starts one trial per case (no
// EDA planner for this flow: every case), each running that commit's files; a trial's stages
// say what became of each (a stage's /stage.json may say NOT_RUN), and a failed one quotes the
// first error line of its log.

const { url } = useTestServer({ projects: ['default'], repos: ['chip', 'loop-params'] });
const { postJson, sendChunk } = uploadClient(url);

// Stage 1 copies the design and fails, quoting a file and line, when it holds "broken".
const read = [
  'set -e',
  'cp -r /pfs/loop-params/bolt/. /pfs/out/',
  'echo "{\\"lines\\": $(cat /pfs/loop-params/bolt/design.v | wc -l)}" > /pfs/out/metrics.json',
  'echo "reading design.v"',
  'if grep -q broken /pfs/loop-params/bolt/design.v; then echo "design.v:2: ERROR: broken line" >&2; exit 1; fi',
].join('\n');
// Stage 2 says it could not run when the design asks for a missing tool.
const check = [
  'if grep -q needs-tool /pfs/loop-read/design.v; then',
  '  echo \'{"state": "NOT_RUN", "reason": "checker is not installed"}\' > /pfs/out/stage.json',
  'else',
  '  echo \'{"state": "SUCCESS", "reports": [{"label": "Check report", "path": "/check.txt"}]}\' > /pfs/out/stage.json',
  '  echo ok > /pfs/out/check.txt; echo \'{"checked": 1}\' > /pfs/out/metrics.json',
  'fi',
].join('\n');

async function setUpFlow() {
  if ((await results(url(), 'pps_v2.API/ListPipeline', {})).length > 0) return;
  await commitFiles(url(), 'chip', { '/design.v': 'module m;\nendmodule\n' });
  for (const name of ['one', 'two']) {
    await ok(url(), 'pfs_v2.API/CreateBranch', {
      branch: { repo: repo('chip'), name },
      head: { repo: repo('chip'), branch: { repo: repo('chip'), name: 'master' } },
    });
    await ok(url(), 'metadata.API/EditMetadata', {
      edits: [
        {
          branch: {
            name: {
              repo: { name: { project: { name: 'default' }, name: 'chip', type: 'user' } },
              name,
            },
          },
          replace: { replacement: { case: name, flow: 'loop' } },
        },
      ],
    });
  }
  await createPipeline(url(), {
    pipeline: pipeline('loop-read'),
    metadata: { labels: { flow: 'loop', stage: '1-read', bolt: 'chip', 'param.size': '4' } },
    transform: { cmd: ['sh', '-c', read] },
    datumTries: 1,
    input: { pfs: { repo: 'loop-params', glob: '/' } },
  });
  await createPipeline(url(), {
    pipeline: pipeline('loop-check'),
    metadata: { labels: { flow: 'loop', stage: '2-check', bolt: 'chip' } },
    transform: { cmd: ['sh', '-c', check] },
    datumTries: 1,
    input: { pfs: { repo: 'loop-read', glob: '/' } },
  });
}

async function trialsOf(commitId: string, count: number): Promise<Json[]> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const trials = await results(url(), 'omni_v1.API/ListTrial', {
      project: { name: 'default' },
      flow: 'loop',
      filters: [{ field: 'label.commit', operator: 'EQ', value: commitId }],
    });
    if (trials.length >= count && trials.every((t: Json) => t.finished)) return trials;
    if (Date.now() > deadline) throw new Error(`trials of ${commitId}: ${JSON.stringify(trials)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const byCase = (trials: Json[], name: string) => trials.find((t) => t.case === name) as Json;

describe('a commit to a flow’s bolt', () => {
  it('starts one trial per case, each running the committed design', async () => {
    await setUpFlow();
    const commitId = await commitFiles(url(), 'chip', {
      '/design.v': 'module m;\n  wire a;\nendmodule\n',
    });
    const trials = await trialsOf(commitId, 2);
    expect(trials.map((t) => t.case).sort()).toEqual(['one', 'two']);
    for (const trial of trials) {
      expect(trial.state, trial.reason).toBe('STARTED');
      expect(trial.labels).toEqual({ trigger: 'bolt', bolt: 'chip', commit: commitId });
      expect(trial.parameters).toEqual({ size: '4' });
      expect(trial.metrics.find((m: Json) => m.name === 'lines').value).toBe(3);
      // The params commit holds the design it ran.
      const design = await getFile(url(), 'loop-params', trial.jobSetId, '/bolt/design.v');
      expect(design.toString()).toContain('wire a;');
      expect(trial.stages.map((s: Json) => [s.name, s.state])).toEqual([
        ['1-read', 'SUCCESS'],
        ['2-check', 'SUCCESS'],
      ]);
      expect(trial.stages[1].reports).toEqual([{ label: 'Check report', path: '/check.txt' }]);
    }
    // The cases now benchmark that commit.
    const branches = await results(url(), 'pfs_v2.API/ListBranch', { repo: repo('chip') });
    for (const name of ['one', 'two'])
      expect(branches.find((b: Json) => b.branch.name === name).head.id).toBe(commitId);
  });

  it('reads Failed with the first error line of the failed stage; the stages after it unrunnable', async () => {
    await setUpFlow();
    const commitId = await commitFiles(url(), 'chip', { '/design.v': 'module m;\n  broken\n' });
    const trial = byCase(await trialsOf(commitId, 2), 'one');
    expect(trial.state).toBe('UNRUNNABLE');
    expect(trial.jobState).toBe('JOB_FAILURE');
    expect(trial.reason).toBe('stage 1-read failed: design.v:2: ERROR: broken line');
    const [first, second] = trial.stages;
    expect(first).toMatchObject({
      state: 'FAILED',
      errorLine: 'design.v:2: ERROR: broken line',
      jobId: trial.jobSetId,
    });
    // The datum named is the one whose log holds the line.
    const logs = await results(url(), 'pps_v2.API/GetLogs', {
      job: { pipeline: pipeline('loop-read'), id: trial.jobSetId },
      datum: { job: { pipeline: pipeline('loop-read'), id: trial.jobSetId }, id: first.datumId },
    });
    expect(logs.map((l: Json) => l.message)).toContain('design.v:2: ERROR: broken line');
    expect(second).toMatchObject({
      state: 'UNRUNNABLE',
      reason: 'unrunnable because the following upstream pipelines failed: loop-read',
    });
  });

  it('shows a stage that could not run as not run, with its reason, in a finished trial', async () => {
    await setUpFlow();
    const commitId = await commitFiles(url(), 'chip', {
      '/design.v': 'module m; // needs-tool\nendmodule\n',
    });
    const trial = byCase(await trialsOf(commitId, 2), 'two');
    expect(trial.state).toBe('STARTED');
    expect(trial.finished).not.toBeNull();
    expect(trial.stages[1]).toMatchObject({ state: 'NOT_RUN', reason: 'checker is not installed' });
    expect(trial.reason).toBe('2-check not run: checker is not installed');
  });

  it('reruns a trial with the design it ran, whatever the bolt holds since', async () => {
    await setUpFlow();
    const first = await commitFiles(url(), 'chip', {
      '/design.v': 'module m;\n  wire first;\nendmodule\n',
    });
    const original = byCase(await trialsOf(first, 2), 'one');
    await trialsOf(await commitFiles(url(), 'chip', { '/design.v': 'module m;\nendmodule\n' }), 2);
    const rerun = await ok(url(), 'omni_v1.API/RerunTrial', { trial: { id: original.id } });
    const design = await getFile(url(), 'loop-params', rerun.jobSetId, '/bolt/design.v');
    expect(design.toString()).toContain('wire first;');
    // A trial made by hand runs its case's snapshot (the last commit).
    const made = await ok(url(), 'omni_v1.API/CreateTrial', {
      project: 'default',
      flow: 'loop',
      case: 'two',
    });
    const snapshot = await getFile(url(), 'loop-params', made.jobSetId, '/bolt/design.v');
    expect(snapshot.toString()).not.toContain('wire first;');
  });

  it('answers an upload’s finish with the trials its commit started', async () => {
    await setUpFlow();
    const started = await postJson('/upload/start', {
      path: '/',
      repo: 'chip',
      projectId: 'default',
      description: 'through the modal',
    });
    const uploadId = started.body.uploadId as string;
    await sendChunk(uploadId, 'design.v', 1, 0, Buffer.from('module m;\n  wire up;\nendmodule\n'));
    const finished = await postJson('/upload/finish', { uploadId, description: '' });
    expect(finished.status).toBe(200);
    expect(finished.body.trials.map((t: Json) => [t.flow, t.case]).sort()).toEqual([
      ['loop', 'one'],
      ['loop', 'two'],
    ]);
    const trials = await trialsOf(finished.body.commitId, 2);
    expect(trials.map((t) => t.id).sort()).toEqual(
      finished.body.trials.map((t: Json) => t.id).sort(),
    );
    expect(trials[0].description).toBe('chip changed: through the modal');
  });
});
