import { useId, useState } from "react";
import { useRevalidator } from "react-router";
import { apiCall, type ApiPathFor } from "../../lib/api.ts";
import { ConfirmDialog } from "../ConfirmDialog.tsx";

export interface BulkChoice {
  value: string;
  label: string;
  /** Asks "Are you sure?" first with this text (deletes, removals); {n} is the count. */
  confirm?: string;
  /** A call of its own, sent { ids, reason } (deletes); otherwise the bar's call with `action`. */
  call?: ApiPathFor<"POST">;
}

interface BulkBarProps {
  /** The keys of the selected rows, sent as `ids`. */
  selected: (string | number)[];
  /** "post" and "posts": what the rows are. */
  noun: readonly [string, string];
  /** The /api/admin call, e.g. "/admin/posts/bulk". */
  call: ApiPathFor<"POST">;
  choices: BulkChoice[];
  /** After a success: clear the selection. */
  onDone: () => void;
}

/**
 * Bulk actions on a console list's selected rows: one action, an optional reason (kept in the
 * audit log), one call for all of them — all change or none does — and the answer in words.
 */
export function BulkBar({ selected, noun, call, choices, onDone }: BulkBarProps) {
  const revalidator = useRevalidator();
  const id = useId();
  const [action, setAction] = useState(choices[0]?.value ?? "");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<{ text: string; ok: boolean } | null>(null);
  const choice = choices.find((c) => c.value === action);
  const count = selected.length;

  async function run() {
    setBusy(true);
    setResult(null);
    const answer = choice?.call
      ? await apiCall(choice.call, { ids: selected, reason })
      : await apiCall(call, { ids: selected, action, reason });
    setBusy(false);
    setAsking(false);
    const message = (answer.data as { message?: unknown }).message;
    const text = typeof message === "string" ? message : "That did not work. Please try again.";
    setResult({ text, ok: answer.ok });
    if (answer.ok) {
      setReason("");
      onDone();
      await revalidator.revalidate();
    }
  }

  return (
    <div className="console-bulk" aria-label={`Bulk actions on selected ${noun[1]}`} role="group">
      <p className="console-bulk-count" aria-live="polite">
        {count === 0
          ? `Select ${noun[1]} to act on several at once.`
          : `${count} ${count === 1 ? noun[0] : noun[1]} selected`}
      </p>
      <div className="form-field">
        <label htmlFor={`${id}-action`}>Action</label>
        <select id={`${id}-action`} value={action} onChange={(e) => setAction(e.target.value)}>
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-reason`}>Reason (optional)</label>
        <input
          id={`${id}-reason`}
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      <button
        type="button"
        className="btn btn-sm console-btn-primary"
        disabled={busy || count === 0}
        aria-busy={busy || undefined}
        onClick={() => (choice?.confirm ? setAsking(true) : void run())}
      >
        {busy ? "Working…" : "Apply to selected"}
      </button>
      <div className="console-bulk-result" role="status">
        {result && (
          <span className={result.ok ? "console-bulk-ok" : "console-action-error"}>
            {result.text}
          </span>
        )}
      </div>
      {choice?.confirm && (
        <ConfirmDialog
          open={asking}
          title={choice.confirm.replace("{n}", `${count} ${count === 1 ? noun[0] : noun[1]}`)}
          confirmLabel={choice.label}
          cancelLabel="Cancel"
          busy={busy}
          onConfirm={() => void run()}
          onCancel={() => setAsking(false)}
        />
      )}
    </div>
  );
}
