import { ChangePasswordSchema } from "../../core/people/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm, type FormOutcome } from "../lib/api-form.ts";
import { NewPasswordFields } from "./AuthCard.tsx";
import { Field, FormAlert, KitForm, SubmitButton } from "./Form.tsx";

const EMPTY = { old_password: "", new_password: "", new_password_confirmation: "" };

/**
 * Change password (POST /api/change_password), embedded in the edit-profile page. Its message stays
 * 5 s, as the spec says; the user's other devices are signed out by the server. Posted to the page
 * without JavaScript, it sends `intent=password` (app/routes/profile-edit.tsx) and shows `posted`.
 */
export function ChangePasswordForm({
  userId,
  csrfToken,
  posted,
}: {
  userId: number;
  csrfToken: string;
  posted?: FormOutcome;
}) {
  const form = useApiForm(
    ChangePasswordSchema,
    (values) => apiCall("/change_password", { ...values, user_id: userId }),
    (result, form) => {
      form.reset();
      form.show({ text: messageOf(result.data), tone: "success" });
    },
    { initial: EMPTY, posted, messageMs: DELAYS_MS.passwordChangeFeedback },
  );

  return (
    <KitForm
      form={form}
      csrfToken={csrfToken}
      className="form change-password-form"
      aria-label="Change password"
    >
      <input type="hidden" name="intent" value="password" />
      <FormAlert message={form.message} />
      <Field
        {...form.bind("old_password")}
        label="Old Password"
        type="password"
        autoComplete="current-password"
      />
      <NewPasswordFields
        password={form.bind("new_password")}
        confirmation={form.bind("new_password_confirmation")}
      />
      <div>
        <SubmitButton busy={form.busy}>Change Password</SubmitButton>
      </div>
    </KitForm>
  );
}
