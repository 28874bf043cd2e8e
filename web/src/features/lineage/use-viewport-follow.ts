import { useReactFlow, useStoreApi } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import type { LineageGraph as Graph } from './graph.ts';
import { nodeSize, type Positions } from './layout-engine.ts';
import { DETAIL_ZOOM } from './graph-view.ts';
import { centredOn, fitOptions } from './viewport.ts';

/**
 * Moves the viewport after the first render: fits the graph again when the layout changes
 * (direction, new nodes; the first layout is fitted by the initial viewport) and centres on the
 * focused node when the focus changes (search and jump). A refit that would draw the selected
 * node too small to read centres on it at 100 % instead (as the first viewport does).
 */
export function useViewportFollow(
  graph: Graph,
  positions: Positions,
  layoutKey: string,
  focus: { id: string; at: number } | null,
  minimap: boolean,
  selectedId: string | null,
) {
  const flow = useReactFlow();
  const store = useStoreApi();
  const selected = useRef(selectedId);
  selected.current = selectedId;
  const fitted = useRef<string | null>(layoutKey);
  useEffect(() => {
    if (fitted.current === layoutKey) return;
    fitted.current = layoutKey;
    void flow.fitView(fitOptions(minimap)).then(() => {
      const id = selected.current;
      if (id === null || flow.getZoom() >= DETAIL_ZOOM) return;
      const { width, height } = store.getState();
      const view = centredOn(graph, positions, id, { width, height }, minimap);
      if (view) void flow.setViewport(view);
    });
    // Refit on a new layout only; graph and positions change with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flow, store, layoutKey, minimap]);

  useEffect(() => {
    if (!focus) return;
    const p = positions[focus.id];
    if (!p) return;
    const node = graph.nodes.find((n) => n.id === focus.id);
    const size = nodeSize(node?.kind ?? 'repo');
    void flow.setCenter(p.x + size.width / 2, p.y + size.height / 2, { zoom: 1, duration: 300 });
  }, [focus, flow, positions, graph.nodes]);
}
