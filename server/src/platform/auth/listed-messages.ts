import {
  DEFAULT_PROJECT,
  projectName,
  projectsIn,
  reposIn,
  type RepoRef,
} from './request-resources.ts';

/** What a listing may show a caller: whether a repo (or a pipeline's jobs) may be read. */
export interface ListingRights {
  canRead(ref: RepoRef): boolean;
  canListJobs(ref: RepoRef): boolean;
  canSeeProject(project: string): boolean;
}

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};

/** The repo of a RepoInfo (its `repo`: `{name, project: {name}}`), read without a walk. */
export function repoOfInfo(info: unknown): RepoRef | undefined {
  const repo = asObject(asObject(info).repo);
  if (typeof repo.name !== 'string' || !repo.name) return undefined;
  return { project: projectName(repo.project) || DEFAULT_PROJECT, repo: repo.name };
}

/** The repo of a CommitInfo (its commit's), or of a commit. */
const commitRepo = (info: unknown): RepoRef | undefined =>
  reposIn({ repo: asObject(asObject(info).commit).repo })[0];

/** The pipeline (its output repo) of a JobInfo. */
const jobPipeline = (info: unknown): RepoRef | undefined =>
  reposIn({ pipeline: asObject(asObject(info).job).pipeline })[0];

/**
 * A listed method's message as the caller may see it, or null to leave it out. A commit set
 * (or a job set) spans repos of any project: it keeps only the commits (jobs) of repos the
 * caller may read, and is left out when none is left. A message about one thing — a repo, a
 * pipeline, a project, a commit, a job — is kept when the caller may read that thing.
 */
export function listedView(method: string, message: unknown, rights: ListingRights): unknown {
  const body = asObject(message);
  switch (method) {
    case 'pfs_v2.API/ListRepo': {
      const ref = repoOfInfo(message);
      return ref && rights.canRead(ref) ? message : null;
    }
    case 'pfs_v2.API/ListCommitSet': {
      const commits = (Array.isArray(body.commits) ? body.commits : []).filter((info) => {
        const ref = commitRepo(info);
        return ref !== undefined && rights.canRead(ref);
      });
      return commits.length > 0 ? { ...body, commits } : null;
    }
    case 'pfs_v2.API/InspectCommitSet': {
      const ref = commitRepo(message);
      return ref && rights.canRead(ref) ? message : null;
    }
    case 'pps_v2.API/ListJobSet': {
      const jobs = (Array.isArray(body.jobs) ? body.jobs : []).filter((info) => {
        const ref = jobPipeline(info);
        return ref !== undefined && rights.canListJobs(ref);
      });
      return jobs.length > 0 ? { ...body, jobs } : null;
    }
    case 'pps_v2.API/InspectJobSet':
    case 'pps_v2.API/ListJob': {
      const ref = jobPipeline(message);
      return ref && rights.canListJobs(ref) ? message : null;
    }
  }
  const [repo] = reposIn(message);
  if (repo) return rights.canRead(repo) ? message : null;
  const [project] = projectsIn(message);
  if (project) return rights.canSeeProject(project) ? message : null;
  return message;
}
