import {
  MarkerType,
  MiniMap,
  Background,
  Controls,
  getViewportForBounds,
  Handle,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
  useStoreApi,
  type Edge,
  type Node,
  type NodeProps,
  type ReactFlowState,
  type Viewport,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import {
  createContext,
  memo,
  use,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import CheckCircleFilled from '@ant-design/icons-svg/es/asn/CheckCircleFilled';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import DatabaseOutlined from '@ant-design/icons-svg/es/asn/DatabaseOutlined';
import PauseCircleFilled from '@ant-design/icons-svg/es/asn/PauseCircleFilled';
import SyncOutlined from '@ant-design/icons-svg/es/asn/SyncOutlined';
import ClockCircleOutlined from '@ant-design/icons-svg/es/asn/ClockCircleOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { testIds } from '../../test-ids.ts';
import { Icon } from '../../ui/Icon/index.ts';
import { useColorMode } from '../../app/color-mode.tsx';
import { pipelineNodeTone, stateLabel, toneColor } from '../pipelines/states.tsx';
import {
  isHighlightedEdge,
  lineageOf,
  type LineageGraph as Graph,
  type LineageNode,
} from './graph.ts';
import { nodeSize, type Positions } from './layout-engine.ts';
import type { LayoutDirection } from './layout-key.ts';

/** Below this zoom nodes draw as plain coloured boxes. */
export const DETAIL_ZOOM = 0.45;

export interface NodeStatus {
  state?: string;
  lastJobState?: string;
}

interface GraphView {
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
const GraphViewContext = createContext<GraphView>({
  statuses: new Map(),
  selectedId: null,
  upstream: new Set(),
  downstream: new Set(),
  touched: null,
  direction: 'DOWN',
});

type LineageFlowNode = Node<{ node: LineageNode }, 'lineage'>;

const zoomedOutSelector = (s: ReactFlowState) => s.transform[2] < DETAIL_ZOOM;

const kindLabel: Record<string, string> = {
  repo: 'Repo',
  pipeline: 'Pipeline',
  cron: 'Cron',
  crossProject: 'Other project',
};

/** A node's colour and emphasis, shared by the DOM nodes and the zoomed-out canvas. */
function nodeLook(node: LineageNode, view: GraphView) {
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

/** A colour for the canvas, which reads no CSS custom properties: `var(--x)` resolved. */
function cssColorOf(value: string): string {
  const name = /^var\((--[\w-]+)\)$/.exec(value)?.[1];
  if (!name) return value;
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** A node card's state icon: its tone for pipelines, a database for repos. */
const toneIcon: Record<string, IconDefinition> = {
  success: CheckCircleFilled,
  error: CloseCircleFilled,
  running: SyncOutlined,
  paused: PauseCircleFilled,
  idle: ClockCircleOutlined,
};

const transformSelector = (s: ReactFlowState) => s.transform;
const sizeSelector = (s: ReactFlowState) => `${s.width}x${s.height}`;

/**
 * Level of detail: below DETAIL_ZOOM the whole graph is drawn as plain boxes and lines on one
 * canvas, redrawn per frame from the viewport transform, instead of thousands of DOM nodes.
 */
function OverviewCanvas({
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

const LineageNodeView = memo(function LineageNodeView({ data }: NodeProps<LineageFlowNode>) {
  const { node } = data;
  const view = use(GraphViewContext);
  const status = view.statuses.get(node.id);
  const { tone, color, selected, related, dimmed } = nodeLook(node, view);
  const size = nodeSize(node.kind);
  const [target, source] =
    view.direction === 'DOWN' ? [Position.Top, Position.Bottom] : [Position.Left, Position.Right];
  const style = {
    width: size.width,
    height: size.height,
    borderRadius: node.kind === 'pipeline' ? 8 : 4,
    opacity: dimmed ? 0.3 : 1,
    boxSizing: 'border-box' as const,
  };
  const handles = (
    <>
      <Handle type="target" position={target} isConnectable={false} style={{ opacity: 0 }} />
      <Handle type="source" position={source} isConnectable={false} style={{ opacity: 0 }} />
    </>
  );
  return (
    <div
      data-testid={testIds.lineageNode}
      data-node-id={node.id}
      data-tone={tone ?? node.kind}
      data-state={status?.lastJobState ?? ''}
      title={`${kindLabel[node.kind]} ${node.project}/${node.name}`}
      style={{
        ...style,
        background: 'var(--ivory-bg-raised)',
        color: 'var(--ivory-text)',
        border: `2px solid ${color}`,
        boxShadow: selected
          ? '0 0 0 3px var(--ivory-focus)'
          : related
            ? '0 0 0 2px var(--ivory-selected)'
            : undefined,
        padding: '4px 10px',
        fontSize: 12,
        overflow: 'hidden',
      }}
    >
      {handles}
      <div
        style={{ color: 'var(--ivory-text-secondary)', fontSize: 10, textTransform: 'uppercase' }}
      >
        <Icon
          icon={tone ? (toneIcon[tone] ?? ClockCircleOutlined) : DatabaseOutlined}
          style={{ color, marginRight: 4 }}
          aria-label={tone ? `state ${tone}` : undefined}
        />
        {kindLabel[node.kind]}
        {node.kind === 'crossProject' ? ` · ${node.project}` : ''}
      </div>
      <div
        style={{
          fontWeight: 600,
          whiteSpace: 'nowrap',
          textOverflow: 'ellipsis',
          overflow: 'hidden',
        }}
      >
        {node.name}
      </div>
      {node.kind === 'pipeline' ? (
        <div style={{ color, fontSize: 11 }}>
          {stateLabel(status?.state)} · last job {stateLabel(status?.lastJobState).toLowerCase()}
        </div>
      ) : null}
    </div>
  );
});

const nodeTypes = { lineage: LineageNodeView };
let rendered = false;

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

const FIT = { padding: 0.1, maxZoom: 1.2 };
const MIN_ZOOM = 0.02;

/**
 * The viewport that fits the whole graph in a pane of this size: given to React Flow as its first
 * viewport, so the first render is already at the fitted zoom (plain boxes on the canvas for a
 * large graph) instead of rendering the nodes at 100 %, measuring them and then fitting.
 */
function fittedViewport(
  graph: Graph,
  positions: Positions,
  pane: { width: number; height: number },
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
    FIT.maxZoom,
    FIT.padding,
  );
}

/**
 * Puts the fitted viewport in React Flow's store before anything reads it (the provider takes no
 * viewport, and `defaultViewport` is applied only after the first render, which would render the
 * nodes at 100 % once for nothing).
 */
function InitialViewport({
  viewport,
  children,
}: {
  viewport: Viewport | null;
  children: ReactNode;
}) {
  const store = useStoreApi();
  useState(() => {
    if (viewport) store.setState({ transform: [viewport.x, viewport.y, viewport.zoom] });
  });
  return children;
}

function Flow(props: LineageGraphProps & { initialViewport: Viewport | null }) {
  const { graph, positions, layoutKey, selectedId, focus, onSelect } = props;
  if (!rendered) {
    rendered = true;
    performance.mark('lineage:render-start');
  }
  const flow = useReactFlow();
  const zoomedOut = useStore(zoomedOutSelector);
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

  // The first layout is fitted by the initial viewport; later ones (direction, new nodes) here.
  const fitted = useRef<string | null>(layoutKey);
  useEffect(() => {
    if (fitted.current === layoutKey) return;
    fitted.current = layoutKey;
    void flow.fitView(FIT);
  }, [flow, layoutKey]);

  useEffect(() => {
    if (!focus) return;
    const p = positions[focus.id];
    if (!p) return;
    const node = graph.nodes.find((n) => n.id === focus.id);
    const size = nodeSize(node?.kind ?? 'repo');
    void flow.setCenter(p.x + size.width / 2, p.y + size.height / 2, { zoom: 1, duration: 300 });
  }, [focus, flow, positions, graph.nodes]);

  const { mode } = useColorMode();
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
          const hit = graph.nodes.find((n) => {
            const p = positions[n.id];
            const size = nodeSize(n.kind);
            return (
              p &&
              at.x >= p.x &&
              at.x <= p.x + size.width &&
              at.y >= p.y &&
              at.y <= p.y + size.height
            );
          });
          onSelect(hit ?? null);
        }}
        defaultViewport={props.initialViewport ?? undefined}
        fitView={props.initialViewport === null}
        fitViewOptions={FIT}
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={24} />
        <Controls showInteractive={false} />
        <MiniMap
          pannable
          zoomable
          ariaLabel="Lineage minimap"
          bgColor="var(--ivory-bg)"
          maskColor="rgba(128, 128, 128, 0.25)"
          nodeColor={(node) => nodeLook((node as LineageFlowNode).data.node, view).color}
        />
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
        ? fittedViewport(props.graph, props.positions, pane)
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
