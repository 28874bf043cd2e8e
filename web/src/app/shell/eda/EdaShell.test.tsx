import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApiClient } from '../../../test/fake-api-client.ts';
import { renderApp } from '../../../test/render.tsx';
import { testIds } from '../../../test-ids.ts';
import { stubViewportWidth } from '../../../test/viewport.ts';

const nav = () => screen.getByRole('navigation', { name: 'Benchmarking' });
const navLinks = [
  ['Overview', '/'],
  ['Bolts', '/bolt'],
  ['Flows', '/flow'],
  ['Cases', '/case'],
  ['Setup', '/setup'],
] as const;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('EdaShell', () => {
  it('on a 1400 px window frames a flow with the navigation, Flows current, and breadcrumbs', async () => {
    stubViewportWidth(1400);
    renderApp('/flow/yosys');
    const shell = await screen.findByTestId(testIds.edaShell, {}, { timeout: 10_000 });
    // One top bar: the shell's, with the console's controls.
    expect(screen.getAllByTestId(testIds.appHeader)).toHaveLength(1);
    expect(within(shell).getByTestId(testIds.appHeader)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Open navigation' })).toBeNull();

    expect(nav()).toHaveAttribute('data-minimised', 'false');
    const links = within(nav()).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual(navLinks);
    for (const link of links) {
      if (link.textContent === 'Flows') expect(link).toHaveAttribute('aria-current', 'page');
      else expect(link).not.toHaveAttribute('aria-current');
    }

    const crumbs = within(screen.getByTestId(testIds.shellBreadcrumbs));
    expect(crumbs.getByRole('link', { name: 'Benchmarking' })).toHaveAttribute('href', '/');
    expect(crumbs.getByRole('link', { name: 'Flows' })).toHaveAttribute('href', '/flow');
    expect(crumbs.getByText('yosys')).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByRole('heading', { name: 'yosys', level: 3 })).toBeVisible();
  });

  it('marks Overview current on / and /flows, with no breadcrumbs there', async () => {
    stubViewportWidth(1400);
    // The overview lists the console's projects below the benchmarking.
    const { router } = renderApp(
      '/flows',
      createFakeApiClient({ 'pfs_v2.API/ListProject': () => [] }),
    );
    await screen.findByTestId(testIds.edaShell, {}, { timeout: 10_000 });
    expect(within(nav()).getByRole('link', { name: 'Overview' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(screen.queryByTestId(testIds.shellBreadcrumbs)).toBeNull();
    await router.navigate('/');
    await waitFor(() =>
      expect(within(nav()).getByRole('link', { name: 'Overview' })).toHaveAttribute(
        'aria-current',
        'page',
      ),
    );
    expect(within(nav()).getByRole('link', { name: 'Flows' })).not.toHaveAttribute('aria-current');
  });

  it('keeps the navigation collapsed from /setup to the bolts, which the shell frames too', async () => {
    stubViewportWidth(1400);
    const { user, router } = renderApp('/setup');
    await screen.findByRole('heading', { name: 'Setup', level: 2 }, { timeout: 10_000 });
    await user.click(within(nav()).getByRole('button', { name: 'Collapse' }));
    expect(nav()).toHaveAttribute('data-minimised', 'true');
    await user.click(within(nav()).getByRole('link', { name: 'Bolts' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/bolt'));
    await waitFor(() =>
      expect(within(nav()).getByRole('link', { name: 'Bolts' })).toHaveAttribute(
        'aria-current',
        'page',
      ),
    );
    expect(nav()).toHaveAttribute('data-minimised', 'true');
    expect(screen.getByTestId(testIds.shellBreadcrumbs)).toHaveTextContent('BenchmarkingBolts');
  });

  it('on a 420 px window opens the navigation in a drawer that closes on navigation', async () => {
    stubViewportWidth(420);
    const { user, router } = renderApp('/flow/yosys');
    const header = await screen.findByTestId(testIds.appHeader, {}, { timeout: 10_000 });
    await screen.findByTestId(testIds.edaShell);
    expect(screen.queryByRole('navigation', { name: 'Benchmarking' })).toBeNull();

    const open = within(header).getByRole('button', { name: 'Open navigation' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    const drawer = await screen.findByRole('dialog', { name: 'Benchmarking' });
    expect(within(drawer).getByRole('link', { name: 'Flows' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await user.click(within(drawer).getByRole('link', { name: 'Setup' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/setup'));
    await waitFor(() => expect(open).toHaveAttribute('aria-expanded', 'false'));
    expect(await screen.findByRole('heading', { name: 'Setup', level: 2 })).toBeVisible();
  });
});
