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
  commit: (project: string, repo: string, commitId: string) =>
    ['repos', project, repo, 'commit', commitId] as const,
  fileInfo: (project: string, repo: string, commitId: string, path: string) =>
    ['repos', project, repo, 'commit', commitId, 'fileInfo', path] as const,
  files: (project: string, repo: string, commitId: string, path: string) =>
    ['repos', project, repo, 'commit', commitId, 'files', path] as const,
  fileText: (url: string) => ['fileText', url] as const,
};

export const COMMIT_CONTENT_STALE_TIME_MS = 60_000;
