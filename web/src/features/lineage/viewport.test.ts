import { describe, expect, it } from 'vitest';
import type { LineageGraph } from './graph.ts';
import { NODE_SIZE } from './layout-engine.ts';
import { DETAIL_ZOOM } from './graph-view.ts';
import { firstViewport, fittedViewport } from './viewport.ts';

// React Flow draws the minimap 200 × 150 px and the zoom buttons 26 px wide, each 15 px from the
// pane's corner (bottom right and bottom left).
const MINIMAP = { width: 200, height: 150, margin: 15 };
const CONTROLS = { width: 26, height: 84, margin: 15 };

type Box = { x: number; y: number; width: number; height: number };
const apart = (a: Box, b: Box) =>
  a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

const repo = (name: string) => ({ id: name, kind: 'repo' as const, project: 'p', name });

describe('fittedViewport', () => {
  // Nodes in every corner of the graph: fitted, the bottom ones reach the pane's bottom corners.
  const graph: LineageGraph = {
    nodes: ['top-left', 'top-right', 'bottom-left', 'bottom-right'].map(repo),
    edges: [],
  };
  const positions = {
    'top-left': { x: 0, y: 0 },
    'top-right': { x: 900, y: 0 },
    'bottom-left': { x: 0, y: 700 },
    'bottom-right': { x: 900, y: 700 },
  };

  it.each([
    { width: 725, height: 700 },
    { width: 1180, height: 760 },
    { width: 600, height: 900 },
  ])('leaves no node under the minimap or the zoom buttons in a $width × $height pane', (pane) => {
    const view = fittedViewport(graph, positions, pane, true);
    const minimap: Box = {
      x: pane.width - MINIMAP.margin - MINIMAP.width,
      y: pane.height - MINIMAP.margin - MINIMAP.height,
      width: MINIMAP.width,
      height: MINIMAP.height,
    };
    const controls: Box = {
      x: CONTROLS.margin,
      y: pane.height - CONTROLS.margin - CONTROLS.height,
      width: CONTROLS.width,
      height: CONTROLS.height,
    };
    for (const [id, at] of Object.entries(positions)) {
      const box: Box = {
        x: at.x * view.zoom + view.x,
        y: at.y * view.zoom + view.y,
        width: NODE_SIZE.repo.width * view.zoom,
        height: NODE_SIZE.repo.height * view.zoom,
      };
      expect(box.x, `${id} inside the pane`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${id} inside the pane`).toBeLessThanOrEqual(pane.width);
      expect(apart(box, minimap), `${id} under the minimap`).toBe(true);
      expect(apart(box, controls), `${id} under the zoom buttons`).toBe(true);
    }
  });

  it('without a minimap (a phone) uses the width the minimap would take', () => {
    const pane = { width: 400, height: 700 };
    const withMinimap = fittedViewport(graph, positions, pane, true);
    const without = fittedViewport(graph, positions, pane, false);
    expect(without.zoom).toBeGreaterThan(withMinimap.zoom);
  });
});

describe('firstViewport', () => {
  // A wide graph: fitted into a small pane it is drawn far below the zoom where nodes are read.
  const graph: LineageGraph = {
    nodes: Array.from({ length: 40 }, (_, i) => repo(`r${i}`)),
    edges: [],
  };
  const positions = Object.fromEntries(graph.nodes.map((n, i) => [n.id, { x: i * 400, y: 0 }]));
  const pane = { width: 1180, height: 600 };

  it('fits the whole graph when nothing is selected', () => {
    expect(firstViewport(graph, positions, pane, true, null)).toEqual(
      fittedViewport(graph, positions, pane, true),
    );
  });

  it('draws a selected node at 100 %, in the middle of the part the overlays leave free', () => {
    const view = firstViewport(graph, positions, pane, true, 'r20');
    expect(fittedViewport(graph, positions, pane, true).zoom).toBeLessThan(DETAIL_ZOOM);
    expect(view.zoom).toBe(1);
    const left = view.x + 20 * 400;
    const right = left + NODE_SIZE.repo.width;
    // Its box is inside the pane, clear of the zoom buttons (64 px) and the minimap (232 px).
    expect(left).toBeGreaterThanOrEqual(64);
    expect(right).toBeLessThanOrEqual(pane.width - 232);
    expect(Math.abs((left + right) / 2 - (64 + (pane.width - 64 - 232) / 2))).toBeLessThan(1);
  });

  it('keeps the fitted view when the selected node is already readable', () => {
    const small: LineageGraph = { nodes: [repo('a'), repo('b')], edges: [] };
    const at = { a: { x: 0, y: 0 }, b: { x: 400, y: 0 } };
    expect(firstViewport(small, at, pane, true, 'a')).toEqual(
      fittedViewport(small, at, pane, true),
    );
  });
});
