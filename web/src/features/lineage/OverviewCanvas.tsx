import { useStore, type ReactFlowState } from '@xyflow/react';
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { LineageGraph as Graph } from './graph.ts';
import { nodeLook, type GraphView } from './graph-view.ts';
import { nodeSize, type Positions } from './layout-engine.ts';

/** A colour for the canvas, which reads no CSS custom properties: `var(--x)` resolved. */
function cssColorOf(value: string): string {
  const name = /^var\((--[\w-]+)\)$/.exec(value)?.[1];
  if (!name) return value;
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

const transformSelector = (s: ReactFlowState) => s.transform;
const sizeSelector = (s: ReactFlowState) => `${s.width}x${s.height}`;

/**
 * Level of detail: below DETAIL_ZOOM the whole graph is drawn as plain boxes and lines on one
 * canvas, redrawn per frame from the viewport transform, instead of thousands of DOM nodes.
 */
export default function OverviewCanvas({
  graph,
  positions,
  view,
}: {
  graph: Graph;
  positions: Positions;
  view: GraphView;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [x, y, zoom] = useStore(transformSelector);
  const size = useStore(sizeSelector);
  const [width, height] = size.split('x').map(Number) as [number, number];
  const looks = useMemo(
    () => new Map(graph.nodes.map((n) => [n.id, nodeLook(n, view)])),
    [graph.nodes, view],
  );
  useLayoutEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, dpr * x, dpr * y);
    const down = view.direction === 'DOWN';
    // A few distinct colours: each `var(--x)` resolved once per draw, not once per node.
    const resolved = new Map<string, string>();
    const cssColor = (value: string) => {
      let color = resolved.get(value);
      if (color === undefined) resolved.set(value, (color = cssColorOf(value)));
      return color;
    };
    const kinds = new Map(graph.nodes.map((n) => [n.id, n.kind]));
    ctx.lineWidth = 1.5 / zoom;
    ctx.strokeStyle = cssColor('var(--ivory-border)');
    ctx.beginPath();
    for (const edge of graph.edges) {
      const s = positions[edge.source];
      const t = positions[edge.target];
      if (!s || !t) continue;
      const ss = nodeSize(kinds.get(edge.source) ?? 'repo');
      const ts = nodeSize(kinds.get(edge.target) ?? 'repo');
      if (down) {
        ctx.moveTo(s.x + ss.width / 2, s.y + ss.height);
        ctx.lineTo(t.x + ts.width / 2, t.y);
      } else {
        ctx.moveTo(s.x + ss.width, s.y + ss.height / 2);
        ctx.lineTo(t.x, t.y + ts.height / 2);
      }
    }
    ctx.stroke();
    for (const node of graph.nodes) {
      const p = positions[node.id];
      const look = looks.get(node.id);
      if (!p || !look) continue;
      const s = nodeSize(node.kind);
      ctx.globalAlpha = look.dimmed ? 0.25 : 1;
      ctx.fillStyle = cssColor(look.color);
      ctx.fillRect(p.x, p.y, s.width, s.height);
      if (look.selected || look.related) {
        ctx.lineWidth = (look.selected ? 4 : 2) / zoom;
        ctx.strokeStyle = cssColor('var(--ivory-focus)');
        ctx.strokeRect(p.x, p.y, s.width, s.height);
      }
    }
    ctx.globalAlpha = 1;
  }, [x, y, zoom, width, height, graph, positions, looks, view.direction]);
  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  return (
    <canvas
      ref={ref}
      data-testid="lineage-overview"
      width={Math.round(width * dpr)}
      height={Math.round(height * dpr)}
      style={{ position: 'absolute', inset: 0, width, height, pointerEvents: 'none', zIndex: 4 }}
    />
  );
}
