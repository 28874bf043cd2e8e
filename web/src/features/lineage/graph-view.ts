import type { Node, ReactFlowState } from '@xyflow/react';
import { createContext } from 'react';
import { pipelineNodeTone, toneColor } from '../pipelines/states.tsx';
import type { LineageGraph as Graph, LineageNode } from './graph.ts';
import type { Positions } from './layout-engine.ts';
import type { LayoutDirection } from './layout-key.ts';

/** Below this zoom nodes draw as plain coloured boxes. */
export const DETAIL_ZOOM = 0.45;

export interface NodeStatus {
  state?: string;
  lastJobState?: string;
}

export interface LineageGraphProps {
  graph: Graph;
  positions: Positions;
  layoutKey: string;
  statuses: ReadonlyMap<string, NodeStatus>;
  selectedId: string | null;
  touched: ReadonlySet<string> | null;
  direction: LayoutDirection;
  /** Centre on this node when it changes (search and jump). */
  focus: { id: string; at: number } | null;
  onSelect: (node: LineageNode | null) => void;
  onFirstPaint?: () => void;
}

export interface GraphView {
  statuses: ReadonlyMap<string, NodeStatus>;
  selectedId: string | null;
  upstream: ReadonlySet<string>;
  downstream: ReadonlySet<string>;
  /** Nodes a global ID touched; null when no filter is set. */
  touched: ReadonlySet<string> | null;
  direction: LayoutDirection;
}

// Node components read states and highlighting from here, so a state change or a selection
// re-renders the mounted (visible) nodes without rebuilding React Flow's node list.
export const GraphViewContext = createContext<GraphView>({
  statuses: new Map(),
  selectedId: null,
  upstream: new Set(),
  downstream: new Set(),
  touched: null,
  direction: 'DOWN',
});

export type LineageFlowNode = Node<{ node: LineageNode }, 'lineage'>;

export const zoomedOutSelector = (s: ReactFlowState) => s.transform[2] < DETAIL_ZOOM;

/** A node's colour and emphasis, shared by the DOM nodes and the zoomed-out canvas. */
export function nodeLook(node: LineageNode, view: GraphView) {
  const status = view.statuses.get(node.id);
  const tone =
    node.kind === 'pipeline'
      ? pipelineNodeTone(
          status?.state as Parameters<typeof pipelineNodeTone>[0],
          status?.lastJobState as Parameters<typeof pipelineNodeTone>[1],
        )
      : null;
  const color = tone
    ? toneColor[tone]
    : node.kind === 'crossProject'
      ? 'var(--ivory-primary)'
      : 'var(--ivory-idle)';
  const selected = view.selectedId === node.id;
  const related = view.upstream.has(node.id) || view.downstream.has(node.id);
  const dimmed =
    (view.touched !== null && !view.touched.has(node.id)) ||
    (view.selectedId !== null && !selected && !related);
  return { tone, color, selected, related, dimmed };
}
