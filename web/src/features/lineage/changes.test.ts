import { describe, expect, it } from 'vitest';
import type { JobInfo, PipelineInfo } from '@ivory/api';
import {
  mergePipelines,
  newChangeMemory,
  planChanges,
  recentChanges,
  summarySignature,
} from './changes.ts';

const pipeline = (name: string, lastJobState: string, state = 'PIPELINE_STANDBY', version = '1') =>
  ({
    pipeline: { name, project: { name: 'p' } },
    version,
    state,
    lastJobState,
    stopped: false,
  }) as PipelineInfo;

const job = (name: string, id: string, state: string, pipelineVersion = '1') =>
  ({ job: { id, pipeline: { name, project: { name: 'p' } } }, state, pipelineVersion }) as JobInfo;

describe('planChanges', () => {
  const list = [pipeline('a', 'JOB_SUCCESS'), pipeline('b', 'JOB_SUCCESS')];

  it('asks for nothing while the newest jobs agree with the list', () => {
    const memory = newChangeMemory();
    const probe = {
      summary: 's',
      jobs: [job('a', 'a2', 'JOB_SUCCESS'), job('b', 'b1', 'JOB_SUCCESS')],
    };
    expect(planChanges(list, probe, memory)).toEqual({ kind: 'none' });
    expect(planChanges(list, probe, memory)).toEqual({ kind: 'none' });
  });

  it('inspects only the pipelines whose newest job moved on, once per job state', () => {
    const memory = newChangeMemory();
    planChanges(list, { summary: 's', jobs: [job('a', 'a1', 'JOB_SUCCESS')] }, memory);
    const probe = {
      summary: 's',
      // An older job of `a` further down the page does not count: the newest one does.
      jobs: [
        job('a', 'a2', 'JOB_RUNNING'),
        job('b', 'b1', 'JOB_SUCCESS'),
        job('a', 'a1', 'JOB_SUCCESS'),
      ],
    };
    expect(planChanges(list, probe, memory)).toEqual({ kind: 'inspect', pipelines: ['a'] });
    // The same job in the same state is not inspected again, even if the list still lags.
    expect(planChanges(list, probe, memory)).toEqual({ kind: 'none' });
  });

  it('inspects a pipeline whose job runs a newer version than the list holds', () => {
    const probe = { summary: 's', jobs: [job('b', 'b2', 'JOB_SUCCESS', '2')] };
    expect(planChanges(list, probe, newChangeMemory())).toEqual({
      kind: 'inspect',
      pipelines: ['b'],
    });
  });

  it('lists everything again for a job of an unknown pipeline or a changed summary', () => {
    expect(
      planChanges(list, { summary: 's', jobs: [job('c', 'c1', 'JOB_CREATED')] }, newChangeMemory()),
    ).toEqual({ kind: 'full' });
    const memory = newChangeMemory();
    expect(planChanges(list, { summary: 'one paused', jobs: [] }, memory)).toEqual({
      kind: 'none',
    });
    expect(planChanges(list, { summary: 'two paused', jobs: [] }, memory)).toEqual({
      kind: 'full',
    });
  });
});

describe('recentChanges', () => {
  const list = [
    pipeline('a', 'JOB_SUCCESS', 'PIPELINE_PAUSED'),
    pipeline('b', 'JOB_SUCCESS'),
    pipeline('c', 'JOB_SUCCESS'),
  ];

  it('takes a paused pipeline updated elsewhere (new version, no job) as read', () => {
    const updated = pipeline('a', 'JOB_SUCCESS', 'PIPELINE_PAUSED', '2');
    expect(recentChanges(list, [updated, pipeline('b', 'JOB_SUCCESS')], 2)).toEqual({
      kind: 'fresh',
      pipelines: [updated],
    });
  });

  it('sees pipelines started or paused, but not running and standby taking turns', () => {
    const started = pipeline('a', 'JOB_SUCCESS', 'PIPELINE_RUNNING');
    expect(recentChanges(list, [started], 4)).toEqual({ kind: 'fresh', pipelines: [started] });
    expect(recentChanges(list, [pipeline('b', 'JOB_SUCCESS', 'PIPELINE_RUNNING')], 4)).toEqual({
      kind: 'fresh',
      pipelines: [],
    });
  });

  it('lists everything again for an unknown pipeline or a page changed throughout', () => {
    expect(recentChanges(list, [pipeline('d', 'JOB_SUCCESS')], 4)).toEqual({ kind: 'full' });
    const page = [
      pipeline('b', 'JOB_SUCCESS', 'PIPELINE_PAUSED'),
      pipeline('c', 'JOB_SUCCESS', 'PIPELINE_STANDBY', '3'),
    ];
    expect(recentChanges(list, page, 2)).toEqual({ kind: 'full' });
    // A short page (the project has fewer pipelines than the page holds) is read as it is.
    expect(recentChanges(list, page, 4)).toEqual({ kind: 'fresh', pipelines: page });
  });
});

describe('mergePipelines', () => {
  it('replaces pipelines by name and keeps the order', () => {
    const merged = mergePipelines(
      [pipeline('a', 'JOB_SUCCESS'), pipeline('b', 'JOB_SUCCESS')],
      [pipeline('b', 'JOB_FAILURE')],
    );
    expect(merged.map((p) => `${p.pipeline.name}:${p.lastJobState}`)).toEqual([
      'a:JOB_SUCCESS',
      'b:JOB_FAILURE',
    ]);
  });
});

describe('summarySignature', () => {
  const summary = (active: number, paused: number, failed: number, unhealthy: number) => ({
    project: { name: 'p' },
    activePipelines: String(active),
    pausedPipelines: String(paused),
    failedPipelines: String(failed),
    unhealthyPipelines: String(unhealthy),
  });

  it('ignores what jobs explain (unhealthy) and sees pipelines come, go, pause or fail', () => {
    const base = summarySignature([summary(3, 1, 0, 0)]);
    expect(summarySignature([summary(3, 1, 0, 2)])).toBe(base);
    expect(summarySignature([summary(4, 1, 0, 0)])).not.toBe(base);
    expect(summarySignature([summary(2, 2, 0, 0)])).not.toBe(base);
    expect(summarySignature([summary(2, 1, 1, 0)])).not.toBe(base);
  });
});
