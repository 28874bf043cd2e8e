import type { pps_v2 } from '@ivory/api/proto';
import { invalidArgument } from '../../errors.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import { defaultProject } from '../pfs/pfs-requests.ts';
import { planDatums, type InputCommits, type PlannedDatum } from './datums.ts';
import { inputCommitKey, inputLeaves, readInputSpec } from './spec.ts';

/**
 * The datums an input would make now (ListDatum's dry run, the pipeline editor's preview): each
 * pfs input reads its branch's head (`master` unless named; its `commit` is ignored, as pachd
 * ignores it). A cron input has no datums before its pipeline exists: refused, as pachd does.
 */
export function plannedDatums(pfs: PfsStore, input: pps_v2.Input): PlannedDatum[] {
  const spec = readInputSpec(input, defaultProject);
  const commits: InputCommits = new Map();
  for (const leaf of inputLeaves(spec)) {
    if (leaf.kind === 'cron')
      throw invalidArgument(
        "can't list datums with a cron input, there will be no datums until the pipeline is created",
      );
    const repo = pfs.getRepo({ project: leaf.project, name: leaf.repo, type: 'user' });
    commits.set(inputCommitKey(spec, leaf), pfs.resolveCommit(repo, '', leaf.branch));
  }
  return planDatums(pfs, spec, commits);
}
