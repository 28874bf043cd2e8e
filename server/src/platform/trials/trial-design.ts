import type { PfsStore } from '../pfs/pfs-store.ts';
import { isOpen, type BranchRow, type CommitRow, type RepoRow } from '../pfs/rows.ts';
import type { Flow } from './flows.ts';

/**
 * The design a trial runs. A flow whose stages carry a `bolt` label but do not read the bolt
 * themselves gets the bolt's files in each trial's params commit, under /bolt (copied by
 * reference: no bytes are written), so a trial runs exactly the RTL it names — its case's
 * snapshot, or the bolt commit that started it — and a commit to the bolt starts nothing by
 * itself (the trial service starts one trial per case it affects: bolt-commits.ts).
 */

/** Where the design lands in a trial's params commit. */
export const designFolder = '/bolt';

/** Cases of a bolt: its branches whose metadata names a `case`. */
export interface CaseBranch {
  name: string;
  branch: BranchRow;
  metadata: Record<string, string>;
}

export function branchMetadata(branch: BranchRow): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(branch.metadata || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, string>)
      : {};
  } catch {
    return {};
  }
}

export function caseBranches(pfs: PfsStore, bolt: RepoRow): CaseBranch[] {
  return pfs.listBranches(bolt).flatMap((branch) => {
    const metadata = branchMetadata(branch);
    return metadata.case ? [{ name: metadata.case, branch, metadata }] : [];
  });
}

/** Whether a stage of the flow reads its bolt directly (then bolt commits run it themselves). */
export function readsBoltDirectly(flow: Flow): boolean {
  return flow.stages.some((stage) =>
    stage.inputs.some((input) => input.project === flow.project && input.repo === flow.bolt),
  );
}

/** Whether trials of the flow carry their design in the params commit. */
export function carriesDesign(flow: Flow): boolean {
  return flow.bolt !== '' && !readsBoltDirectly(flow);
}

export function latestFinished(pfs: PfsStore, commit: CommitRow | undefined): CommitRow | null {
  let current = commit;
  while (current && isOpen(current))
    current = current.parent_rowid === null ? undefined : pfs.commitByRowid(current.parent_rowid);
  return current ?? null;
}

/**
 * The bolt commit a trial of `caseName` runs when nothing else says: the head of the case's
 * branch (the RTL snapshot the case benchmarks), else the head of master.
 */
export function designCommitOf(
  pfs: PfsStore,
  flow: Flow,
  caseName: string,
): { bolt: RepoRow; commit: CommitRow } | null {
  const bolt = pfs.findRepo({ project: flow.project, name: flow.bolt, type: 'user' });
  if (!bolt) return null;
  const branch =
    (caseName ? caseBranches(pfs, bolt).find((c) => c.name === caseName)?.branch : undefined) ??
    pfs.findBranch(bolt, 'master');
  const head = branch?.head_rowid ? pfs.commitByRowid(branch.head_rowid) : undefined;
  const commit = latestFinished(pfs, head);
  return commit ? { bolt, commit } : null;
}

/** The files of `source` under `from` ('/' = all), put under `to` in the open `commit`. */
export function copyTree(
  pfs: PfsStore,
  commit: CommitRow,
  source: CommitRow,
  from: string,
  to: string,
): number {
  const prefix = from === '/' ? '/' : `${from.replace(/\/+$/, '')}/`;
  let copied = 0;
  for (const file of pfs.allFiles(source)) {
    if (file.type !== 'FILE' || !file.path.startsWith(prefix)) continue;
    pfs.putFile(commit, {
      path: `${to}/${file.path.slice(prefix.length)}`,
      hash: file.hash,
      sizeBytes: file.size_bytes,
    });
    copied++;
  }
  return copied;
}
