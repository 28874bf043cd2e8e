import { Grid } from 'antd';
import {
  MiniMap,
  Background,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
  type Viewport,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { testIds } from '../../test-ids.ts';
import { useColorMode } from '../../ui/theme/color-mode.tsx';
import {
  GraphViewContext,
  nodeLook,
  zoomedOutSelector,
  type LineageFlowNode,
  type LineageGraphProps,
} from './graph-view.ts';
import InitialViewport from './InitialViewport.tsx';
import { nodeTypes } from './LineageNodeView.tsx';
import OverviewCanvas from './OverviewCanvas.tsx';
import { useFlowElements } from './use-flow-elements.ts';
import { useViewportFollow } from './use-viewport-follow.ts';
import { firstViewport, fitOptions, MIN_ZOOM, nodeAt, showsMinimap } from './viewport.ts';

export { DETAIL_ZOOM, type LineageGraphProps, type NodeStatus } from './graph-view.ts';

let rendered = false;

function Flow(props: LineageGraphProps & { initialViewport: Viewport | null }) {
  const { graph, positions, layoutKey, focus, onSelect } = props;
  if (!rendered) {
    rendered = true;
    performance.mark('lineage:render-start');
  }
  const flow = useReactFlow();
  const zoomedOut = useStore(zoomedOutSelector);
  const { nodes, edges, view } = useFlowElements(props, zoomedOut);
  const { mode } = useColorMode();
  // On phone-sized windows the minimap would cover half the graph; zoom and fit stay.
  const minimap = Grid.useBreakpoint().sm !== false;
  useViewportFollow(graph, positions, layoutKey, focus, minimap, props.selectedId);
  const painted = useRef(false);
  const { onFirstPaint } = props;
  useEffect(() => {
    if (painted.current) return;
    painted.current = true;
    performance.mark('lineage:committed');
    requestAnimationFrame(() => onFirstPaint?.());
  }, [onFirstPaint]);

  return (
    <GraphViewContext value={view}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        colorMode={mode}
        onlyRenderVisibleElements
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        minZoom={MIN_ZOOM}
        maxZoom={2}
        onNodeClick={(_, node) => onSelect((node as LineageFlowNode).data.node)}
        onPaneClick={(event) => {
          if (!zoomedOut) return onSelect(null);
          // Zoomed out the nodes are drawn on the canvas: find the one under the pointer.
          const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
          onSelect(nodeAt(graph, positions, at) ?? null);
        }}
        defaultViewport={props.initialViewport ?? undefined}
        fitView={props.initialViewport === null}
        fitViewOptions={fitOptions(minimap)}
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={24} />
        <Controls showInteractive={false} />
        {/* Zoomed out, the nodes are drawn on the overview canvas and hidden from React Flow,
            whose minimap would then be an empty box: the overview is the map. */}
        {minimap && !zoomedOut ? (
          <MiniMap
            pannable
            zoomable
            ariaLabel="Lineage minimap"
            bgColor="var(--ivory-bg)"
            maskColor="rgba(128, 128, 128, 0.25)"
            nodeColor={(node) => nodeLook((node as LineageFlowNode).data.node, view).color}
          />
        ) : null}
        {zoomedOut ? <OverviewCanvas graph={graph} positions={positions} view={view} /> : null}
      </ReactFlow>
    </GraphViewContext>
  );
}

/** The lineage drawn with React Flow: culled to the viewport, simpler boxes when zoomed out. */
export default function LineageGraph(props: LineageGraphProps) {
  const ref = useRef<HTMLDivElement>(null);
  // The pane's size, read once before React Flow first renders (for the fitted first viewport).
  const [pane, setPane] = useState<{ width: number; height: number } | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el) setPane({ width: el.clientWidth, height: el.clientHeight });
  }, []);
  const viewport = useMemo(
    () =>
      pane && pane.width > 0 && pane.height > 0
        ? firstViewport(
            props.graph,
            props.positions,
            pane,
            showsMinimap(window.innerWidth),
            props.selectedId,
          )
        : null,
    // Only the first viewport matters: React Flow reads it once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [pane],
  );
  return (
    <div
      ref={ref}
      data-testid={testIds.lineageGraph}
      data-node-count={props.graph.nodes.length}
      style={{ width: '100%', height: '100%' }}
    >
      {pane ? (
        <ReactFlowProvider>
          <InitialViewport viewport={viewport}>
            <Flow {...props} initialViewport={viewport} />
          </InitialViewport>
        </ReactFlowProvider>
      ) : null}
    </div>
  );
}
