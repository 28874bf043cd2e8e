import { createHash } from 'node:crypto';
import { pfs_v2 } from '@ivory/api/proto';
import { invalidArgument } from '../../errors.ts';
import type { MethodRegistry } from '../platform.ts';
import { safeNumber, typedStream } from '../typed-method.ts';
import { asDirPath, normalisePath } from './file-paths.ts';
import type { PfsMessages } from './pfs-messages.ts';
import { commitRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { PfsStore } from './pfs-store.ts';
import { resolveBranchPicker, resolveCommitPicker } from './pickers.ts';
import type { BranchRow, CommitRow, RepoRow } from './rows.ts';

/** A branch named by place: project, repo name, repo type and branch name. */
export interface BranchPlace {
  project: string;
  repo: string;
  type: 'user' | 'spec' | 'meta';
  branch: string;
}

/**
 * Branch provenance recorded outside pfs: the pipeline engine does not write cross-repo branch
 * provenance into the branches table, so it is derived from the pipeline specs — a pipeline's
 * output branch has each input branch (cron inputs: their tick repo's master) and its spec repo's
 * master as provenance.
 */
export type DerivedBranchEdges = () => { branch: BranchPlace; from: BranchPlace[] }[];

const placeKey = (p: BranchPlace) => `${p.project}/${p.repo}.${p.type}@${p.branch}`;

/**
 * FindCommits, WalkCommitProvenance / WalkCommitSubvenance, WalkBranchProvenance /
 * WalkBranchSubvenance.
 *
 * Walks are breadth-first from the start commits (or branches), which are included (depth 0);
 * maxDepth limits how many provenance steps are taken and maxCommits / maxBranches how many
 * messages are sent; 0 means no limit. Each commit or branch is sent once.
 */
export function registerProvenanceWalkApi(
  methods: MethodRegistry,
  deps: { store: PfsStore; messages: PfsMessages; derivedBranchEdges: DerivedBranchEdges },
): void {
  const { store, messages } = deps;
  const add = (name: string, method: Parameters<MethodRegistry['set']>[1]) =>
    methods.set(`pfs_v2.API/${name}`, method);

  // ---- FindCommits ----------------------------------------------------------------------

  /** A signature of what sits at `path` in a commit: '' when nothing does. */
  function signature(commit: CommitRow, path: string): string {
    const row = store.findFile(commit, path);
    if (!row) return '';
    if (row.type === 'FILE') return `F:${row.hash}`;
    const hash = createHash('sha256');
    for (const entry of store.listSubtree(commit, asDirPath(row.path))) {
      hash.update(`${entry.type}:${entry.path}:${entry.hash}\n`);
    }
    return `D:${hash.digest('hex')}`;
  }

  add(
    'FindCommits',
    typedStream(pfs_v2.FindCommitsRequestSchema, async function* (req, signal) {
      const file = { commit: commitRefOf(req.start), path: normalisePath(req.filePath) };
      if (!req.filePath) throw invalidArgument('filePath is required');
      const limit = req.limit;
      const { repo, commit: start } = resolveCommitRef(store, file.commit);
      let current: CommitRow | null = start;
      let searched = 0;
      let found = 0;
      let last: CommitRow = start;
      while (current && !signal.aborted) {
        searched++;
        last = current;
        const parent: CommitRow | null =
          current.parent_rowid === null ? null : store.commitByRowid(current.parent_rowid);
        const here = signature(current, file.path);
        const before = parent ? signature(parent, file.path) : '';
        if (here !== before) {
          found++;
          yield { foundCommit: messages.commit(current, repo), commitsSearched: searched };
          if (limit > 0 && found >= limit) break;
        }
        current = parent;
      }
      yield { lastSearchedCommit: messages.commit(last, repo), commitsSearched: searched };
    }),
  );

  // ---- commit provenance ----------------------------------------------------------------

  type CommitWalk = pfs_v2.WalkCommitProvenanceRequest | pfs_v2.WalkCommitSubvenanceRequest;
  function walkCommits(req: CommitWalk, next: (commit: CommitRow) => CommitRow[]): CommitRow[] {
    const starts = req.start.map((picker, i) => resolveCommitPicker(store, picker, `start[${i}]`));
    if (starts.length === 0) throw invalidArgument('start needs at least one commit');
    return bfs(
      starts,
      (c) => String(c.rowid),
      next,
      safeNumber(req.maxCommits, 'maxCommits'),
      safeNumber(req.maxDepth, 'maxDepth'),
    );
  }

  add(
    'WalkCommitProvenance',
    typedStream(pfs_v2.WalkCommitProvenanceRequestSchema, async function* (req) {
      for (const commit of walkCommits(req, (c) => store.directProvenance(c)))
        yield messages.commitInfo(commit);
    }),
  );

  add(
    'WalkCommitSubvenance',
    typedStream(pfs_v2.WalkCommitSubvenanceRequestSchema, async function* (req) {
      for (const commit of walkCommits(req, (c) => store.directSubvenance(c)))
        yield messages.commitInfo(commit);
    }),
  );

  // ---- branch provenance ----------------------------------------------------------------

  interface Node {
    repo: RepoRow;
    branch: BranchRow;
  }

  /** Direct provenance and subvenance of every existing branch. */
  function branchGraph() {
    const nodes = new Map<string, Node>();
    const up = new Map<string, Set<string>>();
    const down = new Map<string, Set<string>>();
    const link = (to: string, from: string) => {
      if (!nodes.has(to) || !nodes.has(from) || to === from) return;
      if (!up.has(to)) up.set(to, new Set());
      if (!down.has(from)) down.set(from, new Set());
      up.get(to)?.add(from);
      down.get(from)?.add(to);
    };
    const repos = store.listRepos({ type: null, projects: [] });
    for (const repo of repos) {
      for (const branch of store.listBranches(repo)) {
        const place = {
          project: repo.project,
          repo: repo.name,
          type: repo.type,
          branch: branch.name,
        };
        nodes.set(placeKey(place), { repo, branch });
      }
    }
    for (const { repo, branch } of nodes.values()) {
      const to = placeKey({
        project: repo.project,
        repo: repo.name,
        type: repo.type,
        branch: branch.name,
      });
      for (const name of JSON.parse(branch.provenance) as string[])
        link(
          to,
          placeKey({ project: repo.project, repo: repo.name, type: repo.type, branch: name }),
        );
    }
    for (const edge of deps.derivedBranchEdges()) {
      for (const from of edge.from) link(placeKey(edge.branch), placeKey(from));
    }
    return { nodes, up, down };
  }

  type BranchWalk = pfs_v2.WalkBranchProvenanceRequest | pfs_v2.WalkBranchSubvenanceRequest;
  function walkBranches(req: BranchWalk, direction: 'up' | 'down'): Node[] {
    const graph = branchGraph();
    const starts = req.start.map((picker, i) => {
      const { repo, name } = resolveBranchPicker(store, picker, `start[${i}]`);
      const branch = store.getBranch(repo, name);
      return { repo, branch };
    });
    if (starts.length === 0) throw invalidArgument('start needs at least one branch');
    const keyOf = (n: Node) =>
      placeKey({
        project: n.repo.project,
        repo: n.repo.name,
        type: n.repo.type,
        branch: n.branch.name,
      });
    const edges = direction === 'up' ? graph.up : graph.down;
    return bfs(
      starts,
      keyOf,
      (n) =>
        [...(edges.get(keyOf(n)) ?? [])]
          .sort()
          .map((key) => graph.nodes.get(key))
          .filter((x): x is Node => x !== undefined),
      safeNumber(req.maxBranches, 'maxBranches'),
      safeNumber(req.maxDepth, 'maxDepth'),
    );
  }

  add(
    'WalkBranchProvenance',
    typedStream(pfs_v2.WalkBranchProvenanceRequestSchema, async function* (req) {
      for (const node of walkBranches(req, 'up')) yield messages.branchInfo(node.repo, node.branch);
    }),
  );

  add(
    'WalkBranchSubvenance',
    typedStream(pfs_v2.WalkBranchSubvenanceRequestSchema, async function* (req) {
      for (const node of walkBranches(req, 'down'))
        yield messages.branchInfo(node.repo, node.branch);
    }),
  );
}

/** Breadth-first walk; starts are depth 0; 0 limits mean no limit. */
function bfs<T>(
  starts: T[],
  key: (item: T) => string,
  next: (item: T) => T[],
  maxItems: number,
  maxDepth: number,
): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  let frontier: T[] = [];
  for (const start of starts) {
    if (seen.has(key(start))) continue;
    seen.add(key(start));
    frontier.push(start);
  }
  let depth = 0;
  while (frontier.length > 0) {
    for (const item of frontier) {
      if (maxItems > 0 && out.length >= maxItems) return out;
      out.push(item);
    }
    if (maxDepth > 0 && depth >= maxDepth) break;
    depth++;
    const following: T[] = [];
    for (const item of frontier) {
      for (const neighbour of next(item)) {
        const k = key(neighbour);
        if (seen.has(k)) continue;
        seen.add(k);
        following.push(neighbour);
      }
    }
    frontier = following;
  }
  return out;
}
