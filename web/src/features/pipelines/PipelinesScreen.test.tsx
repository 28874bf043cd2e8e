import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { JobInfo } from '@ivory/api';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { renderApp } from '../../test/render.tsx';
import { testIds } from '../../test-ids.ts';
import { demoPipelines, pipelineInfo } from '../lineage/fixtures.ts';

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

describe('pipelines pages', () => {
  // The platform's RECENT order: p-44 changed last, p-00 first.
  const recent = Array.from({ length: 45 }, (_, i) => `p-${String(44 - i).padStart(2, '0')}`);
  const infoOf = (name: string) =>
    pipelineInfo(
      name,
      { pfs: { repo: 'src', glob: '/' } },
      name === 'p-43'
        ? { state: 'PIPELINE_PAUSED', lastJobState: 'JOB_FAILURE' }
        : { state: 'PIPELINE_RUNNING', lastJobState: 'JOB_SUCCESS' },
    );

  it("draws the first page, each row's state and last job, from one ListPipeline page", async () => {
    const api = createFakeApiClient({
      'pps_v2.API/ListPipeline': (body) => {
        const page = (body as { page?: { order: string; pageSize: string; pageIndex: string } })
          .page;
        const names = page ? recent : [...recent].sort();
        const start = page ? Number(page.pageIndex) * Number(page.pageSize) : 0;
        const end = page ? start + Number(page.pageSize) : names.length;
        return names.slice(start, end).map(infoOf);
      },
      'pps_v2.API/PipelinesSummary': () => ({
        summaries: [
          {
            project: { name: 'default' },
            activePipelines: '44',
            pausedPipelines: '1',
            failedPipelines: '0',
            unhealthyPipelines: '1',
          },
        ],
      }),
    });
    const { user } = renderApp('/project/default/pipelines', api);
    const rows = await screen.findAllByTestId(testIds.pipelineRow, {}, { timeout: 10_000 });
    expect(rows).toHaveLength(25);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(
      recent.slice(0, 25),
    );
    expect(within(rows[1] as HTMLElement).getByTestId(testIds.pipelineState)).toHaveAttribute(
      'data-state',
      'PIPELINE_PAUSED',
    );
    expect(rows[1]).toHaveTextContent(/failure/i);
    expect(await screen.findByText(/45 pipelines/)).toBeInTheDocument();
    const lists = () => api.calls.filter((c) => c.method === 'pps_v2.API/ListPipeline');
    // One call drew the page (more only when the 3 s poll asks for the same page again).
    expect(lists().length).toBeGreaterThan(0);
    for (const call of lists())
      expect(call.body).toMatchObject({
        projects: [{ name: 'default' }],
        page: { order: 'RECENT', pageSize: '25', pageIndex: '0' },
      });
    // Nothing is asked per row (the count is the header's PipelinesSummary).
    const others = api.calls.filter(
      (c) =>
        c.method.startsWith('pps_v2.API/') &&
        c.method !== 'pps_v2.API/ListPipeline' &&
        c.method !== 'pps_v2.API/PipelinesSummary',
    );
    expect(others).toEqual([]);

    await user.click(screen.getByTitle('2'));
    await waitFor(
      () => expect(screen.getAllByTestId(testIds.pipelineRow)[0]).toHaveTextContent('p-19'),
      { timeout: 10_000 },
    );
    expect(screen.getAllByTestId(testIds.pipelineRow)).toHaveLength(20);
    expect(lists().at(-1)?.body).toMatchObject({ page: { pageIndex: '1' } });

    // Sorting by name needs every pipeline: one unpaged call, sorted here.
    await user.click(screen.getByText('Name'));
    await waitFor(
      () => expect(screen.getAllByTestId(testIds.pipelineRow)[0]).toHaveTextContent('p-00'),
      { timeout: 10_000 },
    );
    expect(lists().at(-1)?.body).not.toHaveProperty('page');
    expect(screen.getAllByTestId(testIds.pipelineRow)[1]).toHaveTextContent('p-01');
  }, 30_000);
});
