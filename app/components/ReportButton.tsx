import { useId, useState } from "react";
import { useActionData } from "react-router";
import { FORM_INTENT_FIELD } from "../../core/constants.ts";
import { REPORT_REASONS } from "../../core/moderation/reasons.ts";
import { apiCall } from "../lib/api.ts";
import { messageOf, postedFor, useApiForm, type FormOutcome } from "../lib/api-form.ts";
import { postFormSchemas } from "../lib/lazy-schemas.ts";
import { usePendingAction, useSignInFirst } from "../lib/pending-action.ts";
import { ConfirmDialog } from "./ConfirmDialog.tsx";
import { Field, FormAlert, KitForm } from "./Form.tsx";

/** The dialog's fields, checked in the browser with the API's own rules (loaded when first sent). */
const reportFormSchema = async () => (await postFormSchemas()).ReportFormSchema;

interface ReportButtonProps {
  itemType: "d" | "g" | "comment" | "user";
  itemId: string | number;
  /** What is reported, for the dialog's title and screen readers: "this deal", "this comment". */
  what: string;
  /** The signed-in user's id; null sends a click to /login. */
  viewerId: number | null;
  /** The signed-in user's XSRF token, for the form posted to the page (docs/decisions/0079). */
  csrfToken?: string | null;
}

/**
 * Report: a small dialog with a reason and an optional note, sent to `POST /api/report`. The
 * answer (thanks, or "you have already reported this") shows beside the button, which then says
 * "Reported". A visitor is sent to /login, and the dialog opens again on return (record 0035): the
 * reason is theirs to choose, so nothing is sent by itself.
 *
 * The dialog's form is a kit form posting to the page (the post pages' and the profile's action,
 * app/lib/post-forms.server.ts), whose answer shows beside this item's button.
 */
export function ReportButton({ itemType, itemId, what, viewerId, csrfToken }: ReportButtonProps) {
  const signInFirst = useSignInFirst();
  const prefix = useId();
  const [open, setOpen] = useState(false);
  const answer = postedFor(useActionData<FormOutcome>(), {
    intent: "report",
    item_type: itemType,
    item_id: String(itemId),
  });
  // Sent, or already reported (409): said beside the button, as after the call.
  const [sent, setSent] = useState<string | null>(answer?.message ?? null);

  const form = useApiForm(
    reportFormSchema,
    (values) => apiCall("/report", { item_type: itemType, item_id: itemId, ...values }),
    (result, form) => {
      setOpen(false);
      setSent(messageOf(result.data));
      form.reset();
    },
    {
      initial: { reason: "", note: "" },
      idPrefix: prefix,
      failureMessage: ({ status, data }) => {
        if (status === 401) {
          signInFirst({ kind: "report", itemType, itemId });
          return null;
        }
        // Already reported: nothing to add; say so beside the button.
        if (status === 409) {
          setOpen(false);
          setSent(messageOf(data));
          return null;
        }
        return messageOf(data, "Sorry, your report could not be sent. Please try again.");
      },
    },
  );

  usePendingAction(
    "report",
    viewerId !== null,
    () => setOpen(true),
    (action) => action.itemType === itemType && String(action.itemId) === String(itemId),
  );

  function start() {
    if (viewerId === null) signInFirst({ kind: "report", itemType, itemId });
    else setOpen(true);
  }

  return (
    <div className="report-action">
      <button type="button" className="btn-link report-button" onClick={start} disabled={!!sent}>
        {sent ? "Reported" : "Report"}
        <span className="visually-hidden"> {what}</span>
      </button>
      <p className="report-status" role="status">
        {sent}
      </p>
      <ConfirmDialog
        open={open}
        title={`Report ${what}`}
        confirmLabel="Send report"
        cancelLabel="Cancel"
        busy={form.busy}
        onConfirm={() => void form.submit()}
        onCancel={() => {
          setOpen(false);
          form.clearMessage();
        }}
      >
        <KitForm form={form} csrfToken={csrfToken} className="report-form">
          <input type="hidden" name={FORM_INTENT_FIELD} value="report" />
          <input type="hidden" name="item_type" value={itemType} />
          <input type="hidden" name="item_id" value={itemId} />
          <FormAlert message={form.message} />
          <Field
            {...form.bind("reason")}
            label="Reason"
            control="select"
            placeholder="Choose a reason"
            options={REPORT_REASONS}
            required
          />
          <Field
            {...form.bind("note")}
            label="Note for the moderators"
            control="textarea"
            mark="optional"
            rows={3}
            maxLength={500}
          />
        </KitForm>
      </ConfirmDialog>
    </div>
  );
}
