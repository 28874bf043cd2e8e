import type { LineageGraph } from './graph.ts';
import type { LayoutDirection } from './layout-key.ts';

/** Node sizes in graph units; the renderer draws nodes at exactly these sizes. */
export const NODE_SIZE = {
  pipeline: { width: 220, height: 64 },
  repo: { width: 220, height: 44 },
} as const;

export const nodeSize = (kind: string) =>
  kind === 'pipeline' ? NODE_SIZE.pipeline : NODE_SIZE.repo;

export type Positions = Record<string, { x: number; y: number }>;

interface ElkLike {
  layout(graph: unknown): Promise<{
    children?: Array<{ id: string; x?: number; y?: number; width?: number; height?: number }>;
    width?: number;
    height?: number;
  }>;
}

const GAP = 40;
/** Connected parts above this many nodes get the faster ELK settings. */
export const THOROUGH_LIMIT = 100;
/**
 * Above this many, ELK also keeps the nodes' given order in each layer instead of minimising
 * crossings (its costliest phase: 3× the time at 510 nodes). The given order is the graph's,
 * upstream first, which keeps chains straight.
 */
export const ORDERED_LIMIT = 400;

/** ELK settings that trade layout quality for time on large graphs. */
export function speedOptions(nodes: number): Record<string, string> {
  if (nodes <= THOROUGH_LIMIT) return {};
  return {
    'elk.layered.thoroughness': '1',
    'elk.layered.nodePlacement.strategy': 'SIMPLE',
    // Longest-path layering is linear; the default (network simplex) dominated at 500 nodes.
    'elk.layered.layering.strategy': 'LONGEST_PATH',
    ...(nodes > ORDERED_LIMIT ? { 'elk.layered.crossingMinimization.strategy': 'NONE' } : {}),
  };
}

/**
 * Lays out the graph with ELK's layered algorithm. Nodes without any edge (often most of a
 * large project's repos) are not given to ELK: they go in a grid beside the connected part,
 * which keeps a 2,000-node layout well under a second.
 */
export async function layoutGraph(
  elk: ElkLike,
  graph: LineageGraph,
  direction: LayoutDirection,
): Promise<Positions> {
  const linked = new Set<string>();
  for (const edge of graph.edges) {
    linked.add(edge.source);
    linked.add(edge.target);
  }
  const connected = graph.nodes.filter((n) => linked.has(n.id));
  const isolated = graph.nodes.filter((n) => !linked.has(n.id));
  const positions: Positions = {};
  let width = 0;
  let height = 0;
  if (connected.length > 0) {
    const result = await elk.layout({
      id: 'root',
      layoutOptions: {
        'elk.algorithm': 'layered',
        'elk.direction': direction,
        'elk.spacing.nodeNode': '32',
        'elk.layered.spacing.nodeNodeBetweenLayers': '72',
        'elk.separateConnectedComponents': 'true',
        'elk.spacing.componentComponent': '48',
        // React Flow draws its own edges, so ELK's routes are not needed.
        'elk.edgeRouting': 'POLYLINE',
        // Large graphs trade a little layout quality for time.
        ...speedOptions(connected.length),
      },
      children: connected.map((n) => ({ id: n.id, ...nodeSize(n.kind) })),
      edges: graph.edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
    });
    for (const child of result.children ?? []) {
      positions[child.id] = { x: child.x ?? 0, y: child.y ?? 0 };
      width = Math.max(width, (child.x ?? 0) + (child.width ?? 0));
      height = Math.max(height, (child.y ?? 0) + (child.height ?? 0));
    }
  }
  if (isolated.length > 0) {
    const cell = { width: NODE_SIZE.repo.width + GAP, height: NODE_SIZE.pipeline.height + GAP / 2 };
    const columns = Math.max(1, Math.ceil(Math.sqrt(isolated.length)));
    // Below a downward graph, or to the right of a rightward one.
    const origin =
      direction === 'DOWN'
        ? { x: 0, y: height + (height ? GAP * 2 : 0) }
        : { x: width + (width ? GAP * 2 : 0), y: 0 };
    isolated
      .slice()
      .sort((a, b) => a.name.localeCompare(b.name))
      .forEach((node, i) => {
        positions[node.id] = {
          x: origin.x + (i % columns) * cell.width,
          y: origin.y + Math.floor(i / columns) * cell.height,
        };
      });
  }
  return positions;
}
