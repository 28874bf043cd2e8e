import type { Trial } from '@ivory/api';

/** A finished trial of flow `demo`, with the given fields replaced. */
export function trialFixture(id: string, patch: Partial<Trial> = {}): Trial {
  return {
    id,
    project: { name: 'default' },
    flow: 'demo',
    case: '',
    state: 'STARTED',
    jobState: 'JOB_SUCCESS',
    reason: '',
    author: '',
    description: '',
    parameters: {},
    labels: {},
    metrics: [],
    jobSetId: '',
    rerunOf: '',
    created: '2025-01-01T00:00:00Z',
    started: null,
    finished: '2025-01-01T00:01:00Z',
    deleted: null,
    stages: [],
    ...patch,
  };
}
