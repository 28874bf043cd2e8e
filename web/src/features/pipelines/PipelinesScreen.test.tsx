import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { JobInfo } from '@ivory/api';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { renderApp } from '../../test/render.tsx';
import { testIds } from '../../test-ids.ts';
import { demoPipelines } from '../lineage/fixtures.ts';

const demoJob: JobInfo = {
  job: { id: 'abcdef0123456789', pipeline: { name: 'summary', project: { name: 'default' } } },
  pipelineVersion: '1',
  outputCommit: null,
  authToken: '',
  restart: '0',
  dataProcessed: '2',
  dataSkipped: '0',
  dataTotal: '2',
  dataFailed: '0',
  dataRecovered: '0',
  stats: null,
  state: 'JOB_SUCCESS',
  reason: '',
  created: '2026-01-01T00:00:00Z',
  started: '2026-01-01T00:00:01Z',
  finished: '2026-01-01T00:00:05Z',
  details: null,
};

function client() {
  return createFakeApiClient({
    'pps_v2.API/ListPipeline': () => demoPipelines,
    'pps_v2.API/InspectPipeline': (body) =>
      demoPipelines.find(
        (p) => p.pipeline.name === (body as { pipeline: { name: string } }).pipeline.name,
      ),
    'pps_v2.API/ListJob': () => [demoJob],
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

  it('honours the tab in /project/:projectId/pipelines/:tabId', async () => {
    const { user, router } = renderApp('/project/default/pipelines/jobs', client());
    const jobsTab = await screen.findByRole('tab', { name: 'Jobs' }, { timeout: 10_000 });
    expect(jobsTab).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByTestId(testIds.jobRow, {}, { timeout: 10_000 })).toHaveTextContent(
      'abcdef012345',
    );
    expect(screen.queryByTestId(testIds.pipelineRow)).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Pipelines' }));
    expect(router.state.location.pathname).toBe('/project/default/pipelines');
    expect(await screen.findAllByTestId(testIds.pipelineRow)).toHaveLength(3);
    expect(screen.getByRole('tab', { name: 'Pipelines' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByTestId(testIds.jobRow)).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Jobs' }));
    expect(router.state.location.pathname).toBe('/project/default/pipelines/jobs');
    expect(await screen.findByTestId(testIds.jobRow)).toBeInTheDocument();
  }, 30_000);

  it('shows the list for /pipelines/list and redirects an unknown tab to the list', async () => {
    const listed = renderApp('/project/default/pipelines/list', client());
    expect(await screen.findAllByTestId(testIds.pipelineRow, {}, { timeout: 10_000 })).toHaveLength(
      3,
    );
    expect(screen.getByRole('tab', { name: 'Pipelines' })).toHaveAttribute('aria-selected', 'true');
    listed.unmount();

    const { router } = renderApp('/project/default/pipelines/bogus', client());
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/default/pipelines'));
    expect(await screen.findAllByTestId(testIds.pipelineRow, {}, { timeout: 10_000 })).toHaveLength(
      3,
    );
  }, 30_000);
});
