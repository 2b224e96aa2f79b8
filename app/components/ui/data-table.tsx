import { useState, type KeyboardEvent, type ReactNode } from 'react';

export type SortDirection = 'ascending' | 'descending';
export type TableSort = { column: string; direction: SortDirection };

export type DataTableColumn<Row> = {
  /** Stable key; also the sort's `column`. */
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The row's header cell (`<th scope="row">`): what screen readers announce for the row. */
  isRowHeader?: boolean;
  /** Makes the column sortable: the value rows are compared by (ignored when `onSortChange` sorts elsewhere). */
  sortValue?: (row: Row) => string | number | null | undefined;
  /** Sortable on the server (with `sort`/`onSortChange`) although no `sortValue` is given. */
  isSortable?: boolean;
  headerClassName?: string;
  cellClassName?: string;
};

const compare = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' }).compare;

function sortRows<Row>(rows: readonly Row[], column: DataTableColumn<Row> | undefined, direction: SortDirection): readonly Row[] {
  const value = column?.sortValue;
  if (!value) return rows;
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const left = value(a);
    const right = value(b);
    if (left == null || right == null) return left == null ? (right == null ? 0 : 1) : -1; // empty values last
    return sign * (typeof left === 'number' && typeof right === 'number' ? left - right : compare(String(left), String(right)));
  });
}

/**
 * A table with a caption, column headers that sort (a button in the header, `aria-sort` on it),
 * a loading and an empty state in place of the body, and rows that can be opened: with
 * `onRowActivate` each row is in the Tab order and Enter (or a click outside its own controls)
 * opens it; the controls inside a row (links, buttons) stay reachable by Tab as usual.
 *
 * Sorting is on the client (`sortValue`) unless `onSortChange` is given, in which case the caller
 * sorts (on the server) and passes the current `sort` back.
 */
export function DataTable<Row>({
  caption,
  isCaptionVisible = false,
  columns,
  rows,
  rowKey,
  isLoading = false,
  loading = 'Loading...',
  empty,
  sort: controlledSort,
  defaultSort,
  onSortChange,
  onRowActivate,
  rowLabel,
  isBusy = false,
  className = '',
  tableClassName = 'w-full text-left text-sm',
  headClassName = 'bg-slate-100 text-xs font-semibold tracking-wide text-slate-700 uppercase',
  bodyClassName = 'divide-y divide-slate-200',
  rowClassName = 'align-top hover:bg-slate-50',
  cellClassName = 'px-4 py-3',
}: {
  caption: ReactNode;
  isCaptionVisible?: boolean;
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  isLoading?: boolean;
  loading?: ReactNode;
  empty?: ReactNode;
  sort?: TableSort;
  defaultSort?: TableSort;
  onSortChange?: (sort: TableSort) => void;
  onRowActivate?: (row: Row) => void;
  /** The accessible name of an activatable row ("Open John Smith"). */
  rowLabel?: (row: Row) => string;
  isBusy?: boolean;
  className?: string;
  tableClassName?: string;
  headClassName?: string;
  bodyClassName?: string;
  rowClassName?: string;
  cellClassName?: string;
}) {
  const [ownSort, setOwnSort] = useState<TableSort | undefined>(defaultSort);
  const sort = controlledSort ?? ownSort;
  const sortColumn = columns.find((column) => column.key === sort?.column);
  const shownRows = onSortChange || !sort ? rows : sortRows(rows, sortColumn, sort.direction);

  function toggleSort(column: string) {
    const next: TableSort = {
      column,
      direction: sort?.column === column && sort.direction === 'ascending' ? 'descending' : 'ascending',
    };
    if (onSortChange) onSortChange(next);
    else setOwnSort(next);
  }

  function onRowKeyDown(event: KeyboardEvent<HTMLTableRowElement>, row: Row) {
    // Only the row itself: Enter on a link or button inside it does what that control does.
    if (event.key === 'Enter' && event.target === event.currentTarget) {
      event.preventDefault();
      onRowActivate?.(row);
    }
  }

  const state = isLoading ? loading : rows.length === 0 ? empty : null;

  return (
    <div className={className}>
      <table className={tableClassName} aria-busy={isBusy || isLoading || undefined}>
        <caption className={isCaptionVisible ? 'mb-2 text-left font-semibold text-slate-900' : 'sr-only'}>{caption}</caption>
        <thead className={headClassName}>
          <tr>
            {columns.map((column) => {
              const isSortable = Boolean(column.sortValue || column.isSortable);
              const direction = sort?.column === column.key ? sort.direction : undefined;
              return (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={isSortable ? (direction ?? 'none') : undefined}
                  className={column.headerClassName ?? cellClassName}
                >
                  {isSortable ? (
                    <button
                      type="button"
                      onClick={() => toggleSort(column.key)}
                      className="inline-flex items-center gap-1 rounded font-semibold uppercase hover:text-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
                    >
                      {column.header}
                      <span aria-hidden="true">{direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}</span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className={bodyClassName}>
          {state !== null ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-8 text-center text-slate-600">
                {isLoading ? <span role="status">{state}</span> : state}
              </td>
            </tr>
          ) : (
            shownRows.map((row) => (
              <tr
                key={rowKey(row)}
                className={`${rowClassName}${onRowActivate ? ' cursor-pointer focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-600' : ''}`}
                tabIndex={onRowActivate ? 0 : undefined}
                aria-label={onRowActivate && rowLabel ? rowLabel(row) : undefined}
                onKeyDown={onRowActivate ? (event) => onRowKeyDown(event, row) : undefined}
                onClick={
                  onRowActivate
                    ? (event) => {
                        if (!(event.target as HTMLElement).closest('a, button, input, select, textarea, label')) onRowActivate(row);
                      }
                    : undefined
                }
              >
                {columns.map((column) => {
                  const className = column.cellClassName ?? cellClassName;
                  return column.isRowHeader ? (
                    <th key={column.key} scope="row" className={`${className} font-normal`}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.key} className={className}>
                      {column.cell(row)}
                    </td>
                  );
                })}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
