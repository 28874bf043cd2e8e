import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { screenRoutes } from '../../router.tsx';
import { createFakeApiClient } from '../../../test/fake-api-client.ts';
import { renderApp } from '../../../test/render.tsx';

/** The shell's paths (spec section 2, "Shell of the variant application, in match order"). */
const shellOrder = [
  '/lineage/:projectId/create/pipeline',
  '/lineage/:projectId/update/pipeline/:pipelineId',
  '/lineage/:projectId/duplicate/pipeline/:pipelineId',
  '/project/:projectId',
  '/lineage/:projectId',
  '/flow/:name?',
  '/case/:name?',
  '/updatebolt/:name?',
  '/setup',
  '/not-found',
  '/',
  '*',
];

describe('shell route table', () => {
  const deps = {
    queryClient: new QueryClient(),
    client: createFakeApiClient({}),
    apiAccessible: async () => false,
  };
  // Depth first: the project shell's layout route holds the project and lineage screens.
  const flatten = (routes: RouteObject[]): Array<string | undefined> =>
    routes.flatMap((route) => (route.children ? flatten(route.children) : [route.path]));
  const paths = flatten(screenRoutes(deps));

  it('holds the shell paths in the spec match order, with * last', () => {
    const positions = shellOrder.map((path) => paths.indexOf(path));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(paths.at(-1)).toBe('*');
    expect(paths).toContain('/flows');
    expect(paths).toContain('/bolt');
  });

  it.each([
    ['/bolt', 'Bolts'],
    ['/flow', 'Flows'],
    ['/case', 'Cases'],
    ['/setup', 'Setup'],
    ['/', 'Benchmarking'],
    ['/flows', 'Benchmarking'],
  ])(
    '%s renders %s',
    async (path, heading) => {
      renderApp(path);
      expect(
        await screen.findByRole('heading', { name: heading, level: 2 }, { timeout: 15_000 }),
      ).toBeInTheDocument();
    },
    20_000,
  );

  it(
    '/updatebolt/:name opens the upload modal over the bolts list',
    { timeout: 20_000 },
    async () => {
      renderApp('/updatebolt/soc');
      expect(
        await screen.findByRole('heading', { name: 'Upload Files', level: 2 }, { timeout: 15_000 }),
      ).toBeInTheDocument();
      expect(await screen.findByText('Upload your file on the left!')).toBeInTheDocument();
      expect(screen.getByText('Total: 0 files')).toBeInTheDocument();
      expect(screen.getByPlaceholderText('please input file path')).toHaveValue('/rtl');
      expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
    },
  );
});
