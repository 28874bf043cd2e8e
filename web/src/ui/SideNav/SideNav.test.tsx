import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubViewportWidth } from '../../test/viewport.ts';
import { SideNav, type SideNavItem } from './SideNav';

const ITEMS: SideNavItem[] = [
  { to: '/projects', label: 'Projects', icon: 'P' },
  { to: '/lineage', label: 'Lineage', icon: 'L' },
  { to: '/jobs', label: 'Jobs', icon: 'J' },
];

function renderSideNav(path = '/projects') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <SideNav items={ITEMS} />
    </MemoryRouter>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('SideNav', () => {
  it('shows labelled router links, marks the current one, and moves focus with the arrow keys', async () => {
    stubViewportWidth(1400);
    const user = userEvent.setup();
    renderSideNav('/lineage');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(nav).toHaveAttribute('data-minimised', 'false');
    expect(screen.getByRole('link', { name: 'Lineage' })).toHaveAttribute('aria-current', 'page');

    await user.tab();
    expect(screen.getByRole('link', { name: 'Projects' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'Lineage' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('link', { name: 'Jobs' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'Jobs' })).toHaveFocus();
    await user.keyboard('{ArrowUp}{Home}');
    expect(screen.getByRole('link', { name: 'Projects' })).toHaveFocus();
  });

  it('marks an item current on its aliases, and only the one item', () => {
    stubViewportWidth(1400);
    render(
      <MemoryRouter initialEntries={['/home']}>
        <SideNav
          items={[
            { to: '/', label: 'Overview', icon: 'O', end: true, aliases: ['/home'] },
            ...ITEMS,
          ]}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Overview' })).toHaveAttribute('href', '/');
    for (const { label } of ITEMS) {
      expect(screen.getByRole('link', { name: label })).not.toHaveAttribute('aria-current');
    }
  });

  it('collapses and expands with the Collapse toggle on wide screens', async () => {
    stubViewportWidth(1400);
    const user = userEvent.setup();
    renderSideNav();
    const collapse = screen.getByRole('button', { name: 'Collapse' });
    expect(collapse).toHaveAttribute('aria-expanded', 'true');

    collapse.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('navigation')).toHaveAttribute('data-minimised', 'true');
    expect(collapse).toHaveAccessibleName('Expand');
    expect(collapse).toHaveAttribute('aria-expanded', 'false');
    expect(collapse).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(screen.getByRole('navigation')).toHaveAttribute('data-minimised', 'false');
  });

  it('starts minimised below 1200 px and opens and closes with the navigation toggle', async () => {
    stubViewportWidth(1199);
    const user = userEvent.setup();
    renderSideNav();
    expect(screen.getByRole('navigation')).toHaveAttribute('data-minimised', 'true');

    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    expect(screen.getByRole('navigation')).toHaveAttribute('data-minimised', 'false');
    await user.click(screen.getByRole('button', { name: 'Close navigation' }));
    expect(screen.getByRole('navigation')).toHaveAttribute('data-minimised', 'true');
  });

  it('keeps item names when minimised and shows the label as a tooltip on focus', async () => {
    stubViewportWidth(800);
    const user = userEvent.setup();
    renderSideNav();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Projects' })).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Projects');
  });
});
