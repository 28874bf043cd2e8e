import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { JobInfo } from '@ivory/api';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { renderApp } from '../../test/render.tsx';
import { testIds } from '../../test-ids.ts';

/** 60 jobs, newest first, one a minute. */
const jobs: JobInfo[] = Array.from({ length: 60 }, (_, i) => {
  const created = new Date(Date.UTC(2025, 0, 1, 12, 59 - i)).toISOString();
  return {
    job: {
      id: `job${String(i).padStart(2, '0')}`.padEnd(32, '0'),
      pipeline: { name: `pipe-${i}`, project: { name: 'default' } },
    },
    state: 'JOB_SUCCESS',
    created,
    dataProcessed: '1',
    dataTotal: '1',
    dataSkipped: '0',
    dataFailed: '0',
  } as JobInfo;
});

describe('jobs pages', () => {
  it('draws a page of 25 from one ListJob and pages on by the last row’s created time', async () => {
    const client = createFakeApiClient({
      'pps_v2.API/ListJob': (body) => {
        const { number, paginationMarker } = body as { number: string; paginationMarker?: string };
        const before = paginationMarker ? Date.parse(paginationMarker) : Infinity;
        return jobs
          .filter((job) => Date.parse(job.created ?? '') < before)
          .slice(0, Number(number));
      },
    });
    renderApp('/project/default/jobs', client);
    await waitFor(() => expect(screen.getAllByTestId(testIds.jobRow)).toHaveLength(25), {
      timeout: 15_000,
    });
    expect(screen.getAllByTestId(testIds.jobRow)[0]).toHaveTextContent('pipe-0');
    const listCalls = () => client.calls.filter((c) => c.method === 'pps_v2.API/ListJob');
    expect(listCalls()[0]?.body).toMatchObject({ number: '25' });

    screen.getByTitle('2').click();
    await waitFor(
      () => expect(screen.getAllByTestId(testIds.jobRow)[0]).toHaveTextContent('pipe-25'),
      { timeout: 15_000 },
    );
    expect(listCalls().at(-1)?.body).toMatchObject({
      number: '25',
      paginationMarker: jobs[24]?.created,
    });
    screen.getByTitle('3').click();
    await waitFor(() => expect(screen.getAllByTestId(testIds.jobRow)).toHaveLength(10), {
      timeout: 15_000,
    });
    expect(screen.getAllByTestId(testIds.jobRow)[0]).toHaveTextContent('pipe-50');
  }, 30_000);
});
