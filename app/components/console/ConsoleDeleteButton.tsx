import { useId, useState } from "react";
import { useRevalidator } from "react-router";
import { apiCall, type ApiPathFor } from "../../lib/api.ts";
import { messageOf, type ApiAnswer } from "../../lib/api-form.ts";
import { ConfirmDialog } from "../ConfirmDialog.tsx";

export interface ConsoleDeleteButtonProps {
  /** The admin call, e.g. "/admin/stores/delete". */
  call: ApiPathFor<"POST">;
  /** The call's body besides move_to, e.g. { id: 3 }. */
  body: Record<string, unknown>;
  /** What is deleted, as the dialog names it: "the store “Target”". */
  what: string;
  /** Items that still belong to it (deals, posts): they move first, to one of `choices`. */
  inUse?: number;
  usedNoun?: string;
  choices?: { id: number; title: string }[];
  onDone: (message: string) => void;
}

function plural(count: number, noun: string) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * Deletes an item for good after asking. When items still belong to it (a store's deals, a
 * category's posts), the dialog asks where they go; the server moves them and deletes in one
 * transaction (`move_to`). Errors are shown in the dialog in words.
 */
export function ConsoleDeleteButton(props: ConsoleDeleteButtonProps) {
  const { call, body, what, inUse = 0, usedNoun = "item", choices = [], onDone } = props;
  const revalidator = useRevalidator();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [moveTo, setMoveTo] = useState("");
  const [error, setError] = useState("");
  const selectId = useId();
  const errorId = useId();
  const needsMove = inUse > 0;

  async function run() {
    if (needsMove && !moveTo) {
      setError(`Choose where the ${usedNoun}s go first.`);
      return;
    }
    setBusy(true);
    setError("");
    const result = await apiCall(call, { ...body, move_to: needsMove ? Number(moveTo) : "" });
    setBusy(false);
    if (!result.ok) {
      setError(messageOf(result.data as ApiAnswer, "That did not work. Please try again."));
      return;
    }
    setOpen(false);
    setMoveTo("");
    onDone(messageOf(result.data as ApiAnswer, "Deleted."));
    await revalidator.revalidate();
  }

  return (
    <>
      <button
        type="button"
        className="btn btn-sm console-btn-danger"
        onClick={() => {
          setError("");
          setOpen(true);
        }}
      >
        Delete
      </button>
      <ConfirmDialog
        open={open}
        title={
          needsMove ? `Move ${plural(inUse, usedNoun)} and delete ${what}?` : `Delete ${what}?`
        }
        confirmLabel={needsMove ? "Move and delete" : "Delete"}
        cancelLabel="Cancel"
        busy={busy}
        onConfirm={() => void run()}
        onCancel={() => setOpen(false)}
      >
        {needsMove ? (
          <div className="form-field">
            <p>
              {`It still has ${plural(inUse, usedNoun)}. They move to the one you choose, then it is deleted. This cannot be undone.`}
            </p>
            <label htmlFor={selectId}>Move the {usedNoun}s to</label>
            <select
              id={selectId}
              value={moveTo}
              aria-invalid={error ? true : undefined}
              aria-describedby={errorId}
              onChange={(event) => setMoveTo(event.target.value)}
            >
              <option value="">Choose…</option>
              {choices.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.title}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p>This cannot be undone.</p>
        )}
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      </ConfirmDialog>
    </>
  );
}
