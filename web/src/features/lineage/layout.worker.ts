/// <reference lib="webworker" />
import ELK from 'elkjs/lib/elk.bundled.js';
import type { LineageGraph } from './graph.ts';
import { layoutGraph } from './layout-engine.ts';
import type { LayoutDirection } from './layout-key.ts';

export interface LayoutRequest {
  id: number;
  graph: LineageGraph;
  direction: LayoutDirection;
}

const elk = new ELK();

// Warm ELK's code up on a tiny graph while the page is still fetching the real one.
void layoutGraph(
  elk,
  {
    nodes: ['a', 'b', 'c', 'd'].map((id) => ({ id, kind: 'repo', project: '', name: id })),
    edges: [
      { id: 'ab', source: 'a', target: 'b' },
      { id: 'ac', source: 'a', target: 'c' },
      { id: 'bd', source: 'b', target: 'd' },
    ],
  },
  'DOWN',
)
  .catch(() => undefined)
  .finally(() => self.postMessage({ id: -1 }));

self.onmessage = async (event: MessageEvent<LayoutRequest>) => {
  const { id, graph, direction } = event.data;
  try {
    const started = performance.now();
    const positions = await layoutGraph(elk, graph, direction);
    self.postMessage({ id, positions, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
