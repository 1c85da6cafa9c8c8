import { useState, type FormEvent } from "react";
import { Link, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { ACCOUNT_MESSAGES, ResetPasswordSchema } from "../../core/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import {
  AuthCard,
  Field,
  FormAlert,
  PASSWORD_HINT,
  SubmitButton,
  messageOf,
  serverFieldErrors,
  useSchemaForm,
  useTimedMessage,
  useTimers,
} from "../components/AuthForm.tsx";
import { apiCall } from "../lib/api.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/reset-password";

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return { token: params.token, usable: await services.accounts.isResetLinkUsable(params.token) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Choose a new password", noindex: true });

const FIELDS = ["password", "password_confirmation"];

export default function ResetPassword() {
  const { token, usable } = useLoaderData<typeof loader>();
  const form = useSchemaForm(ResetPasswordSchema, {
    token,
    password: "",
    password_confirmation: "",
  });
  const feedback = useTimedMessage(DELAYS_MS.feedback);
  const later = useTimers();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  if (!usable) {
    return (
      <AuthCard title="Choose a new password">
        <p className="alert alert-danger">{ACCOUNT_MESSAGES.resetLinkInvalid}</p>
        <Link className="btn btn-primary" to="/forgotpassword">
          Send me a new link
        </Link>
      </AuthCard>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    feedback.clear();
    if (!form.validate()) return;
    setBusy(true);
    const result = await apiCall<{ message?: unknown; errors?: unknown }>(
      "/reset_password",
      form.values,
    );
    if (result.ok) {
      setDone(true);
      feedback.show(messageOf(result.data), "success", { keep: true });
      later(() => window.location.assign("/login"), DELAYS_MS.redirect);
      return;
    }
    setBusy(false);
    form.showErrors(serverFieldErrors(result.data, FIELDS));
    feedback.show(messageOf(result.data), "danger");
  }

  return (
    <AuthCard title="Choose a new password">
      <FormAlert message={feedback.message} />
      <form className="form" onSubmit={submit} noValidate aria-label="Choose a new password">
        <Field
          {...form.bind("password")}
          label="New Password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
        />
        <Field
          {...form.bind("password_confirmation")}
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
        />
        <div>
          <SubmitButton busy={busy || done}>Save new password</SubmitButton>
        </div>
      </form>
    </AuthCard>
  );
}
