import type { PfsStore } from '../pfs/pfs-store.ts';
import type { CommitRow, FileRow, RepoRow } from '../pfs/rows.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { readBlob, type Flow } from './flows.ts';
import { caseBranches } from './trial-design.ts';

/**
 * What a commit to a flow's bolt starts: one trial per case it affects, each running the
 * committed design with its case's parameters. Which cases a commit affects (and whether it
 * brings a new design that deserves a case of its own) is the planner's call: the EDA flow's
 * planner reads the RTL (server/src/eda/bolt-cases.ts); without one, every case of the bolt runs
 * again, or — a bolt without cases — one trial with the flow's last parameters.
 */

export interface ChangedFile {
  path: string;
  change: 'added' | 'changed' | 'deleted';
}

export interface BoltCase {
  name: string;
  /** The case branch's metadata (case, flow, rtl, design, description, …). */
  metadata: Record<string, string>;
  /** The parameters of the case's last trial of this flow, or null when it has none. */
  lastParameters: Record<string, string> | null;
}

export interface BoltCommit {
  flow: Flow;
  bolt: RepoRow;
  commit: CommitRow;
  /** The files the commit added, changed or deleted (against its parent). */
  changed: ChangedFile[];
  /** The commit's files. */
  files: FileRow[];
  /** A file of the commit as text (null when it has none at that path). */
  read(path: string): Promise<string | null>;
  /** The cases of the bolt that run this flow. */
  cases: BoltCase[];
  /** The flow's parameter defaults (its plugin description, as of this commit). */
  defaults: Record<string, string>;
  /** The parameters of the flow's last trial (any case), or null. */
  lastParameters: Record<string, string> | null;
}

export interface PlannedTrial {
  caseName: string;
  parameters: Record<string, string>;
  /** Set for a design without a case yet: the case (a branch at the commit) is created so. */
  newCase?: { metadata: Record<string, string>; description: string };
}

/** Plans the trials of a bolt commit; null leaves it to the default plan. */
export type BoltCommitPlanner = (commit: BoltCommit) => Promise<PlannedTrial[] | null>;

/** Every case again with its last parameters; a bolt without cases: the flow's last trial's. */
export function defaultPlan(commit: BoltCommit): PlannedTrial[] {
  if (commit.cases.length > 0)
    return commit.cases.map((c) => ({
      caseName: c.name,
      parameters: c.lastParameters ?? commit.defaults,
    }));
  return [{ caseName: '', parameters: commit.lastParameters ?? commit.defaults }];
}

/** The files a commit added, changed or deleted against its parent. */
export function changedFiles(pfs: PfsStore, commit: CommitRow): ChangedFile[] {
  const now = pfs.allFiles(commit).filter((file) => file.type === 'FILE');
  const parent = commit.parent_rowid === null ? null : pfs.commitByRowid(commit.parent_rowid);
  const before = new Map(
    (parent ? pfs.allFiles(parent) : [])
      .filter((file) => file.type === 'FILE')
      .map((file) => [file.path, file.hash]),
  );
  const out: ChangedFile[] = [];
  for (const file of now) {
    const hash = before.get(file.path);
    if (hash === undefined) out.push({ path: file.path, change: 'added' });
    else if (hash !== file.hash) out.push({ path: file.path, change: 'changed' });
    before.delete(file.path);
  }
  for (const path of before.keys()) out.push({ path, change: 'deleted' });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Everything a planner reads about a bolt commit. */
export function boltCommitOf(
  pfs: PfsStore,
  blobs: BlobStore,
  flow: Flow,
  bolt: RepoRow,
  commit: CommitRow,
  known: {
    defaults: Record<string, string>;
    lastParameters: (caseName: string | null) => Record<string, string> | null;
  },
): BoltCommit {
  const files = pfs.allFiles(commit);
  const cases = caseBranches(pfs, bolt)
    .filter((c) => {
      const flows = (c.metadata.flow ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      return flows.length === 0 || flows.includes(flow.name);
    })
    .map((c) => ({
      name: c.name,
      metadata: c.metadata,
      lastParameters: known.lastParameters(c.name),
    }));
  return {
    flow,
    bolt,
    commit,
    changed: changedFiles(pfs, commit),
    files,
    async read(path) {
      const file = files.find((f) => f.path === path && f.type === 'FILE');
      return file ? (await readBlob(blobs, file.hash)).toString('utf8') : null;
    },
    cases,
    defaults: known.defaults,
    lastParameters: known.lastParameters(null),
  };
}
