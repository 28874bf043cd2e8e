import type { LineageGraph } from './graph.ts';

export type LayoutDirection = 'DOWN' | 'RIGHT';

/** 32-bit FNV-1a of a string, as 8 hex digits. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The layout cache key: the graph's shape only (node ids and kinds, edges) and the direction,
 * independent of order and of states, so state changes reuse the layout.
 */
export function layoutKey(graph: LineageGraph, direction: LayoutDirection): string {
  const nodes = graph.nodes.map((n) => `${n.kind}|${n.id}`).sort();
  const edges = graph.edges.map((e) => `${e.source}>${e.target}`).sort();
  const text = `${direction}\n${nodes.join('\n')}\n--\n${edges.join('\n')}`;
  return `${direction}:${graph.nodes.length}:${graph.edges.length}:${fnv1a(text)}`;
}
