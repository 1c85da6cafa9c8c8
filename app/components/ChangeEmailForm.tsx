import { useRevalidator } from "react-router";
import { EmailChangeSchema } from "../../core/people/accounts/schema.ts";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm, type FormOutcome } from "../lib/api-form.ts";
import { Field, FormAlert, KitForm, SubmitButton } from "./Form.tsx";

/**
 * Change email address (POST /api/email_change), on the edit-profile page: the new address and,
 * for an account with a password, the current one. A link goes to the new address; the address
 * changes when it is opened (/confirm-email-change). Posted to the page without JavaScript, it
 * sends `intent=email` (app/routes/profile-edit.tsx) and shows `posted`. Its fields' ids carry a
 * prefix: the profile form beside it has an `email` field too.
 */
export function ChangeEmailForm({
  hasPassword,
  csrfToken,
  posted,
}: {
  hasPassword: boolean;
  csrfToken: string;
  posted?: FormOutcome;
}) {
  const revalidator = useRevalidator();
  const form = useApiForm(
    EmailChangeSchema,
    (values) => apiCall("/email_change", values),
    (result, form) => {
      form.reset();
      form.show({ text: messageOf(result.data), tone: "success" }, { keep: true });
      // The page says which address a link waits for: load its data again.
      void revalidator.revalidate();
    },
    { initial: { email: "", password: "" }, posted, idPrefix: "change-email" },
  );

  return (
    <KitForm
      form={form}
      csrfToken={csrfToken}
      className="form change-email-form"
      aria-label="Change email address"
    >
      <input type="hidden" name="intent" value="email" />
      <FormAlert message={form.message} />
      <Field
        {...form.bind("email")}
        label="New email address"
        type="email"
        inputMode="email"
        autoComplete="email"
        required
      />
      {hasPassword ? (
        <Field
          {...form.bind("password")}
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
        />
      ) : (
        <p className="field-hint">
          You sign in with Google or Facebook: opening the link we mail to the new address is enough
          to confirm it.
        </p>
      )}
      <div>
        <SubmitButton busy={form.busy}>Send confirmation link</SubmitButton>
      </div>
    </KitForm>
  );
}
