import { useState, type FormEvent } from "react";
import { Link, useLoaderData, useLocation } from "react-router";
import { requestContext } from "#app-context";
import { ResendConfirmationSchema } from "../../core/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import {
  AuthCard,
  Field,
  FormAlert,
  SubmitButton,
  messageOf,
  useSchemaForm,
  useTimedMessage,
} from "../components/AuthForm.tsx";
import { apiCall } from "../lib/api.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/verify";

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  return { account: user ? { email: user.email, confirmed: user.email_verified } : null };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Check your email", path: "/verify", noindex: true });

/** After sign-up: "check your email", and a way to have the link sent again. */
export default function Verify() {
  const { account } = useLoaderData<typeof loader>();
  const location = useLocation();
  const registeredEmail = (location.state as { email?: string } | null)?.email ?? "";
  const form = useSchemaForm(ResendConfirmationSchema, {
    email: registeredEmail || account?.email || "",
  });
  // The resend answer stays a little longer than other messages: it asks the reader to act.
  const feedback = useTimedMessage(DELAYS_MS.feedback * 3);
  const [busy, setBusy] = useState(false);

  if (account?.confirmed) {
    return (
      <AuthCard title="Your email is confirmed">
        <p>
          Your email address {account.email} is confirmed. You can post deals, discussions and
          comments.
        </p>
        <Link className="btn btn-primary" to="/">
          Go To Home
        </Link>
      </AuthCard>
    );
  }

  async function resend(event: FormEvent) {
    event.preventDefault();
    feedback.clear();
    if (!form.validate()) return;
    setBusy(true);
    const result = await apiCall("/resend_confirmation", form.values);
    setBusy(false);
    feedback.show(messageOf(result.data), result.ok ? "success" : "danger");
  }

  return (
    <AuthCard title="Check your email">
      <p className="verify-notice">
        We have sent a confirmation link to{" "}
        {registeredEmail ? <strong>{registeredEmail}</strong> : "your email address"}. Open it to
        confirm your account. The link works once and expires in 48 hours.
      </p>
      <p>
        You can already <Link to="/login">log in</Link> and browse; posting deals, discussions and
        comments needs a confirmed address.
      </p>
      <h2 className="auth-subtitle">Didn&apos;t get the email?</h2>
      <p>Check your spam folder, or have a new link sent.</p>
      <FormAlert message={feedback.message} />
      <form
        className="form"
        onSubmit={resend}
        noValidate
        aria-label="Send the confirmation link again"
      >
        <Field {...form.bind("email")} label="Email" type="email" autoComplete="email" />
        <div>
          <SubmitButton busy={busy} className="btn btn-outline">
            Resend confirmation email
          </SubmitButton>
        </div>
      </form>
    </AuthCard>
  );
}
