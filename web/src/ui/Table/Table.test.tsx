import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Table, type RowSelection, type TableColumn } from './Table';

type Repo = { name: string; size: number; locked: boolean };

const REPOS: Repo[] = [
  { name: 'images', size: 30, locked: false },
  { name: 'edges', size: 10, locked: true },
  { name: 'montage', size: 20, locked: false },
];

const COLUMNS: TableColumn<Repo>[] = [
  { key: 'name', title: 'Name', render: (repo) => repo.name, sortValue: (repo) => repo.name },
  {
    key: 'size',
    title: 'Size',
    render: (repo) => `${repo.size} MB`,
    sortValue: (repo) => repo.size,
  },
];

const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

function SelectableTable({ type }: { type: RowSelection['type'] }) {
  const [selectedKeys, setSelectedKeys] = useState<string[]>([]);
  return (
    <Table
      aria-label="Repositories"
      columns={COLUMNS}
      rows={REPOS}
      rowKey={(repo) => repo.name}
      selection={{ type, selectedKeys, onChange: setSelectedKeys }}
    />
  );
}

describe('Table', () => {
  it('sorts by a header with click and Enter, flipping ASC/DESC and setting aria-sort', async () => {
    const onSortChange = vi.fn();
    const user = userEvent.setup();
    render(
      <Table
        aria-label="Repositories"
        columns={COLUMNS}
        rows={REPOS}
        rowKey={(repo) => repo.name}
        onSortChange={onSortChange}
      />,
    );
    const nameHeader = screen.getByRole('columnheader', { name: /Name/ });
    const sizeHeader = screen.getByRole('columnheader', { name: /Size/ });
    expect(nameHeader).toHaveAttribute('aria-sort', 'none');
    expect(names()).toEqual(['images', 'edges', 'montage']);

    await user.click(within(sizeHeader).getByRole('button'));
    expect(sizeHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(names()).toEqual(['edges', 'montage', 'images']);

    await user.keyboard('{Enter}');
    expect(sizeHeader).toHaveAttribute('aria-sort', 'descending');
    expect(names()).toEqual(['images', 'montage', 'edges']);
    expect(onSortChange).toHaveBeenLastCalledWith({ columnKey: 'size', direction: 'DESC' });

    await user.tab({ shift: true });
    expect(within(nameHeader).getByRole('button')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(sizeHeader).toHaveAttribute('aria-sort', 'none');
    expect(names()).toEqual(['edges', 'images', 'montage']);
  });

  it('selects rows by checkbox with Space', async () => {
    const user = userEvent.setup();
    render(<SelectableTable type="checkbox" />);
    const edges = screen.getByRole('checkbox', { name: 'Select edges' });
    edges.focus();
    await user.keyboard(' ');
    expect(edges).toBeChecked();
    expect(edges.closest('tr')).toHaveAttribute('aria-selected', 'true');

    await user.tab();
    await user.keyboard(' ');
    expect(screen.getByRole('checkbox', { name: 'Select montage' })).toBeChecked();
    expect(edges).toBeChecked();

    await user.tab({ shift: true });
    await user.keyboard(' ');
    expect(edges).not.toBeChecked();
  });

  it('selects a single row by radio with Space and arrow keys', async () => {
    const user = userEvent.setup();
    render(<SelectableTable type="radio" />);
    const images = screen.getByRole('radio', { name: 'Select images' });
    images.focus();
    await user.keyboard(' ');
    expect(images).toBeChecked();

    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('radio', { name: 'Select edges' })).toBeChecked();
    expect(images).not.toBeChecked();
    expect(
      screen.getAllByRole('row').filter((row) => row.getAttribute('aria-selected') === 'true'),
    ).toHaveLength(1);
  });

  it('shows a lock icon on locked rows', () => {
    render(
      <Table
        aria-label="Repositories"
        columns={COLUMNS}
        rows={REPOS}
        rowKey={(repo) => repo.name}
        isRowLocked={(repo) => repo.locked}
      />,
    );
    const locks = screen.getAllByRole('img', { name: 'Locked' });
    expect(locks).toHaveLength(1);
    expect(locks[0]?.closest('tr')).toHaveTextContent('edges');
  });

  it('operates the row overflow menu from the keyboard', async () => {
    const onDelete = vi.fn();
    const user = userEvent.setup();
    render(
      <Table
        aria-label="Repositories"
        columns={COLUMNS}
        rows={REPOS}
        rowKey={(repo) => repo.name}
        rowActions={(repo) => [
          { label: 'Inspect', onSelect: () => {} },
          { label: 'Delete', onSelect: () => onDelete(repo.name) },
        ]}
      />,
    );
    const menuButton = screen.getByRole('button', { name: 'Actions for edges' });
    expect(menuButton).toHaveAttribute('aria-haspopup', 'menu');
    menuButton.focus();
    await user.keyboard('{Enter}');
    expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'Inspect' })).toHaveFocus();

    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Inspect' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(menuButton).toHaveFocus();

    await user.keyboard('{ArrowDown}');
    await user.keyboard('{End}{Enter}');
    expect(onDelete).toHaveBeenCalledWith('edges');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(menuButton).toHaveFocus();
  });
});
