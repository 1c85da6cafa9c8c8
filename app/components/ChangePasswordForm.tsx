import { useState, type FormEvent } from "react";
import { ChangePasswordSchema } from "../../core/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import { apiCall } from "../lib/api.ts";
import {
  Field,
  FormAlert,
  PASSWORD_HINT,
  SubmitButton,
  messageOf,
  serverFieldErrors,
  useSchemaForm,
  useTimedMessage,
} from "./AuthForm.tsx";

const EMPTY = { old_password: "", new_password: "", new_password_confirmation: "" };
const FIELDS = Object.keys(EMPTY);

/**
 * Change password (POST /api/change_password), embedded in the edit-profile page. Its message stays
 * 5 s, as the spec says; the user's other devices are signed out by the server.
 */
export function ChangePasswordForm({ userId }: { userId: number }) {
  const form = useSchemaForm(ChangePasswordSchema, EMPTY);
  const feedback = useTimedMessage(DELAYS_MS.passwordChangeFeedback);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    feedback.clear();
    if (!form.validate()) return;
    setBusy(true);
    const result = await apiCall<{ status?: unknown; message?: unknown; errors?: unknown }>(
      "/change_password",
      { ...form.values, user_id: userId },
    );
    setBusy(false);
    if (result.ok) {
      form.reset();
      feedback.show(messageOf(result.data), "success");
    } else {
      form.showErrors(serverFieldErrors(result.data, FIELDS));
      feedback.show(messageOf(result.data), "danger");
    }
  }

  return (
    <form
      className="form change-password-form"
      onSubmit={submit}
      noValidate
      aria-label="Change password"
    >
      <FormAlert message={feedback.message} />
      <Field
        {...form.bind("old_password")}
        label="Old Password"
        type="password"
        autoComplete="current-password"
      />
      <Field
        {...form.bind("new_password")}
        label="New Password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_HINT}
      />
      <Field
        {...form.bind("new_password_confirmation")}
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
      />
      <div>
        <SubmitButton busy={busy}>Change Password</SubmitButton>
      </div>
    </form>
  );
}
