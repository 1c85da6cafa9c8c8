import { useEffect, useId, useRef, type ReactNode } from "react";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A yes/no question in the browser's modal <dialog>: the rest of the page is inert while it is
 * open (focus stays inside), Escape answers No, and focus returns to where it was afterwards.
 * Focus starts on No, the answer that changes nothing.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel = "Yes",
  cancelLabel = "No",
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: keep the dialog under React's control and answer No.
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId} className="confirm-dialog-title">
        {title}
      </h2>
      {children}
      <div className="confirm-dialog-actions">
        <button
          type="button"
          className="btn btn-outline"
          onClick={onCancel}
          disabled={busy}
          autoFocus
        >
          {cancelLabel}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          onClick={onConfirm}
          disabled={busy}
          aria-busy={busy || undefined}
        >
          {busy ? "Loading…" : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
