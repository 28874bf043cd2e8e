import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { renderApp } from '../../test/render.tsx';
import { testIds } from '../../test-ids.ts';
import { demoPipelines } from '../lineage/fixtures.ts';

function client() {
  return createFakeApiClient({
    'pps_v2.API/ListPipeline': () => demoPipelines,
    'pps_v2.API/InspectPipeline': (body) =>
      demoPipelines.find(
        (p) => p.pipeline.name === (body as { pipeline: { name: string } }).pipeline.name,
      ),
    'pps_v2.API/ListJob': () => [],
    'pps_v2.API/StopPipeline': () => ({}),
  });
}

describe('PipelinesScreen', () => {
  it('lists pipelines with their states and pauses one from its panel', async () => {
    const api = client();
    const { user } = renderApp('/project/default/pipelines', api);
    const rows = await screen.findAllByTestId(testIds.pipelineRow, {}, { timeout: 10_000 });
    expect(rows).toHaveLength(3);
    const summary = rows.find((r) => r.textContent?.includes('summary')) as HTMLElement;
    expect(within(summary).getByTestId(testIds.pipelineState)).toHaveAttribute(
      'data-state',
      'PIPELINE_STANDBY',
    );
    await user.click(within(summary).getByRole('button', { name: 'Details' }));
    const panel = await screen.findByTestId(testIds.pipelinePanel, {}, { timeout: 10_000 });
    await user.click(within(panel).getByRole('button', { name: 'Pause' }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'pps_v2.API/StopPipeline')).toBe(true),
    );
    const stop = api.calls.find((c) => c.method === 'pps_v2.API/StopPipeline');
    expect(stop?.body).toEqual({ pipeline: { project: { name: 'default' }, name: 'summary' } });
  }, 30_000);
});
