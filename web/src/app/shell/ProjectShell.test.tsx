import { screen, waitFor, within } from '@testing-library/react';
import { ApiError } from '@ivory/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { renderApp } from '../../test/render.tsx';
import { testIds } from '../../test-ids.ts';
import { stubViewportWidth } from '../../test/viewport.ts';

const api = () =>
  createFakeApiClient({
    'pfs_v2.API/ListProject': () => [{ project: { name: 'default' } }],
    'pps_v2.API/PipelinesSummary': () => ({
      summaries: [
        {
          project: { name: 'default' },
          activePipelines: '2',
          pausedPipelines: '0',
          failedPipelines: '0',
          unhealthyPipelines: '0',
        },
      ],
    }),
    'pps_v2.API/ListJob': () => [],
    'pps_v2.API/ListJobSet': () => [],
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ProjectShell header', () => {
  it('on a 420 px window collapses search and navigation into buttons that open them', async () => {
    stubViewportWidth(420);
    const { user, router } = renderApp('/project/default/jobs', api());
    const header = await screen.findByTestId(testIds.appHeader, {}, { timeout: 10_000 });

    // The health keeps its count and its whole name (the word is only visually hidden).
    expect(await within(header).findByTestId(testIds.projectHealth)).toHaveTextContent('2 healthy');
    // Search is a button; the side navigation is not on the page.
    expect(within(header).queryByTestId(testIds.projectSearch)).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Project' })).toBeNull();
    for (const name of ['Cluster', 'Connect', /^Switch to the/]) {
      expect(
        within(header).getByRole(name === 'Cluster' ? 'link' : 'button', { name }),
      ).toBeVisible();
    }

    const openSearch = within(header).getByRole('button', { name: 'Open search' });
    expect(openSearch).toHaveAttribute('aria-expanded', 'false');
    await user.click(openSearch);
    const panel = await screen.findByRole('dialog', { name: 'Find in the project' });
    const search = within(panel).getByRole('combobox', { name: 'Search the project' });
    await waitFor(() => expect(search).toHaveFocus());
    expect(openSearch).toHaveAttribute('aria-expanded', 'true');

    await user.keyboard('{Escape}');
    await user.click(within(header).getByRole('button', { name: 'Open navigation' }));
    const nav = await screen.findByRole('navigation', { name: 'Project' });
    expect(nav).toHaveAttribute('data-minimised', 'false');
    await user.click(within(nav).getByRole('link', { name: 'Secrets' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/default/secrets'));
    // Following a link closes the drawer.
    await waitFor(() =>
      expect(within(header).getByRole('button', { name: 'Open navigation' })).toHaveAttribute(
        'aria-expanded',
        'false',
      ),
    );
  });

  it('on a 1400 px window shows the search field and the side navigation in the page', async () => {
    stubViewportWidth(1400);
    renderApp('/project/default/jobs', api());
    const header = await screen.findByTestId(testIds.appHeader, {}, { timeout: 10_000 });
    expect(await within(header).findByTestId(testIds.projectSearch)).toBeVisible();
    expect(within(header).queryByRole('button', { name: 'Open search' })).toBeNull();
    expect(within(header).queryByRole('button', { name: 'Open navigation' })).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Project' })).toHaveAttribute(
      'data-minimised',
      'false',
    );
  });
});

describe('ProjectShell: a project that does not exist', () => {
  it('says so inside the frame instead of showing an empty project', async () => {
    const client = createFakeApiClient({
      'pfs_v2.API/ListProject': () => [{ project: { name: 'default' } }],
      'pfs_v2.API/InspectProject': () => {
        throw new ApiError(5, 'project nope not found');
      },
      'pfs_v2.API/ListRepo': () => [],
      'pfs_v2.API/ReposSummary': () => ({ summaries: [] }),
    });
    renderApp('/project/nope/repos', client);
    expect(
      await screen.findByText(
        'Unable to locate this resource, are you sure it exists?',
        {},
        { timeout: 10_000 },
      ),
    ).toBeVisible();
    expect(screen.getByTestId(testIds.projectShell)).toContainElement(
      screen.getByTestId(testIds.appHeader),
    );
    expect(screen.queryByRole('button', { name: /Create repo/ })).toBeNull();
  }, 20_000);
});
