import CaretDownOutlined from '@ant-design/icons-svg/es/asn/CaretDownOutlined';
import CaretUpOutlined from '@ant-design/icons-svg/es/asn/CaretUpOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import SwapOutlined from '@ant-design/icons-svg/es/asn/SwapOutlined';
import { Icon } from '../Icon/index.ts';
import { useId, useState, type ReactNode } from 'react';
import { RowActionsMenu, type RowAction } from './RowActionsMenu';
import styles from './Table.module.css';

export type SortDirection = 'ASC' | 'DESC';
export type TableSort = { columnKey: string; direction: SortDirection };

export type TableColumn<Row> = {
  key: string;
  title: string;
  render: (row: Row) => ReactNode;
  /** Makes the column sortable by this value. */
  sortValue?: (row: Row) => string | number;
};

export type RowSelection = {
  type: 'checkbox' | 'radio';
  selectedKeys: string[];
  onChange: (selectedKeys: string[]) => void;
};

export type TableProps<Row> = {
  'aria-label': string;
  columns: TableColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** Names a row in the labels of its checkbox/radio and menu button; defaults to its key. */
  rowLabel?: (row: Row) => string;
  selection?: RowSelection;
  isRowLocked?: (row: Row) => boolean;
  rowActions?: (row: Row) => RowAction[];
  defaultSort?: TableSort;
  onSortChange?: (sort: TableSort) => void;
};

const ARIA_SORT = { ASC: 'ascending', DESC: 'descending' } as const;

function sortRows<Row>(
  rows: Row[],
  sortValue: (row: Row) => string | number,
  direction: SortDirection,
): Row[] {
  const sign = direction === 'ASC' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const left = sortValue(a);
    const right = sortValue(b);
    if (typeof left === 'number' && typeof right === 'number') return (left - right) * sign;
    return String(left).localeCompare(String(right)) * sign;
  });
}

/**
 * A table with sortable headers (a button per sortable header; each press flips ASC/DESC),
 * sticky header row and first column, controlled checkbox/radio row selection, an optional lock
 * icon per row and an optional overflow menu per row.
 */
export function Table<Row>({
  'aria-label': ariaLabel,
  columns,
  rows,
  rowKey,
  rowLabel = rowKey,
  selection,
  isRowLocked,
  rowActions,
  defaultSort,
  onSortChange,
}: TableProps<Row>) {
  const radioGroupName = useId();
  const [sort, setSort] = useState<TableSort | undefined>(defaultSort);
  const sortColumn = columns.find((column) => column.key === sort?.columnKey);
  const visibleRows =
    sort && sortColumn?.sortValue ? sortRows(rows, sortColumn.sortValue, sort.direction) : rows;

  const changeSort = (columnKey: string) => {
    const direction: SortDirection =
      sort?.columnKey === columnKey && sort.direction === 'ASC' ? 'DESC' : 'ASC';
    setSort({ columnKey, direction });
    onSortChange?.({ columnKey, direction });
  };

  const toggleSelection = (key: string) => {
    if (!selection) return;
    if (selection.type === 'radio') selection.onChange([key]);
    else if (selection.selectedKeys.includes(key))
      selection.onChange(selection.selectedKeys.filter((k) => k !== key));
    else selection.onChange([...selection.selectedKeys, key]);
  };

  return (
    <div className={styles.scroller}>
      <table className={styles.table} aria-label={ariaLabel}>
        <thead>
          <tr>
            {selection && (
              <th scope="col" className={`${styles.headerCell} ${styles.stickyColumn}`}>
                <span className={styles.visuallyHidden}>Select</span>
              </th>
            )}
            {isRowLocked && (
              <th scope="col" className={styles.headerCell}>
                <span className={styles.visuallyHidden}>Locked</span>
              </th>
            )}
            {columns.map((column, index) => {
              const sorted = sort?.columnKey === column.key ? sort.direction : undefined;
              const sticky = index === 0 && !selection && !isRowLocked;
              return (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={column.sortValue ? (sorted ? ARIA_SORT[sorted] : 'none') : undefined}
                  className={`${styles.headerCell} ${sticky ? styles.stickyColumn : ''}`}
                >
                  {column.sortValue ? (
                    <button
                      type="button"
                      className={styles.sortButton}
                      onClick={() => changeSort(column.key)}
                    >
                      {column.title}
                      <span aria-hidden="true" className={styles.sortIcon}>
                        {sorted === 'ASC' ? (
                          <Icon icon={CaretUpOutlined} />
                        ) : sorted === 'DESC' ? (
                          <Icon icon={CaretDownOutlined} />
                        ) : (
                          <Icon icon={SwapOutlined} rotate={90} />
                        )}
                      </span>
                    </button>
                  ) : (
                    column.title
                  )}
                </th>
              );
            })}
            {rowActions && (
              <th scope="col" className={styles.headerCell}>
                <span className={styles.visuallyHidden}>Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {visibleRows.map((row) => {
            const key = rowKey(row);
            const selected = selection?.selectedKeys.includes(key) ?? false;
            return (
              <tr
                key={key}
                aria-selected={selection ? selected : undefined}
                className={selected ? styles.selectedRow : undefined}
              >
                {selection && (
                  <td className={styles.stickyColumn}>
                    <input
                      type={selection.type}
                      name={selection.type === 'radio' ? radioGroupName : undefined}
                      checked={selected}
                      aria-label={`Select ${rowLabel(row)}`}
                      onChange={() => toggleSelection(key)}
                    />
                  </td>
                )}
                {isRowLocked && (
                  <td>
                    {isRowLocked(row) && (
                      <Icon icon={LockOutlined} aria-label="Locked" className={styles.lock} />
                    )}
                  </td>
                )}
                {columns.map((column, index) => (
                  <td
                    key={column.key}
                    className={
                      index === 0 && !selection && !isRowLocked ? styles.stickyColumn : undefined
                    }
                  >
                    {column.render(row)}
                  </td>
                ))}
                {rowActions && (
                  <td>
                    <RowActionsMenu
                      label={`Actions for ${rowLabel(row)}`}
                      actions={rowActions(row)}
                    />
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
