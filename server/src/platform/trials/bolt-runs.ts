import type { PfsStore } from '../pfs/pfs-store.ts';
import type { JobRow } from '../pps/pps-store.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { readBlob, type Flows } from './flows.ts';
import type { NewTrial } from './trial-store.ts';

/**
 * A new commit on the master branch of a flow's bolt (its `bolt` label) starts the flow's stages
 * again with the parameters of the flow's last trial (the head of its params repo): that run is
 * recorded as a trial of its own, so a changed RTL upload shows up in the trials table.
 * Returns the trial to insert for `job`'s job set, or null when the job is not such a run.
 */
export async function boltRunTrial(
  pfs: PfsStore,
  blobs: BlobStore,
  flows: Flows,
  job: JobRow,
): Promise<NewTrial | null> {
  const flowName = flows.flowOfPipeline(job.project, job.pipeline);
  if (!flowName) return null;
  const flow = flows.find(job.project, flowName);
  if (!flow.bolt) return null;
  const bolt = pfs.findRepo({ project: flow.project, name: flow.bolt, type: 'user' });
  const commit = bolt && pfs.findCommit(bolt, job.id);
  if (!commit || commit.branch_name !== 'master') return null;
  // Only runs that reach a stage of the trial (one reading the params repo, or downstream).
  if (!flows.runStages(flow).some((stage) => stage.pipeline === job.pipeline)) return null;
  const paramsRepo = pfs.findRepo({ project: flow.project, name: flow.paramsRepo, type: 'user' });
  const branch = paramsRepo && pfs.findBranch(paramsRepo, 'master');
  if (!branch?.head_rowid) return null;
  const head = pfs.commitByRowid(branch.head_rowid);
  const read = async (path: string): Promise<Record<string, unknown>> => {
    const file = pfs.findFile(head, path);
    if (!file || file.type !== 'FILE') return {};
    try {
      const parsed: unknown = JSON.parse((await readBlob(blobs, file.hash)).toString('utf8'));
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };
  const parameters = Object.fromEntries(
    Object.entries(await read('/params.json')).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
  const last = await read('/trial.json');
  return {
    project: flow.project,
    flow: flow.name,
    caseName: typeof last.case === 'string' ? last.case : '',
    state: 'PENDING',
    author: '',
    description: `${flow.bolt} changed: ${commit.description || `commit ${commit.id}`}`,
    jobSetId: job.id,
    rerunOf: '',
    parameters,
    labels: { trigger: 'bolt', bolt: flow.bolt, commit: commit.id },
  };
}
