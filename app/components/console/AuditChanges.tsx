import type { AuditChange } from "../../../core/audit/presenter.ts";

/** How long a value may be before the diff shortens it (the API keeps it whole). */
const SHOWN_LENGTH = 120;

/** A recorded value in words: "—" for none, text as written (escaped), the rest as JSON. */
export function auditValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH - 1)}…` : text;
}

/**
 * An entry's before and after as a compact diff: one line per field, the old value struck
 * through and the new one after it. A deletion has only a "before"; a creation only an "after".
 */
export function AuditChanges({ changes }: { changes: AuditChange[] }) {
  if (changes.length === 0) return <span className="console-meta">—</span>;
  return (
    <dl className="audit-diff">
      {changes.map((change) => (
        <div key={change.field} className="audit-diff-row">
          <dt>{change.field}</dt>
          <dd>
            <del>
              <span className="visually-hidden">was </span>
              {auditValue(change.before)}
            </del>{" "}
            <span aria-hidden="true">→</span>{" "}
            <ins>
              <span className="visually-hidden">now </span>
              {auditValue(change.after)}
            </ins>
          </dd>
        </div>
      ))}
    </dl>
  );
}
