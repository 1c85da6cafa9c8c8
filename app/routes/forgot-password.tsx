import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { ACCOUNT_MESSAGES, ForgotPasswordSchema } from "../../core/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import {
  AuthCard,
  Field,
  FormAlert,
  SubmitButton,
  messageOf,
  serverFieldErrors,
  useSchemaForm,
  useTimedMessage,
  useTimers,
} from "../components/AuthForm.tsx";
import { apiCall } from "../lib/api.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Forgot password", path: "/forgotpassword" });

export default function ForgotPassword() {
  const form = useSchemaForm(ForgotPasswordSchema, { email: "" });
  const feedback = useTimedMessage(DELAYS_MS.feedback);
  const later = useTimers();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    feedback.clear();
    if (!form.validate()) return;
    setBusy(true);
    const result = await apiCall<{ status?: string; message?: unknown; errors?: unknown }>(
      "/forgot_password",
      form.values,
    );
    if (result.ok && result.data.status === "true") {
      setDone(true);
      feedback.show(ACCOUNT_MESSAGES.forgotSent, "success", { keep: true });
      later(() => window.location.assign("/"), DELAYS_MS.redirect);
      return;
    }
    setBusy(false);
    form.showErrors(serverFieldErrors(result.data, ["email"]));
    // The spec shows the server's 'Not Email id Found.' in its own words.
    feedback.show(
      result.data.status === "false"
        ? ACCOUNT_MESSAGES.forgotNotFoundShown
        : messageOf(result.data),
      "danger",
    );
  }

  return (
    <AuthCard title="Forgot password">
      <p>
        Enter the email address of your account and we will email you a link to choose a new
        password.
      </p>
      <FormAlert message={feedback.message} />
      <form className="form" onSubmit={submit} noValidate aria-label="Forgot password">
        <Field {...form.bind("email")} label="Email" type="email" autoComplete="email" />
        <div>
          <SubmitButton busy={busy || done}>Submit</SubmitButton>
        </div>
      </form>
      <p className="auth-switch">
        Remembered it? <Link to="/login">Login</Link>
      </p>
    </AuthCard>
  );
}
