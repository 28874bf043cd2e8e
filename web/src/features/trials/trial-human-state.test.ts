import { describe, expect, it } from 'vitest';
import { trialHumanState } from './trial-view.ts';

const at = '2026-11-25T10:00:00Z';

describe('a trial state for people', () => {
  it.each([
    [{ state: 'PENDING', jobState: '', finished: null }, 'Pending'],
    [{ state: 'STARTED', jobState: 'JOB_RUNNING', finished: null }, 'Running'],
    [{ state: 'STARTED', jobState: 'JOB_SUCCESS', finished: at }, 'Succeeded'],
    [{ state: 'STARTED', jobState: 'JOB_FAILURE', finished: null }, 'Failed'],
    [{ state: 'UNRUNNABLE', jobState: '', finished: at }, 'Failed'],
    [{ state: 'SKIPPED', jobState: '', finished: at }, 'Skipped'],
    [{ state: 'DELETED', jobState: 'JOB_SUCCESS', finished: at }, 'Deleted'],
  ] as const)('%o reads %s', (trial, expected) => {
    expect(trialHumanState(trial as Parameters<typeof trialHumanState>[0])).toBe(expected);
  });
});
