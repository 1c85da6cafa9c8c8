import { useEffect, useId, useRef, type RefObject } from "react";
import {
  COLD_REASON_LABELS,
  COLD_REASONS,
  type ColdReason,
} from "../../core/posts/reactions/cold-reasons.ts";

interface ColdReasonDialogProps {
  open: boolean;
  /** The cold button: focus goes back to it when the dialog closes. */
  returnFocusTo: RefObject<HTMLElement | null>;
  onChoose: (reason: ColdReason) => void;
  onCancel: () => void;
}

/**
 * "Why is this deal cold?" (record 0086): the short list of reasons in the browser's modal
 * <dialog>, as ConfirmDialog has it: the rest of the page is inert while it is open, Tab moves
 * through the reasons, Enter or Space chooses one, Escape or Cancel closes it without a vote,
 * and focus goes back to the cold button. A chunk of its own, fetched on the first press
 * (LikeButtons), so the deal page's scripts at start stay within their budget (record 0051).
 */
export default function ColdReasonDialog({
  open,
  returnFocusTo,
  onChoose,
  onCancel,
}: ColdReasonDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const hintId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) {
      element.close();
      returnFocusTo.current?.focus();
    }
  }, [open, returnFocusTo]);

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog cold-reason-dialog"
      aria-labelledby={titleId}
      aria-describedby={hintId}
      onCancel={(event) => {
        // Escape: keep the dialog under React's control, and vote nothing.
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId} className="confirm-dialog-title">
        Why is this deal cold?
      </h2>
      <p id={hintId} className="cold-reason-hint">
        Pick the reason. The poster and moderators see how many cold votes give each one.
      </p>
      <ul className="cold-reason-list">
        {COLD_REASONS.map((reason, index) => (
          <li key={reason}>
            <button
              type="button"
              className="btn btn-outline cold-reason-choice"
              onClick={() => onChoose(reason)}
              // The dialog opens on the first reason, so a keyboard user starts in the list.
              autoFocus={index === 0}
            >
              {COLD_REASON_LABELS[reason]}
            </button>
          </li>
        ))}
      </ul>
      <div className="confirm-dialog-actions">
        <button type="button" className="btn btn-outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
