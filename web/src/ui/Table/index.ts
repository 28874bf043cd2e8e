export { Table } from './Table';
export type { TableProps, TableColumn, TableSort, SortDirection, RowSelection } from './Table';
export type { RowAction } from './RowActionsMenu';
