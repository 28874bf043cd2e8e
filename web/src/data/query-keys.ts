/**
 * The one query-key factory of the app. Keys nest from general to specific so that
 * invalidating a prefix (e.g. `queryKeys.repos(project)`) covers everything below it.
 *
 * Stale-time rules: listings that change as users work (projects, repos, branches, commits)
 * use the default (stale at once, refetched on mount). Folder listings and file contents are
 * addressed by commit id and change only while that commit is open, so they stay fresh for a
 * minute: returning to a 100,000-entry folder does not refetch every loaded page.
 */
export const queryKeys = {
  projects: () => ['projects'] as const,
  reposSummary: (projects: readonly string[]) => ['projects', 'reposSummary', ...projects] as const,
  repos: (project: string) => ['repos', project] as const,
  repo: (project: string, repo: string) => ['repos', project, repo] as const,
  branches: (project: string, repo: string) => ['repos', project, repo, 'branches'] as const,
  commits: (project: string, repo: string, branch: string) =>
    ['repos', project, repo, 'commits', branch] as const,
  recentCommits: (project: string, repo: string, number: number) =>
    ['repos', project, repo, 'recentCommits', number] as const,
  commit: (project: string, repo: string, commitId: string) =>
    ['repos', project, repo, 'commit', commitId] as const,
  fileInfo: (project: string, repo: string, commitId: string, path: string) =>
    ['repos', project, repo, 'commit', commitId, 'fileInfo', path] as const,
  files: (project: string, repo: string, commitId: string, path: string) =>
    ['repos', project, repo, 'commit', commitId, 'files', path] as const,
  fileText: (url: string) => ['fileText', url] as const,
  filePreview: (url: string, renderer: string) => ['filePreview', renderer, url] as const,
  filePrefix: (url: string, bytes: number) => ['filePrefix', url, bytes] as const,
  fileRange: (url: string, start: number, end: number) => ['fileRange', url, start, end] as const,
  fileHead: (url: string, chunkBytes: number) => ['fileHead', url, chunkBytes] as const,
  /** A preview renderer's code (its chunk), not data: loaded once per page. */
  previewRenderer: (renderer: string) => ['previewRenderer', renderer] as const,
  pipelinesSummary: (projects: readonly string[]) =>
    ['projects', 'pipelinesSummary', ...projects] as const,
  project: (project: string) => ['projects', project] as const,
  glob: (project: string, repo: string, commitId: string, pattern: string) =>
    ['repos', project, repo, 'commit', commitId, 'glob', pattern] as const,
  fileHistory: (project: string, repo: string, commitId: string, path: string) =>
    ['repos', project, repo, 'commit', commitId, 'history', path] as const,
  textPair: (oldUrl: string, newUrl: string) => ['textPair', oldUrl, newUrl] as const,
  diff: (project: string, repo: string, commitId: string, otherId: string) =>
    ['repos', project, repo, 'commit', commitId, 'diff', otherId] as const,
  // Pipelines, jobs, datums and logs (pps). Small queries here poll every few seconds
  // (PPS_POLL_MS) for live state; finished datums and logs are addressed by job and stay fresh.
  pipelines: (project: string) => ['pps', project, 'pipelines'] as const,
  pipeline: (project: string, pipeline: string) => ['pps', project, 'pipelines', pipeline] as const,
  pipelineVersions: (project: string, pipeline: string) =>
    ['pps', project, 'pipelines', pipeline, 'versions'] as const,
  jobs: (project: string) => ['pps', project, 'jobs'] as const,
  pipelineJobs: (project: string, pipeline: string) =>
    ['pps', project, 'jobs', 'pipeline', pipeline] as const,
  jobSets: (project: string) => ['pps', project, 'jobs', 'sets'] as const,
  job: (project: string, pipeline: string, jobId: string) =>
    ['pps', project, 'jobs', 'pipeline', pipeline, jobId] as const,
  jobSet: (jobSetId: string) => ['pps', 'jobSet', jobSetId] as const,
  commitSet: (commitSetId: string) => ['pps', 'commitSet', commitSetId] as const,
  /** The datums a pipeline input would make (the editor's preview), by the input's JSON. */
  datumPreview: (inputJson: string) => ['pps', 'datumPreview', inputJson] as const,
  datums: (project: string, pipeline: string, jobId: string) =>
    ['pps', project, 'jobs', 'pipeline', pipeline, jobId, 'datums'] as const,
  datum: (project: string, pipeline: string, jobId: string, datumId: string) =>
    ['pps', project, 'jobs', 'pipeline', pipeline, jobId, 'datums', datumId] as const,
  secrets: () => ['secrets'] as const,
  projectDefaults: (project: string) => ['defaults', 'project', project] as const,
  clusterDefaults: () => ['defaults', 'cluster'] as const,
  pipelineSpecSchema: () => ['pipelineSpecSchema'] as const,
  lineageRepos: (project: string) => ['repos', project, 'lineage'] as const,
  // Trials (omni_v1). Unfinished trials poll every TRIALS_POLL_MS until `finished` is set.
  trials: (project: string) => ['trials', project] as const,
  trialList: (project: string, query: unknown) => ['trials', project, 'list', query] as const,
  trialCount: (project: string, query: unknown) => ['trials', project, 'count', query] as const,
  trial: (project: string, id: string) => ['trials', project, 'trial', id] as const,
  trialFlows: (project: string) => ['trials', project, 'flows'] as const,
  flowPlugin: (project: string, flow: string) => ['trials', project, 'flowPlugin', flow] as const,
  // Roles (auth_v2): the caller's Authorize answers and each resource's role binding.
  authorize: (type: string, name: string, permissions: readonly string[]) =>
    ['auth', 'authorize', type, name, ...permissions] as const,
  roleBinding: (type: string, name: string) => ['auth', 'roleBinding', type, name] as const,
};

export const COMMIT_CONTENT_STALE_TIME_MS = 60_000;
/** Poll interval of the small pps queries (pipeline, job, datum states) for live updates. */
export const PPS_POLL_MS = 3_000;
/** Poll interval of trials that have not finished yet. */
export const TRIALS_POLL_MS = 2_000;
