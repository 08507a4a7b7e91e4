/**
 * The console's one data table: column headers, a row per item, an optional detail row under any item
 * (spanning every column), and a sentence instead of an empty body. Views declare their columns; the
 * markup, the scopes and the column count live here.
 */
import { Fragment, type ReactNode } from 'react';

export interface Column<T> {
  /** Header text; `hidden` keeps it for screen readers only (action columns). */
  header: string;
  hidden?: boolean;
  cell: (row: T) => ReactNode;
  /** Applied to the header and every cell of the column (`c-num`, `desc`…). */
  className?: string;
  /** The cell names its row (`<th scope="row">`). */
  rowHeader?: boolean;
}

export interface DataTableProps<T> {
  rows: readonly T[];
  columns: ReadonlyArray<Column<T>>;
  rowKey: (row: T) => string;
  label?: string;
  dense?: boolean;
  className?: string;
  testId?: string;
  rowTestId?: string | ((row: T) => string);
  rowClass?: (row: T) => string | undefined;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  /** Content of a row under `row` spanning the table, or undefined for none. */
  detail?: (row: T) => { id: string; content: ReactNode } | undefined;
}

export function DataTable<T>({ rows, columns, rowKey, label, dense, className, testId, rowTestId, rowClass, empty, detail }: DataTableProps<T>) {
  if (rows.length === 0 && empty !== undefined) return <p className="empty">{empty}</p>;
  const classes = ['data', dense ? 'dense' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <table className={classes} aria-label={label} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.header} scope="col" className={c.className}>
              {c.hidden ? <span className="visually-hidden">{c.header}</span> : c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const more = detail?.(row);
          return (
            <Fragment key={rowKey(row)}>
              <tr data-testid={typeof rowTestId === 'function' ? rowTestId(row) : rowTestId} className={rowClass?.(row)}>
                {columns.map((c) =>
                  c.rowHeader ? (
                    <th key={c.header} scope="row" className={c.className}>
                      {c.cell(row)}
                    </th>
                  ) : (
                    <td key={c.header} className={c.className}>
                      {c.cell(row)}
                    </td>
                  ),
                )}
              </tr>
              {more && (
                <tr id={more.id} className="detail-row">
                  <td colSpan={columns.length}>{more.content}</td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
