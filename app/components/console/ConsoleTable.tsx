import { useEffect, useState, type ReactNode } from "react";
import { useLocation } from "react-router";

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

/**
 * A console list's selected rows, by key: `selection` goes to ConsoleTable, `selected` to the
 * BulkBar, and `clear` after a bulk action. Another page or filter is another list: nothing stays
 * selected across it.
 */
export function useRowSelection<Row, Key extends string | number>(
  rows: Row[],
  rowKey: (row: Row) => Key,
  label: (row: Row) => string,
) {
  const location = useLocation();
  const [selected, setSelected] = useState<Set<Key>>(() => new Set());
  useEffect(() => setSelected(new Set()), [location.search]);
  return {
    selected: [...selected],
    clear: () => setSelected(new Set()),
    selection: {
      selected,
      label,
      // ConsoleTable hands back the rowKey of the row.
      onToggle: (key: string | number, on: boolean) =>
        setSelected((current) => {
          const next = new Set(current);
          if (on) next.add(key as Key);
          else next.delete(key as Key);
          return next;
        }),
      onToggleAll: (on: boolean) => setSelected(on ? new Set(rows.map(rowKey)) : new Set()),
    },
  };
}
