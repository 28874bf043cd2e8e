import { MarkerType, type Edge } from '@xyflow/react';
import { useMemo } from 'react';
import { isHighlightedEdge, lineageOf } from './graph.ts';
import type { GraphView, LineageFlowNode, LineageGraphProps } from './graph-view.ts';
import { nodeSize } from './layout-engine.ts';

export type FlowElementsInput = Pick<
  LineageGraphProps,
  'graph' | 'positions' | 'layoutKey' | 'statuses' | 'selectedId' | 'touched' | 'direction'
>;

/**
 * React Flow's nodes and edges for the lineage, and the view (states, selection, highlighting)
 * the node components read from the context. Zoomed out there are no edges and hidden nodes:
 * the overview canvas draws them.
 */
export function useFlowElements(props: FlowElementsInput, zoomedOut: boolean) {
  const { graph, positions, layoutKey, selectedId } = props;
  const nodes = useMemo<LineageFlowNode[]>(
    () =>
      graph.nodes.map((node) => ({
        id: node.id,
        type: 'lineage',
        position: positions[node.id] ?? { x: 0, y: 0 },
        data: { node },
        ...nodeSize(node.kind),
        draggable: false,
        connectable: false,
        hidden: zoomedOut,
      })),
    // The node list changes with the layout (and the detail level) only; states come through
    // the context.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [layoutKey, positions, zoomedOut],
  );
  const lineage = useMemo(
    () =>
      selectedId
        ? lineageOf(graph.edges, selectedId)
        : { upstream: new Set<string>(), downstream: new Set<string>() },
    [graph.edges, selectedId],
  );
  const edges = useMemo<Edge[]>(
    () =>
      zoomedOut
        ? []
        : graph.edges.map((edge) => {
            const on = selectedId !== null && isHighlightedEdge(edge, selectedId, lineage);
            return {
              id: edge.id,
              source: edge.source,
              target: edge.target,
              animated: on,
              markerEnd: {
                type: MarkerType.ArrowClosed,
                width: 16,
                height: 16,
                color: on ? 'var(--ivory-focus)' : 'var(--ivory-idle)',
              },
              style: on
                ? { stroke: 'var(--ivory-focus)', strokeWidth: 2.5 }
                : { stroke: 'var(--ivory-idle)' },
            };
          }),
    [graph.edges, selectedId, lineage, zoomedOut],
  );
  const view = useMemo<GraphView>(
    () => ({
      statuses: props.statuses,
      selectedId,
      upstream: lineage.upstream,
      downstream: lineage.downstream,
      touched: props.touched,
      direction: props.direction,
    }),
    [props.statuses, selectedId, lineage, props.touched, props.direction],
  );
  return { nodes, edges, view };
}
