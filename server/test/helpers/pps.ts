/** Helpers for pipeline (pps) tests. */
import { commitId, getFile, ok, results, type Json } from './api-client.ts';

export const pipeline = (name: string, project = 'default') => ({
  name,
  project: { name: project },
});

/** CreatePipelineV2 with a spec object; returns the effective spec. */
export async function createPipeline(url: string, spec: Json, options: Json = {}): Promise<Json> {
  const response = await ok(url, 'pps_v2.API/CreatePipelineV2', {
    createPipelineRequestJson: JSON.stringify(spec),
    ...options,
  });
  return JSON.parse(response.effectiveCreatePipelineRequestJson as string);
}

/** Waits until the pipeline has a job with this ID and it is terminal; returns its JobInfo. */
export async function waitJob(
  url: string,
  pipelineName: string,
  id: string,
  timeoutMs = 30_000,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const jobs = await results(url, 'pps_v2.API/ListJob', {
      pipeline: pipeline(pipelineName),
      history: -1,
    });
    const job = jobs.find((j: Json) => j.job.id === id);
    if (job)
      return ok(url, 'pps_v2.API/InspectJob', {
        job: { pipeline: pipeline(pipelineName), id },
        wait: true,
      });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no job ${id} in pipeline ${pipelineName}`);
}

/** The newest job of a pipeline, waited until terminal. */
export async function lastJob(url: string, pipelineName: string): Promise<Json> {
  const jobs = await results(url, 'pps_v2.API/ListJob', {
    pipeline: pipeline(pipelineName),
    history: -1,
  });
  if (jobs.length === 0) throw new Error(`pipeline ${pipelineName} has no jobs`);
  return ok(url, 'pps_v2.API/InspectJob', { job: jobs[0].job, wait: true });
}

export async function listDatums(url: string, job: Json): Promise<Json[]> {
  return results(url, 'pps_v2.API/ListDatum', { job });
}

/** Every file of a commit: path → text. */
export async function readAll(
  url: string,
  repoName: string,
  commitRef: string,
): Promise<Record<string, string>> {
  const files = await results(url, 'pfs_v2.API/WalkFile', {
    file: { commit: commitId(repoName, commitRef), path: '/' },
  });
  const out: Record<string, string> = {};
  for (const file of files.filter((f: Json) => f.fileType === 'FILE'))
    out[file.file.path] = (await getFile(url, repoName, commitRef, file.file.path)).toString();
  return out;
}
