import type { LineageGraph } from './graph.ts';
import { layeredLayout } from './layered-layout.ts';
import { layoutGraph, THOROUGH_LIMIT, type Positions } from './layout-engine.ts';
import { layoutKey, type LayoutDirection } from './layout-key.ts';

/** Above this many nodes the layout runs in a web worker. */
export const WORKER_THRESHOLD = 50;
const CACHE_LIMIT = 20;

const cache = new Map<string, Promise<Positions>>();

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, { resolve: (p: Positions) => void; reject: (e: Error) => void }>();

/**
 * Above this many connected nodes the layout is the fast layered one (layered-layout.ts), on the
 * main thread, instead of ELK: ELK's bundle alone (1.4 MB to parse) cost more than the whole
 * first paint's budget at 2,000 nodes, and above this size its settings already traded quality
 * for time.
 */
export const FAST_LIMIT = THOROUGH_LIMIT;

/** How many nodes of the graph have an edge (the part a layered layout places). */
export function connectedCount(edges: ReadonlyArray<{ source: string; target: string }>) {
  const linked = new Set<string>();
  for (const edge of edges) {
    linked.add(edge.source);
    linked.add(edge.target);
  }
  return linked.size;
}

/**
 * Starts the worker (and its ELK bundle) early, while the rest of the graph's data is loading,
 * when the graph will need it: more than WORKER_THRESHOLD nodes in all, at most FAST_LIMIT of them
 * connected.
 */
export function prewarmLayoutWorker(connected: number) {
  if (typeof Worker !== 'undefined' && connected > WORKER_THRESHOLD && connected <= FAST_LIMIT)
    layoutWorker();
}

const fastEngine = { layout: async (graph: unknown) => layeredLayout(graph as never) };

function layoutWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (
      event: MessageEvent<{ id: number; positions?: Positions; error?: string; ms?: number }>,
    ) => {
      if (event.data.id < 0) {
        // The worker's own clock: its ELK bundle parsed and warmed (read by perf figures).
        performance.mark('lineage:worker-ready');
        return;
      }
      const entry = waiting.get(event.data.id);
      if (!entry) return;
      waiting.delete(event.data.id);
      // Read by perf/lineage-figures.ts: ELK's own time inside the worker.
      (globalThis as { __lineageWorkerMs?: number }).__lineageWorkerMs = event.data.ms;
      if (event.data.positions) entry.resolve(event.data.positions);
      else entry.reject(new Error(event.data.error ?? 'layout failed'));
    };
  }
  return worker;
}

async function runLayout(graph: LineageGraph, direction: LayoutDirection): Promise<Positions> {
  if (connectedCount(graph.edges) > FAST_LIMIT) return layoutGraph(fastEngine, graph, direction);
  if (graph.nodes.length <= WORKER_THRESHOLD || typeof Worker === 'undefined') {
    const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
    return layoutGraph(new ELK(), graph, direction);
  }
  const id = nextId++;
  // Only what the layout needs crosses to the worker.
  const slim: LineageGraph = {
    nodes: graph.nodes.map((n) => ({ id: n.id, kind: n.kind, project: n.project, name: n.name })),
    edges: graph.edges,
  };
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    layoutWorker().postMessage({ id, graph: slim, direction });
  });
}

/** The positions of a graph's nodes, computed once per layout key (graph shape + direction). */
export function layoutLineage(graph: LineageGraph, direction: LayoutDirection) {
  const key = layoutKey(graph, direction);
  let result = cache.get(key);
  if (!result) {
    const started = performance.now();
    performance.mark('lineage:layout-start');
    result = runLayout(graph, direction).then((positions) => {
      // Read by perf/lineage-figures.ts.
      (globalThis as { __lineageLayoutMs?: number }).__lineageLayoutMs =
        performance.now() - started;
      performance.mark('lineage:layout-done');
      return positions;
    });
    result.catch(() => cache.delete(key));
    cache.set(key, result);
    if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  }
  return { key, positions: result };
}
