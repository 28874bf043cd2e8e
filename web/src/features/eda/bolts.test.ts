import { describe, expect, it } from 'vitest';
import type { JobState, RepoInfo } from '@ivory/api';
import { boltRepos, flowsOf, type JobSummary, type PipelineSummary } from './api.ts';
import { flowRuns } from './flow-runs.ts';

const repo = (name: string, type = 'user') =>
  ({ repo: { name, type, project: { name: 'eda' } }, description: '' }) as unknown as RepoInfo;

describe('boltRepos', () => {
  it('keeps user repos and drops pipeline output repos and spec/meta repos', () => {
    const repos = [
      repo('soc'),
      repo('lint'),
      repo('lint', 'spec'),
      repo('lint', 'meta'),
      repo('riscv-core'),
      repo('synth'),
      repo('legacy', ''),
    ];
    expect(boltRepos(repos, ['lint', 'synth']).map((info) => info.repo.name)).toEqual([
      'soc',
      'riscv-core',
      'legacy',
    ]);
  });

  it('drops the parameters repo of each flow (`<flow>-params`), where trials keep their parameters', () => {
    const repos = [repo('demo-rtl'), repo('yosys-params'), repo('other-params')];
    expect(boltRepos(repos, [], ['yosys']).map((info) => info.repo.name)).toEqual([
      'demo-rtl',
      'other-params',
    ]);
  });

  it('keeps every user repo when the project has no pipelines', () => {
    expect(boltRepos([repo('soc'), repo('cpu')], [])).toHaveLength(2);
  });
});

const pipeline = (name: string, stage: string) =>
  ({
    pipeline: { name },
    details: { metadata: { labels: { flow: 'synth', stage } } },
  }) as unknown as PipelineSummary;
const job = (id: string, name: string, state: JobState, created: string) =>
  ({
    job: { id, pipeline: { name } },
    state,
    created,
  }) as unknown as JobSummary;

describe('flowRuns', () => {
  const [flow] = flowsOf([pipeline('synth-run', '2-synth'), pipeline('lint-run', '1-lint')]);

  it('groups the stages jobs by global ID, newest first, stages in order', () => {
    const runs = flowRuns(flow!, [
      job('a', 'synth-run', 'JOB_SUCCESS', '2026-01-01T00:00:02Z'),
      job('a', 'lint-run', 'JOB_SUCCESS', '2026-01-01T00:00:01Z'),
      job('b', 'lint-run', 'JOB_RUNNING', '2026-01-02T00:00:00Z'),
      job('c', 'other', 'JOB_FAILURE', '2026-01-03T00:00:00Z'),
    ]);
    expect(runs.map((run) => [run.globalId, run.state])).toEqual([
      ['b', 'JOB_RUNNING'],
      ['a', 'JOB_SUCCESS'],
    ]);
    expect(runs[1]?.jobs.map((entry) => entry.stage)).toEqual(['1-lint', '2-synth']);
    expect(runs[1]?.created).toBe('2026-01-01T00:00:01Z');
  });

  it('a failed stage fails the run', () => {
    const runs = flowRuns(flow!, [
      job('a', 'lint-run', 'JOB_SUCCESS', '2026-01-01T00:00:01Z'),
      job('a', 'synth-run', 'JOB_FAILURE', '2026-01-01T00:00:02Z'),
    ]);
    expect(runs[0]?.state).toBe('JOB_FAILURE');
  });
});
