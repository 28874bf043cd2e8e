import { Spin } from 'antd';
import { Suspense, lazy, use, useMemo, useState } from 'react';
import type { PipelineInfo } from '@ivory/api';
import { buildLineageGraph, pipelineNodeId, type LineageGraph } from '../lineage/graph.ts';
import type { NodeStatus } from '../lineage/LineageGraph.tsx';
import { layoutLineage } from '../lineage/layout.ts';
import { EDA_PROJECT, type PipelineSummary } from './api.ts';
import { edaTestIds } from './test-ids.ts';

const LineageGraphView = lazy(() => import('../lineage/LineageGraph.tsx'));

function LaidOut({
  graph,
  statuses,
}: {
  graph: LineageGraph;
  statuses: ReadonlyMap<string, NodeStatus>;
}) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const layout = useMemo(() => layoutLineage(graph, 'DOWN'), [graph]);
  const positions = use(layout.positions);
  return (
    <LineageGraphView
      graph={graph}
      positions={positions}
      layoutKey={layout.key}
      direction="DOWN"
      statuses={statuses}
      selectedId={selectedId}
      touched={null}
      focus={null}
      onSelect={(node) => setSelectedId(node?.id ?? null)}
    />
  );
}

/**
 * A flow's stages drawn with the lineage graph: the flow's pipelines (each with its output repo)
 * and the repos they read, laid out top to bottom.
 */
export function FlowGraph({ pipelines }: { pipelines: readonly PipelineSummary[] }) {
  // The graph's shape changes only when a stage or its input changes; states come every poll.
  const shape = pipelines
    .map((p) => `${p.pipeline.name}:${JSON.stringify(p.details?.input ?? null)}`)
    .sort()
    .join('|');
  const graph = useMemo(
    () => buildLineageGraph(EDA_PROJECT, pipelines as unknown as PipelineInfo[], []),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [shape],
  );
  const statuses = useMemo(() => {
    const map = new Map<string, NodeStatus>();
    for (const p of pipelines)
      map.set(pipelineNodeId(p.pipeline.project?.name || EDA_PROJECT, p.pipeline.name), {
        state: p.state,
        lastJobState: p.lastJobState,
      });
    return map;
  }, [pipelines]);
  return (
    <div data-testid={edaTestIds.flowGraph} style={{ height: 420, border: '1px solid #d0d7de' }}>
      {graph.nodes.length > 0 ? (
        <Suspense fallback={<Spin style={{ margin: 24 }} />}>
          <LaidOut graph={graph} statuses={statuses} />
        </Suspense>
      ) : null}
    </div>
  );
}
