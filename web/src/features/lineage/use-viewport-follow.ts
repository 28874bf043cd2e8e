import { useReactFlow } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import type { LineageGraph as Graph } from './graph.ts';
import { nodeSize, type Positions } from './layout-engine.ts';
import { fitOptions } from './viewport.ts';

/**
 * Moves the viewport after the first render: fits the graph again when the layout changes
 * (direction, new nodes; the first layout is fitted by the initial viewport) and centres on the
 * focused node when the focus changes (search and jump).
 */
export function useViewportFollow(
  graph: Graph,
  positions: Positions,
  layoutKey: string,
  focus: { id: string; at: number } | null,
  minimap: boolean,
) {
  const flow = useReactFlow();
  const fitted = useRef<string | null>(layoutKey);
  useEffect(() => {
    if (fitted.current === layoutKey) return;
    fitted.current = layoutKey;
    void flow.fitView(fitOptions(minimap));
  }, [flow, layoutKey, minimap]);

  useEffect(() => {
    if (!focus) return;
    const p = positions[focus.id];
    if (!p) return;
    const node = graph.nodes.find((n) => n.id === focus.id);
    const size = nodeSize(node?.kind ?? 'repo');
    void flow.setCenter(p.x + size.width / 2, p.y + size.height / 2, { zoom: 1, duration: 300 });
  }, [focus, flow, positions, graph.nodes]);
}
