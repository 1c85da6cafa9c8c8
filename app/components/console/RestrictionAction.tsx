import { useId, useState, type ReactNode } from "react";
import { useRevalidator } from "react-router";
import type { ApiResult } from "../../lib/api.ts";
import { messageOf, type ApiAnswer } from "../../lib/api-form.ts";
import { ConfirmDialog } from "../ConfirmDialog.tsx";

/** A UTC day `days` from today, as a date field's value: the bounds the server checks. */
export function dayIn(days: number): string {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

interface RestrictionActionProps {
  /** The button that opens the dialog, and the dialog's confirm button. */
  label: string;
  title: string;
  /** What the restriction does, above the fields. */
  explanation: ReactNode;
  /** Beside "Until": whether the date is needed, and its bounds in words. */
  untilHint: string;
  untilRequired: boolean;
  untilMin: string;
  untilMax?: string;
  /** Refused before the call when the reason is blank (the server refuses it too). */
  reasonRequired?: string;
  send: (reason: string, until: string) => Promise<ApiResult<ApiAnswer>>;
}

/**
 * A staff restriction with a reason and an end date (a suspension, a voting block: the member is
 * told both): a danger button, then a dialog that sends the call and shows its field errors in
 * place, or its message. The page's data is reloaded once it is done.
 */
export function RestrictionAction({
  label,
  title,
  explanation,
  untilHint,
  untilRequired,
  untilMin,
  untilMax,
  reasonRequired,
  send,
}: RestrictionActionProps) {
  const revalidator = useRevalidator();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState("");
  const [until, setUntil] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const id = useId();

  async function confirm() {
    if (reasonRequired && !reason.trim()) {
      setErrors({ reason: reasonRequired });
      return;
    }
    setBusy(true);
    setFailure(null);
    const result = await send(reason, until);
    setBusy(false);
    if (!result.ok) {
      const answer = result.data as ApiAnswer & { errors?: Record<string, string> };
      setErrors(answer.errors ?? {});
      if (!answer.errors) setFailure(messageOf(answer));
      return;
    }
    setOpen(false);
    setReason("");
    setUntil("");
    setErrors({});
    await revalidator.revalidate();
  }

  const field = (name: "reason" | "until") => ({
    id: `${id}-${name}`,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `${id}-${name}-error` : undefined,
  });
  const error = (name: "reason" | "until") =>
    errors[name] && (
      <p id={`${id}-${name}-error`} className="field-error">
        {errors[name]}
      </p>
    );
  return (
    <>
      <button type="button" className="btn btn-sm console-btn-danger" onClick={() => setOpen(true)}>
        {label}
      </button>
      <ConfirmDialog
        open={open}
        title={title}
        confirmLabel={label}
        cancelLabel="Cancel"
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => {
          setOpen(false);
          setErrors({});
          setFailure(null);
        }}
      >
        <p>{explanation}</p>
        <div className="form-field">
          <label htmlFor={`${id}-reason`}>Reason</label>
          <textarea
            {...field("reason")}
            value={reason}
            rows={3}
            maxLength={500}
            required
            onChange={(event) => setReason(event.target.value)}
          />
          {error("reason")}
        </div>
        <div className="form-field">
          <label htmlFor={`${id}-until`}>
            Until <span className="optional">({untilHint})</span>
          </label>
          <input
            {...field("until")}
            type="date"
            value={until}
            min={untilMin}
            max={untilMax}
            required={untilRequired}
            onChange={(event) => setUntil(event.target.value)}
          />
          {error("until")}
        </div>
        {failure && (
          <p className="field-error" role="alert">
            {failure}
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
