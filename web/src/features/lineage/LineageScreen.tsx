import { Alert, AutoComplete, Button, Flex, Input, Segmented, Spin, Tag, Typography } from 'antd';
import { Suspense, lazy, use, useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { testIds } from '../../test-ids.ts';
import {
  PanelResizeHandle,
  ResizablePanel,
  ResizablePanels,
} from '../../ui/ResizablePanels/index.ts';
import { usePipelines } from '../pipelines/api.ts';
import { paths } from '../pipelines/paths.ts';
import { PipelinePanel } from '../pipelines/PipelinePanel.tsx';
import { useRepos } from '../repos/api.ts';
import { useGlobalId, useLineageChanges } from './api.ts';
import {
  buildLineageGraph,
  pipelineNodeId,
  repoNodeId,
  type LineageGraph as Graph,
  type LineageNode,
} from './graph.ts';
import type { NodeStatus } from './LineageGraph.tsx';
import { LineageRepoPanel } from './LineageRepoPanel.tsx';
import { connectedCount, layoutLineage, prewarmLayoutWorker } from './layout.ts';
import styles from './LineageScreen.module.css';
import type { LayoutDirection } from './layout-key.ts';
import { Screen } from '../../ui/Screen/index.ts';

// Fetched as soon as this screen's module loads, in parallel with the graph's data and layout.
let graphModule: Promise<typeof import('./LineageGraph.tsx')> | null = null;
const loadGraphModule = () => (graphModule ??= import('./LineageGraph.tsx'));
const LineageGraphView = lazy(loadGraphModule);
const JobLogsPanel = lazy(async () => ({
  default: (await import('../logs/JobLogsPanel.tsx')).JobLogsPanel,
}));
const PipelineLogsPanel = lazy(async () => ({
  default: (await import('../logs/PipelineLogsPanel.tsx')).PipelineLogsPanel,
}));
const DIRECTION_KEY = 'ivory.lineage.direction';

function storedDirection(): LayoutDirection {
  try {
    return localStorage.getItem(DIRECTION_KEY) === 'RIGHT' ? 'RIGHT' : 'DOWN';
  } catch {
    return 'DOWN';
  }
}

/** Renders the graph once its (cached) layout has resolved. */
function LaidOutGraph({
  graph,
  direction,
  ...rest
}: {
  graph: Graph;
  direction: LayoutDirection;
  statuses: ReadonlyMap<string, NodeStatus>;
  selectedId: string | null;
  touched: ReadonlySet<string> | null;
  focus: { id: string; at: number } | null;
  onSelect: (node: LineageNode | null) => void;
}) {
  const layout = useMemo(() => layoutLineage(graph, direction), [graph, direction]);
  const positions = use(layout.positions);
  return (
    <LineageGraphView
      graph={graph}
      positions={positions}
      layoutKey={layout.key}
      direction={direction}
      onFirstPaint={() => {
        (window as { __lineagePainted?: number }).__lineagePainted = performance.now();
      }}
      {...rest}
    />
  );
}

/**
 * The project's lineage: repos, pipelines, cron and cross-project inputs as a graph, with
 * search, direction, a global-ID filter and the repo or pipeline side panel of the route.
 */
export function LineageScreen() {
  const params = useParams();
  const project = params.projectId ?? '';
  const repoId = params.repoId ?? '';
  const pipelineId = params.pipelineId ?? '';
  const jobId = params.jobId ?? '';
  // Job logs open over the graph with the job's pipeline selected on its Jobs tab.
  const tab = params.tabId ?? (jobId ? 'jobs' : 'info');
  const navigate = useNavigate();
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  const globalId = search.get('globalId') ?? '';
  const [globalInput, setGlobalInput] = useState(globalId);
  const [direction, setDirection] = useState<LayoutDirection>(storedDirection);
  const [query, setQuery] = useState('');
  const [focus, setFocus] = useState<{ id: string; at: number } | null>(null);

  useEffect(() => {
    performance.mark('lineage:screen-mounted');
    void loadGraphModule().then(() => performance.mark('lineage:graph-module'));
  }, []);
  // Listed once; later changes arrive through a cheap probe (useLineageChanges), not by
  // listing every pipeline again.
  const pipelines = usePipelines(project, { poll: false });
  // The edges come from the pipelines alone: whether the layout needs ELK's worker is known
  // before the repos arrive, so the worker (and its bundle) can load meanwhile.
  useEffect(() => {
    if (pipelines.data)
      prewarmLayoutWorker(connectedCount(buildLineageGraph(project, pipelines.data, []).edges));
  }, [project, pipelines.data]);
  useLineageChanges(project, pipelines.data !== undefined);
  const repos = useRepos(project);
  const ready = pipelines.data !== undefined && repos.data !== undefined;

  // The graph's shape changes only when pipelines or repos are added or removed, so a state
  // change (every poll) keeps the same graph object and the cached layout.
  const shape = useMemo(() => {
    if (!ready) return '';
    const names = (pipelines.data ?? []).map(
      (p) => `${p.pipeline.name}:${p.version}:${JSON.stringify(p.details?.input ?? null)}`,
    );
    return `${names.sort().join('|')}#${(repos.data ?? [])
      .map((r) => r.repo.name)
      .sort()
      .join('|')}`;
  }, [ready, pipelines.data, repos.data]);
  const graph = useMemo(
    () => {
      if (!ready) return null;
      performance.mark('lineage:data-ready');
      return buildLineageGraph(project, pipelines.data ?? [], repos.data ?? []);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [project, shape],
  );

  const global = useGlobalId(globalId);
  const touched = useMemo(() => {
    if (!globalId || !graph) return null;
    const ids = new Set<string>();
    const known = new Set(graph.nodes.map((n) => n.id));
    for (const job of global.jobs.data ?? [])
      ids.add(
        pipelineNodeId(job.job.pipeline?.project?.name ?? project, job.job.pipeline?.name ?? ''),
      );
    for (const commit of global.commits.data ?? []) {
      const p = commit.commit.repo.project?.name ?? project;
      const asPipeline = pipelineNodeId(p, commit.commit.repo.name);
      ids.add(known.has(asPipeline) ? asPipeline : repoNodeId(p, commit.commit.repo.name));
    }
    return ids;
  }, [globalId, graph, global.jobs.data, global.commits.data, project]);

  const statuses = useMemo(() => {
    const map = new Map<string, NodeStatus>();
    for (const p of pipelines.data ?? []) {
      map.set(pipelineNodeId(p.pipeline.project?.name || project, p.pipeline.name), {
        state: p.state,
        lastJobState: p.lastJobState,
      });
    }
    // With a global ID, pipelines show the state of that run's job.
    if (globalId)
      for (const job of global.jobs.data ?? []) {
        const id = pipelineNodeId(
          job.job.pipeline?.project?.name ?? project,
          job.job.pipeline?.name ?? '',
        );
        map.set(id, { ...map.get(id), lastJobState: job.state });
      }
    return map;
  }, [pipelines.data, project, globalId, global.jobs.data]);

  const selectedId = useMemo(() => {
    if (pipelineId) return pipelineNodeId(project, pipelineId);
    if (repoId) {
      const asPipeline = pipelineNodeId(project, repoId);
      return graph?.nodes.some((n) => n.id === asPipeline)
        ? asPipeline
        : repoNodeId(project, repoId);
    }
    return null;
  }, [project, pipelineId, repoId, graph]);

  const keepSearch = location.search;
  const open = useCallback(
    (node: LineageNode | null) => {
      if (!node) navigate(`${paths.lineage(project)}${keepSearch}`);
      else if (node.kind === 'pipeline')
        navigate(`${paths.lineagePipeline(node.project, node.name)}${keepSearch}`);
      else if (node.kind === 'crossProject') navigate(paths.lineageRepo(node.project, node.name));
      else navigate(`${paths.lineageRepo(node.project, node.name)}${keepSearch}`);
    },
    [navigate, project, keepSearch],
  );

  const searchOptions = useMemo(() => {
    if (!graph || query.trim() === '') return [];
    const q = query.toLowerCase();
    return graph.nodes
      .filter((n) => n.name.toLowerCase().includes(q))
      .slice(0, 20)
      .map((n) => ({
        value: n.id,
        label: `${n.name} (${n.kind === 'pipeline' ? 'pipeline' : 'repo'})`,
      }));
  }, [graph, query]);

  const selectedNode = graph?.nodes.find((n) => n.id === selectedId) ?? null;
  const error = pipelines.error ?? repos.error;

  return (
    <Screen fill style={{ display: 'flex', flexDirection: 'column' }}>
      <Flex justify="space-between" align="center">
        <Typography.Title level={2} style={{ margin: 0 }}>
          Lineage
        </Typography.Title>
        <Button
          type="primary"
          data-testid={testIds.createPipelineButton}
          onClick={() => navigate(paths.editor(project, 'create'))}
        >
          Create pipeline
        </Button>
      </Flex>
      <Flex gap={8} wrap align="center" style={{ marginBottom: 8 }}>
        <AutoComplete
          data-testid={testIds.lineageSearch}
          aria-label="Find a repo or pipeline"
          style={{ width: 240 }}
          placeholder="Find a repo or pipeline"
          value={query}
          options={searchOptions}
          onChange={setQuery}
          onSelect={(id: string) => {
            const node = graph?.nodes.find((n) => n.id === id);
            setQuery(node?.name ?? '');
            setFocus({ id, at: Date.now() });
            if (node) open(node);
          }}
        />
        <Segmented
          data-testid={testIds.lineageDirection}
          value={direction}
          options={[
            { value: 'DOWN', label: 'Top to bottom' },
            { value: 'RIGHT', label: 'Left to right' },
          ]}
          onChange={(value) => {
            const next = value as LayoutDirection;
            setDirection(next);
            try {
              localStorage.setItem(DIRECTION_KEY, next);
            } catch {
              // Storage may be unavailable; the choice then lasts for this visit.
            }
          }}
        />
        <Input.Search
          data-testid={testIds.lineageGlobalId}
          style={{ width: 320 }}
          placeholder="Global ID (job set / commit set)"
          allowClear
          value={globalInput}
          onChange={(e) => {
            setGlobalInput(e.target.value);
            if (e.target.value === '') setSearch({}, { replace: true });
          }}
          onSearch={(value) =>
            setSearch(value.trim() ? { globalId: value.trim() } : {}, { replace: true })
          }
        />
        {globalId ? (
          <Tag
            closable
            onClose={() => {
              setGlobalInput('');
              setSearch({}, { replace: true });
            }}
          >
            {global.jobs.data ? `${global.jobs.data.length} jobs` : 'loading'} ·{' '}
            {global.commits.data ? `${global.commits.data.length} commits` : ''} in{' '}
            {globalId.slice(0, 8)}
          </Tag>
        ) : null}
        {graph ? (
          <Typography.Text type="secondary">
            {graph.nodes.length} nodes · {graph.edges.length} edges
          </Typography.Text>
        ) : null}
      </Flex>
      {error ? <Alert type="error" message={error.message} /> : null}
      <ResizablePanels saveId="lineage-side-panel" className={styles.panels}>
        <ResizablePanel id="graph" defaultSize="64" minSize="30" className={styles.graph}>
          {graph ? (
            <Suspense fallback={<Spin style={{ margin: 24 }} tip="Laying out" />}>
              <LaidOutGraph
                graph={graph}
                direction={direction}
                statuses={statuses}
                selectedId={selectedId}
                touched={touched}
                focus={focus}
                onSelect={open}
              />
            </Suspense>
          ) : error ? null : (
            <Spin style={{ margin: 24 }} />
          )}
        </ResizablePanel>
        {selectedId && graph ? <PanelResizeHandle aria-label="Resize the side panel" /> : null}
        {selectedId && graph ? (
          <ResizablePanel id="side" defaultSize="36" minSize="20" className={styles.side}>
            <aside aria-label="Selection" data-testid={testIds.lineageSidePanel}>
              <Flex justify="space-between" align="center">
                <Typography.Title level={3} style={{ marginTop: 0 }}>
                  {pipelineId || repoId}
                </Typography.Title>
                <Button onClick={() => open(null)}>Close</Button>
              </Flex>
              {pipelineId ? (
                <PipelinePanel
                  project={project}
                  pipeline={pipelineId}
                  tab={tab}
                  base="lineage"
                  onTab={(t) =>
                    navigate(`${paths.lineagePipeline(project, pipelineId, t)}${keepSearch}`)
                  }
                  onDeleted={() => navigate(paths.lineage(project))}
                />
              ) : selectedNode?.kind === 'pipeline' ? (
                <PipelinePanel
                  project={project}
                  pipeline={selectedNode.name}
                  tab="info"
                  base="lineage"
                  onTab={(t) => navigate(paths.lineagePipeline(project, selectedNode.name, t))}
                />
              ) : (
                <LineageRepoPanel
                  project={project}
                  repo={repoId}
                  nodeId={selectedId}
                  graph={graph}
                />
              )}
            </aside>
          </ResizablePanel>
        ) : null}
      </ResizablePanels>
      {pipelineId && /\/logs\/pipelines\/[^/]+\/logs\/?$/.test(location.pathname) ? (
        <Suspense fallback={null}>
          <PipelineLogsPanel
            project={project}
            pipeline={pipelineId}
            onExit={() => navigate(`${paths.lineagePipeline(project, pipelineId)}${keepSearch}`)}
          />
        </Suspense>
      ) : null}
      {jobId && pipelineId ? (
        <Suspense fallback={null}>
          <JobLogsPanel
            target={{ project, pipeline: pipelineId, jobId, datumId: params.datumId ?? '' }}
            onExit={() =>
              navigate(`${paths.lineagePipeline(project, pipelineId, tab)}${keepSearch}`)
            }
          />
        </Suspense>
      ) : null}
    </Screen>
  );
}
