import { describe, expect, it } from 'vitest';
import { layeredLayout } from './layered-layout.ts';

const box = (id: string) => ({ id, width: 100, height: 40 });
const edge = (s: string, t: string) => ({ id: `${s}>${t}`, sources: [s], targets: [t] });

describe('layeredLayout', () => {
  it('puts each node below its parents and no two nodes of a layer on top of each other', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'side'];
    const result = layeredLayout({
      layoutOptions: { 'elk.direction': 'DOWN' },
      children: ids.map(box),
      edges: [edge('a', 'b'), edge('b', 'c'), edge('c', 'd'), edge('a', 'e'), edge('side', 'd')],
    });
    const at = new Map(result.children.map((c) => [c.id, c]));
    const y = (id: string) => at.get(id)?.y ?? NaN;
    expect(y('a')).toBeLessThan(y('b'));
    expect(y('b')).toBeLessThan(y('c'));
    expect(y('c')).toBeLessThan(y('d'));
    // A source sits just above its reader, not in the top layer.
    expect(y('side')).toBe(y('c'));
    for (const p of result.children)
      for (const q of result.children)
        if (p.id !== q.id && p.y === q.y)
          expect(p.x + p.width <= q.x || q.x + q.width <= p.x).toBe(true);
    expect(result.height).toBe(Math.max(...result.children.map((c) => c.y + c.height)));
  });

  it('lays out left to right with the axes swapped', () => {
    const result = layeredLayout({
      layoutOptions: { 'elk.direction': 'RIGHT' },
      children: ['a', 'b'].map(box),
      edges: [edge('a', 'b')],
    });
    const [a, b] = result.children;
    expect(a?.y).toBe(b?.y);
    expect((a?.x ?? 0) + 100).toBeLessThan(b?.x ?? 0);
  });

  it('ends on a cycle and keeps every node', () => {
    const result = layeredLayout({
      children: ['a', 'b', 'c'].map(box),
      edges: [edge('a', 'b'), edge('b', 'c'), edge('c', 'b')],
    });
    expect(result.children.map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(result.children.every((c) => Number.isFinite(c.x) && Number.isFinite(c.y))).toBe(true);
  });
});
