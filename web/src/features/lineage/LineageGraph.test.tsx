import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testIds } from '../../test-ids.ts';
import { stubViewportWidth } from '../../test/viewport.ts';
import { demoPipelines, demoRepos } from './fixtures.ts';
import { buildLineageGraph } from './graph.ts';
import LineageGraph from './LineageGraph.tsx';
import { layoutLineage } from './layout.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The demo lineage laid out and drawn, as the lineage screen and a flow's graph draw it. */
async function renderGraph() {
  const graph = buildLineageGraph('default', demoPipelines, demoRepos);
  const layout = layoutLineage(graph, 'DOWN');
  const positions = await layout.positions;
  render(
    <div style={{ width: 800, height: 600 }}>
      <LineageGraph
        graph={graph}
        positions={positions}
        layoutKey={layout.key}
        direction="DOWN"
        statuses={new Map()}
        selectedId={null}
        touched={null}
        focus={null}
        onSelect={() => {}}
      />
    </div>,
  );
  await screen.findByTestId(testIds.lineageGraph);
  // React Flow has mounted when its controls are there.
  await screen.findByRole('button', { name: /fit view/i });
}

describe('LineageGraph minimap', () => {
  it('is drawn on a wide window', async () => {
    stubViewportWidth(1440);
    await renderGraph();
    expect(screen.getByRole('img', { name: 'Lineage minimap' })).toBeInTheDocument();
  });

  it('is left out on a phone-sized (420 px) window, where it would cover half the graph', async () => {
    stubViewportWidth(420);
    await renderGraph();
    expect(screen.queryByRole('img', { name: 'Lineage minimap' })).toBeNull();
  });
});
