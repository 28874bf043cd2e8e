/** Links between the pipeline-side screens (spec section 2). */
const e = encodeURIComponent;

export type ViewBase = 'project' | 'lineage';

/** The tabs of the project's pipelines screen (`/project/:projectId/pipelines/:tabId?`). */
export const PIPELINES_TABS = [
  { id: 'list', label: 'Pipelines' },
  { id: 'jobs', label: 'Jobs' },
] as const;
export type PipelinesTab = (typeof PIPELINES_TABS)[number]['id'];

export function isPipelinesTab(tab: string): tab is PipelinesTab {
  return PIPELINES_TABS.some((t) => t.id === tab);
}

export const paths = {
  pipelines: (project: string, tab?: PipelinesTab) =>
    `/project/${e(project)}/pipelines${tab && tab !== 'list' ? `/${e(tab)}` : ''}`,
  jobs: (project: string) => `/project/${e(project)}/jobs`,
  subJobs: (project: string) => `/project/${e(project)}/jobs/subjobs`,
  secrets: (project: string) => `/project/${e(project)}/secrets`,
  defaults: (project: string) => `/project/${e(project)}/defaults`,
  lineage: (project: string) => `/lineage/${e(project)}`,
  lineageRepo: (project: string, repo: string) => `/lineage/${e(project)}/repos/${e(repo)}`,
  /** A repo's files at its newest commit (a pipeline's output repo has the pipeline's name). */
  repoFiles: (project: string, repo: string, base: ViewBase = 'project') =>
    `/${base}/${e(project)}/repos/${e(repo)}/latest`,
  lineagePipeline: (project: string, pipeline: string, tab?: string) =>
    `/lineage/${e(project)}/pipelines/${e(pipeline)}${tab ? `/${e(tab)}` : ''}`,
  pipelineLogs: (project: string, pipeline: string, base: ViewBase = 'project') =>
    `/${base}/${e(project)}/logs/pipelines/${e(pipeline)}/logs`,
  jobLogs: (
    project: string,
    pipeline: string,
    jobId: string,
    datumId?: string,
    base: ViewBase = 'project',
  ) =>
    `/${base}/${e(project)}/pipelines/${e(pipeline)}/jobs/${e(jobId)}/logs${
      datumId ? `/datum/${e(datumId)}` : ''
    }`,
  editor: (project: string, mode: 'create' | 'update' | 'duplicate', pipeline?: string) =>
    `/lineage/${e(project)}/${mode}/pipeline${pipeline ? `/${e(pipeline)}` : ''}`,
};
