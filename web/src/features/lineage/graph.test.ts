import { describe, expect, it } from 'vitest';
import { demoPipelines, demoRepos, pipelineInfo } from './fixtures.ts';
import { buildLineageGraph, isHighlightedEdge, lineageOf } from './graph.ts';
import { layoutKey } from './layout-key.ts';

const graph = buildLineageGraph('default', demoPipelines, demoRepos);
const kinds = Object.fromEntries(graph.nodes.map((n) => [n.id, n.kind]));
const edgeIds = graph.edges.map((e) => e.id).sort();

describe('buildLineageGraph', () => {
  it('draws each pipeline with its output repo as one node', () => {
    expect(kinds['repo:default/samples']).toBe('repo');
    expect(kinds['repo:default/scratch']).toBe('repo');
    expect(kinds['repo:default/row-counts']).toBeUndefined();
    expect(kinds['pipeline:default/row-counts']).toBe('pipeline');
    expect(graph.nodes).toHaveLength(7);
  });

  it('links inputs to pipelines and pipelines to downstream pipelines', () => {
    expect(edgeIds).toEqual([
      'pipeline:default/row-counts->pipeline:default/summary',
      'repo:default/nightly_tick->pipeline:default/nightly',
      'repo:default/samples->pipeline:default/row-counts',
      'repo:shared/labels->pipeline:default/summary',
    ]);
  });

  it('marks cron tick repos and repos of other projects', () => {
    expect(kinds['repo:default/nightly_tick']).toBe('cron');
    expect(kinds['repo:shared/labels']).toBe('crossProject');
  });

  it('keeps pipeline states on the nodes', () => {
    const g = buildLineageGraph(
      'default',
      [
        pipelineInfo(
          'p',
          { pfs: { repo: 'a' } },
          { state: 'PIPELINE_PAUSED', lastJobState: 'JOB_FAILURE' },
        ),
      ],
      [],
    );
    expect(g.nodes.find((n) => n.kind === 'pipeline')).toMatchObject({
      state: 'PIPELINE_PAUSED',
      lastJobState: 'JOB_FAILURE',
    });
    // An input repo missing from the repo list is still drawn.
    expect(g.nodes.map((n) => n.id)).toContain('repo:default/a');
  });
});

describe('lineageOf', () => {
  it('finds everything upstream and downstream of a node', () => {
    const { upstream, downstream } = lineageOf(graph.edges, 'pipeline:default/row-counts');
    expect([...upstream]).toEqual(['repo:default/samples']);
    expect([...downstream]).toEqual(['pipeline:default/summary']);
    const summary = lineageOf(graph.edges, 'pipeline:default/summary');
    expect([...summary.upstream].sort()).toEqual([
      'pipeline:default/row-counts',
      'repo:default/samples',
      'repo:shared/labels',
    ]);
    expect(summary.downstream.size).toBe(0);
  });

  it('highlights only edges on those paths', () => {
    const id = 'pipeline:default/row-counts';
    const lineage = lineageOf(graph.edges, id);
    const highlighted = graph.edges
      .filter((e) => isHighlightedEdge(e, id, lineage))
      .map((e) => e.id);
    expect(highlighted.sort()).toEqual([
      'pipeline:default/row-counts->pipeline:default/summary',
      'repo:default/samples->pipeline:default/row-counts',
    ]);
  });
});

describe('layoutKey', () => {
  it('ignores order and states but not shape or direction', () => {
    const again = buildLineageGraph(
      'default',
      [...demoPipelines].reverse().map((p) => ({ ...p, state: 'PIPELINE_RUNNING' as const })),
      [...demoRepos].reverse(),
    );
    expect(layoutKey(again, 'DOWN')).toBe(layoutKey(graph, 'DOWN'));
    expect(layoutKey(graph, 'RIGHT')).not.toBe(layoutKey(graph, 'DOWN'));
    const smaller = { nodes: graph.nodes.slice(1), edges: graph.edges };
    expect(layoutKey(smaller, 'DOWN')).not.toBe(layoutKey(graph, 'DOWN'));
  });
});
