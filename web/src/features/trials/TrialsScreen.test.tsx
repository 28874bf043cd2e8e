import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { renderApp } from '../../test/render.tsx';
import { testIds } from '../../test-ids.ts';
import { trialFixture } from './test-fixtures.ts';

const trials = [
  trialFixture('1'.repeat(32), {
    parameters: { lr: '0.4' },
    metrics: [{ name: 'accuracy', value: 0.8, step: '0', history: [] }],
  }),
  trialFixture('2'.repeat(32), {
    parameters: { lr: '0.3' },
    metrics: [{ name: 'accuracy', value: 0.6, step: '0', history: [] }],
  }),
];

describe('trials table', () => {
  it('sends the filter builder’s rows to ListTrial and CountTrial and keeps them in the URL', async () => {
    const client = createFakeApiClient({
      'omni_v1.API/ListTrial': () => trials,
      'omni_v1.API/CountTrial': () => ({ count: '2' }),
      'omni_v1.API/InspectFlowPlugin': () => null,
      'pps_v2.API/ListPipeline': () => [],
    });
    const { user, router } = renderApp('/project/default/trials?flow=demo', client);
    expect(await screen.findAllByTestId(testIds.trialRow, {}, { timeout: 15_000 })).toHaveLength(2);
    expect(screen.getByTestId(testIds.trialsCount)).toHaveTextContent('2 trials');
    // default columns: the discovered parameter and metric
    const table = screen.getByTestId(testIds.trialsTable);
    expect(within(table).getAllByText('metric.accuracy').length).toBeGreaterThan(0);

    await user.click(screen.getByRole('button', { name: 'Add filter' }));
    await user.type(screen.getByLabelText('Filter 1 field'), 'metric.accuracy');
    await user.click(screen.getByRole('combobox', { name: 'Filter 1 operator' }));
    await user.click(screen.getByRole('option', { name: 'GT' }));
    await user.type(screen.getByLabelText('Filter 1 value'), '0.5');
    await user.click(screen.getByTestId(testIds.trialsFilterApply));

    await waitFor(() =>
      expect(new URLSearchParams(router.state.location.search).getAll('f')).toEqual([
        'metric.accuracy:GT:0.5',
      ]),
    );
    const filters = [{ field: 'metric.accuracy', operator: 'GT', value: '0.5' }];
    await waitFor(() => {
      const last = (method: string) =>
        client.calls.filter((call) => call.method === method).at(-1)?.body;
      expect(last('omni_v1.API/ListTrial')).toMatchObject({ flow: 'demo', filters });
      expect(last('omni_v1.API/CountTrial')).toMatchObject({ flow: 'demo', filters });
    });
  }, 30_000);
});
