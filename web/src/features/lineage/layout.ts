import type { LineageGraph } from './graph.ts';
import type { Positions } from './layout-engine.ts';
import { layoutKey, type LayoutDirection } from './layout-key.ts';

/** Above this many nodes the layout runs in a web worker. */
export const WORKER_THRESHOLD = 50;
const CACHE_LIMIT = 20;

const cache = new Map<string, Promise<Positions>>();

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, { resolve: (p: Positions) => void; reject: (e: Error) => void }>();

/** Starts the worker (and its ELK bundle) early, while the graph's data is still loading. */
export function prewarmLayoutWorker() {
  if (typeof Worker !== 'undefined') layoutWorker();
}

function layoutWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (
      event: MessageEvent<{ id: number; positions?: Positions; error?: string; ms?: number }>,
    ) => {
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
  if (graph.nodes.length <= WORKER_THRESHOLD || typeof Worker === 'undefined') {
    const [{ default: ELK }, { layoutGraph }] = await Promise.all([
      import('elkjs/lib/elk.bundled.js'),
      import('./layout-engine.ts'),
    ]);
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
    result = runLayout(graph, direction).then((positions) => {
      // Read by perf/lineage-figures.ts.
      (globalThis as { __lineageLayoutMs?: number }).__lineageLayoutMs =
        performance.now() - started;
      return positions;
    });
    result.catch(() => cache.delete(key));
    cache.set(key, result);
    if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  }
  return { key, positions: result };
}
