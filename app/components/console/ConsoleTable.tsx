import type { ReactNode } from "react";

export interface ConsoleColumn<Row> {
  /** The column's heading; on phones, each cell's label. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** A narrow column of actions, right-aligned on wide screens. */
  actions?: boolean;
}

export interface ConsoleTableProps<Row> {
  /** What the table lists, for screen readers: "Reported items". */
  caption: string;
  columns: ConsoleColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  /** Shown instead of an empty table. */
  empty: string;
  /** Bulk selection: a checkbox per row, with the row's key as its value. */
  selection?: {
    selected: ReadonlySet<string | number>;
    onToggle: (key: string | number, selected: boolean) => void;
    onToggleAll: (selected: boolean) => void;
    label: (row: Row) => string;
  };
}

/**
 * The console's list of items: a table on wide screens; on phones each row becomes a card whose
 * cells carry their column's name (data-label, styled in console.css).
 */
export function ConsoleTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  selection,
}: ConsoleTableProps<Row>) {
  if (rows.length === 0) return <p className="console-empty">{empty}</p>;
  const allSelected =
    selection !== undefined && rows.every((r) => selection.selected.has(rowKey(r)));
  return (
    <div className="console-table-wrap">
      <table className="console-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {selection && (
              <th scope="col" className="console-select">
                <input
                  type="checkbox"
                  aria-label="Select all"
                  checked={allSelected}
                  onChange={(event) => selection.onToggleAll(event.target.checked)}
                />
              </th>
            )}
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={column.actions ? "actions" : undefined}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = rowKey(row);
            return (
              <tr key={key}>
                {selection && (
                  <td className="console-select">
                    <input
                      type="checkbox"
                      aria-label={`Select ${selection.label(row)}`}
                      checked={selection.selected.has(key)}
                      onChange={(event) => selection.onToggle(key, event.target.checked)}
                    />
                  </td>
                )}
                {columns.map((column) => (
                  <td
                    key={column.header}
                    data-label={column.header}
                    className={column.actions ? "actions" : undefined}
                  >
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
