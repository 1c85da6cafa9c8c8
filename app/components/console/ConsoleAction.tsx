import { useId, useState } from "react";
import { useRevalidator } from "react-router";
import { apiCall, type ApiPathFor } from "../../lib/api.ts";
import { ConfirmDialog } from "../ConfirmDialog.tsx";

export interface ConsoleActionProps {
  /** The /api/admin call, e.g. "/admin/moderate". */
  call: ApiPathFor<"POST">;
  /** The call's body; `reason` is added when the action asks for one. */
  body: Record<string, unknown>;
  label: string;
  /** Asks "Are you sure?" first, with this text (deletes, removals, suspensions). */
  confirm?: string;
  /** Asks for a reason first (kept in the audit log and told to the people concerned). */
  askReason?: boolean;
  tone?: "primary" | "danger" | "plain";
  /** Called with the answer after a success, before the page's data is loaded again. */
  onDone?: (answer: Record<string, unknown>) => void;
}

/**
 * One console action on one item: a button that calls the admin API (after a confirmation and a
 * reason when asked), shows it is running, says what went wrong in words, and reloads the page's
 * data on success so the list shows the new state.
 */
export function ConsoleAction({
  call,
  body,
  label,
  confirm,
  askReason = false,
  tone = "plain",
  onDone,
}: ConsoleActionProps) {
  const revalidator = useRevalidator();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();

  async function run() {
    setBusy(true);
    setError(null);
    const result = await apiCall(call, askReason ? { ...body, reason } : body);
    setBusy(false);
    setAsking(false);
    if (!result.ok) {
      const message = (result.data as { message?: unknown }).message;
      setError(typeof message === "string" ? message : "That did not work. Please try again.");
      return;
    }
    setReason("");
    onDone?.(result.data);
    await revalidator.revalidate();
  }

  const needsDialog = Boolean(confirm) || askReason;
  return (
    <>
      <button
        type="button"
        className={`btn btn-sm console-btn-${tone}`}
        disabled={busy}
        aria-busy={busy || undefined}
        onClick={() => (needsDialog ? setAsking(true) : void run())}
      >
        {busy ? "Working…" : label}
      </button>
      {error && (
        <span className="console-action-error" role="alert">
          {error}
        </span>
      )}
      {needsDialog && (
        <ConfirmDialog
          open={asking}
          title={confirm ?? `${label}?`}
          confirmLabel={label}
          cancelLabel="Cancel"
          busy={busy}
          onConfirm={() => void run()}
          onCancel={() => setAsking(false)}
        >
          {askReason && (
            <div className="form-field">
              <label htmlFor={reasonId}>Reason</label>
              <textarea
                id={reasonId}
                value={reason}
                rows={3}
                maxLength={500}
                onChange={(event) => setReason(event.target.value)}
              />
            </div>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
