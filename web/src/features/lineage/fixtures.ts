import type { CronInput, PFSInput, PipelineInfo, RepoInfo } from '@ivory/api';

/** A pipeline input with only the fields a test sets (the graph reads no others). */
export interface InputSpec {
  pfs?: Partial<PFSInput>;
  cron?: Partial<CronInput>;
  join?: InputSpec[];
  group?: InputSpec[];
  cross?: InputSpec[];
  union?: InputSpec[];
}

export function repoInfo(name: string, project = 'default'): RepoInfo {
  return {
    repo: { name, type: 'user', project: { name: project } },
    created: null,
    sizeBytesUpperBound: '0',
    description: '',
    branches: [],
    authInfo: null,
    details: null,
    metadata: {},
  };
}

export function pipelineInfo(
  name: string,
  input: InputSpec,
  extra: Partial<PipelineInfo> = {},
  project = 'default',
): PipelineInfo {
  return {
    pipeline: { name, project: { name: project } },
    version: '1',
    specCommit: null,
    stopped: false,
    state: 'PIPELINE_STANDBY',
    reason: '',
    lastJobState: 'JOB_SUCCESS',
    parallelism: '1',
    type: 'PIPELINE_TYPE_TRANSFORM',
    authToken: '',
    details: { input } as unknown as PipelineInfo['details'],
    userSpecJson: '{}',
    effectiveSpecJson: '{}',
    metadata: {},
    ...extra,
  };
}

/** samples → row-counts → summary, plus a cron pipeline, a cross-project input and a lone repo. */
export const demoPipelines = [
  pipelineInfo('row-counts', { pfs: { repo: 'samples', glob: '/data/*' } }),
  pipelineInfo('summary', {
    cross: [
      { pfs: { repo: 'row-counts', glob: '/' } },
      { pfs: { repo: 'labels', project: 'shared', glob: '/' } },
    ],
  }),
  pipelineInfo('nightly', { cron: { name: 'tick', spec: '@daily' } }),
];

export const demoRepos = [
  repoInfo('samples'),
  repoInfo('row-counts'),
  repoInfo('summary'),
  repoInfo('nightly'),
  repoInfo('nightly_tick'),
  repoInfo('scratch'),
];
