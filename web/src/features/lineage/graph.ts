import type { Input, JobState, PipelineInfo, PipelineState, RepoInfo } from '@ivory/api';

/**
 * The lineage graph of one project: its repos, its pipelines (each drawn together with its
 * output repo), cron inputs (the `<pipeline>_<name>` tick repo) and repos of other projects
 * that its pipelines read.
 */
export type LineageNodeKind = 'repo' | 'pipeline' | 'cron' | 'crossProject';

export interface LineageNode {
  id: string;
  kind: LineageNodeKind;
  project: string;
  name: string;
  /** Pipelines only. */
  state?: PipelineState;
  lastJobState?: JobState;
}

export interface LineageEdge {
  id: string;
  source: string;
  target: string;
}

export interface LineageGraph {
  nodes: LineageNode[];
  edges: LineageEdge[];
}

export const repoNodeId = (project: string, repo: string) => `repo:${project}/${repo}`;
export const pipelineNodeId = (project: string, pipeline: string) =>
  `pipeline:${project}/${pipeline}`;

/** The repos a pipeline input reads (pfs and cron leaves, through cross/union/join/group). */
export function inputRepos(
  input: Input | null | undefined,
  pipelineProject: string,
  pipelineName: string,
): Array<{ project: string; repo: string; cron: boolean }> {
  if (!input) return [];
  const out: Array<{ project: string; repo: string; cron: boolean }> = [];
  if (input.pfs?.repo)
    out.push({ project: input.pfs.project || pipelineProject, repo: input.pfs.repo, cron: false });
  if (input.cron) {
    const repo = input.cron.repo || `${pipelineName}_${input.cron.name ?? 'cron'}`;
    out.push({ project: input.cron.project || pipelineProject, repo, cron: true });
  }
  for (const key of ['cross', 'union', 'join', 'group'] as const)
    for (const child of input[key] ?? [])
      out.push(...inputRepos(child, pipelineProject, pipelineName));
  return out;
}

export function buildLineageGraph(
  project: string,
  pipelines: readonly PipelineInfo[],
  repos: readonly RepoInfo[],
): LineageGraph {
  const nodes = new Map<string, LineageNode>();
  const edges = new Map<string, LineageEdge>();
  // A pipeline's output repo has the pipeline's name; the pipeline node stands for both.
  const outputOf = new Map<string, string>();
  for (const info of pipelines) {
    const p = info.pipeline.project?.name || project;
    outputOf.set(repoNodeId(p, info.pipeline.name), pipelineNodeId(p, info.pipeline.name));
  }
  const cronRepos = new Set<string>();
  for (const info of pipelines) {
    const p = info.pipeline.project?.name || project;
    for (const leaf of inputRepos(info.details?.input, p, info.pipeline.name))
      if (leaf.cron) cronRepos.add(repoNodeId(leaf.project, leaf.repo));
  }

  for (const repo of repos) {
    const p = repo.repo.project?.name || project;
    if (p !== project) continue;
    const id = repoNodeId(p, repo.repo.name);
    if (outputOf.has(id)) continue;
    nodes.set(id, {
      id,
      kind: cronRepos.has(id) ? 'cron' : 'repo',
      project: p,
      name: repo.repo.name,
    });
  }
  for (const info of pipelines) {
    const p = info.pipeline.project?.name || project;
    const id = pipelineNodeId(p, info.pipeline.name);
    nodes.set(id, {
      id,
      kind: 'pipeline',
      project: p,
      name: info.pipeline.name,
      state: info.state,
      lastJobState: info.lastJobState,
    });
  }
  for (const info of pipelines) {
    const p = info.pipeline.project?.name || project;
    const target = pipelineNodeId(p, info.pipeline.name);
    for (const leaf of inputRepos(info.details?.input, p, info.pipeline.name)) {
      const repoId = repoNodeId(leaf.project, leaf.repo);
      const source = outputOf.get(repoId) ?? repoId;
      if (!nodes.has(source)) {
        nodes.set(source, {
          id: source,
          kind: leaf.project !== project ? 'crossProject' : leaf.cron ? 'cron' : 'repo',
          project: leaf.project,
          name: leaf.repo,
        });
      }
      const edgeId = `${source}->${target}`;
      edges.set(edgeId, { id: edgeId, source, target });
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

/** Every node upstream (ancestors) and downstream (descendants) of `id`. */
export function lineageOf(edges: readonly LineageEdge[], id: string) {
  const parents = new Map<string, string[]>();
  const children = new Map<string, string[]>();
  const add = (map: Map<string, string[]>, key: string, value: string) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const edge of edges) {
    add(parents, edge.target, edge.source);
    add(children, edge.source, edge.target);
  }
  const walk = (from: string, next: Map<string, string[]>) => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const current = stack.pop() as string;
      for (const n of next.get(current) ?? []) {
        if (!seen.has(n) && n !== from) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    return seen;
  };
  return { upstream: walk(id, parents), downstream: walk(id, children) };
}

/** Edges on the highlighted paths: both ends in the node's lineage (or the node itself). */
export function isHighlightedEdge(
  edge: LineageEdge,
  id: string,
  lineage: { upstream: Set<string>; downstream: Set<string> },
) {
  const up = (n: string) => n === id || lineage.upstream.has(n);
  const down = (n: string) => n === id || lineage.downstream.has(n);
  return (up(edge.source) && up(edge.target)) || (down(edge.source) && down(edge.target));
}
