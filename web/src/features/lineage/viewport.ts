import { getViewportForBounds, type Viewport } from '@xyflow/react';
import type { LineageGraph as Graph, LineageNode } from './graph.ts';
import { DETAIL_ZOOM } from './graph-view.ts';
import { nodeSize, type Positions } from './layout-engine.ts';

/** Below this window width (antd's `sm`) the graph draws no minimap: it would cover half of it. */
export const MINIMAP_MIN_WIDTH = 576;

export function showsMinimap(windowWidth: number): boolean {
  return windowWidth >= MINIMAP_MIN_WIDTH;
}

/**
 * How the whole graph is fitted: the room the overlays take is kept free, so no node is drawn
 * under the zoom and fit buttons (bottom left) or the minimap (bottom right, 200 px wide).
 */
export function fitOptions(minimap: boolean) {
  return {
    maxZoom: 1.2,
    padding: { top: '24px', bottom: '24px', left: '64px', right: minimap ? '232px' : '24px' },
  } as const;
}
export const MIN_ZOOM = 0.02;

/**
 * The viewport that fits the whole graph in a pane of this size: given to React Flow as its first
 * viewport, so the first render is already at the fitted zoom (plain boxes on the canvas for a
 * large graph) instead of rendering the nodes at 100 %, measuring them and then fitting.
 */
export function fittedViewport(
  graph: Graph,
  positions: Positions,
  pane: { width: number; height: number },
  minimap: boolean,
): Viewport {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const node of graph.nodes) {
    const p = positions[node.id];
    if (!p) continue;
    const size = nodeSize(node.kind);
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x + size.width);
    y1 = Math.max(y1, p.y + size.height);
  }
  if (x0 > x1) return { x: 0, y: 0, zoom: 1 };
  return getViewportForBounds(
    { x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
    pane.width,
    pane.height,
    MIN_ZOOM,
    fitOptions(minimap).maxZoom,
    fitOptions(minimap).padding,
  );
}

/**
 * Where a node's centre must sit so it is drawn at 100 % in the middle of the free part of the
 * pane (between the zoom buttons and the minimap), or null when it has no position.
 */
export function centredOn(
  graph: Graph,
  positions: Positions,
  id: string,
  pane: { width: number; height: number },
  minimap: boolean,
): Viewport | null {
  const p = positions[id];
  const node = graph.nodes.find((n) => n.id === id);
  if (!p || !node) return null;
  const size = nodeSize(node.kind);
  const pad = fitOptions(minimap).padding;
  const left = parseFloat(pad.left);
  const right = parseFloat(pad.right);
  const middle = left + (pane.width - left - right) / 2;
  return {
    x: middle - (p.x + size.width / 2),
    y: pane.height / 2 - (p.y + size.height / 2),
    zoom: 1,
  };
}

/**
 * The first viewport: the whole graph fitted, unless a node is selected (the route names it) and
 * fitting would draw it too small to read — then that node, at 100 %, in the middle.
 */
export function firstViewport(
  graph: Graph,
  positions: Positions,
  pane: { width: number; height: number },
  minimap: boolean,
  selectedId: string | null,
): Viewport {
  const fitted = fittedViewport(graph, positions, pane, minimap);
  if (selectedId === null || fitted.zoom >= DETAIL_ZOOM) return fitted;
  return centredOn(graph, positions, selectedId, pane, minimap) ?? fitted;
}

/** The node whose box holds this flow position (zoomed out the nodes are drawn on a canvas). */
export function nodeAt(
  graph: Graph,
  positions: Positions,
  at: { x: number; y: number },
): LineageNode | undefined {
  return graph.nodes.find((n) => {
    const p = positions[n.id];
    const size = nodeSize(n.kind);
    return p && at.x >= p.x && at.x <= p.x + size.width && at.y >= p.y && at.y <= p.y + size.height;
  });
}
