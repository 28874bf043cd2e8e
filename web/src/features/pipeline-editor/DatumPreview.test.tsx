import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@ivory/api';
import { ApiProvider } from '../../data/api-context.tsx';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { DatumPreview, inputOf } from './DatumPreview.tsx';

const spec = (input: unknown) =>
  JSON.stringify({ pipeline: { name: 'joined' }, transform: { cmd: ['true'] }, input });
const join = {
  join: [
    { pfs: { repo: 'left', glob: '/(*)', joinOn: '$1' } },
    { pfs: { repo: 'right', glob: '/(*)', joinOn: '$1' } },
  ],
};
const datum = (id: string, paths: [string, string][]) => ({
  datum: { id },
  data: paths.map(([repo, path]) => ({ file: { commit: { repo: { name: repo } }, path } })),
});

function renderPreview(effective: string, listDatum: (body: unknown) => unknown) {
  const client = createFakeApiClient({ 'pps_v2.API/ListDatum': listDatum });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={client}>
        <DatumPreview effective={effective} />
      </ApiProvider>
    </QueryClientProvider>,
  );
  return client;
}

describe('DatumPreview', () => {
  it("lists the datums of the spec's input, asking ListDatum with the input (a dry run)", async () => {
    const client = renderPreview(spec(join), () => [
      datum('a1', [
        ['left', '/a'],
        ['right', '/a'],
      ]),
      datum('b2', [
        ['left', '/b'],
        ['right', '/b'],
      ]),
    ]);
    const preview = await screen.findByTestId('datum-preview');
    expect(await within(preview).findByText('left:/a, right:/a')).toBeTruthy();
    expect(within(preview).getByText('left:/b, right:/b')).toBeTruthy();
    expect(within(preview).getByText(/makes 2 datums/)).toBeTruthy();
    expect(client.calls[0]).toEqual({
      method: 'pps_v2.API/ListDatum',
      body: { input: join, number: '101' },
    });
  });

  it("shows why there are none to show (the platform's refusal)", async () => {
    renderPreview(spec({ pfs: { repo: 'missing', glob: '/*' } }), () => {
      throw new ApiError(5, 'repo missing not found in project default');
    });
    expect(await screen.findByText('repo missing not found in project default')).toBeTruthy();
  });

  it('shows nothing for a spec without an input', () => {
    expect(inputOf(JSON.stringify({ pipeline: { name: 'x' } }))).toBe('');
    expect(inputOf('{not json')).toBe('');
  });
});
