import { Link } from "react-router";
import { ACCOUNT_MESSAGES, ForgotPasswordSchema } from "../../core/people/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import { AuthCard } from "../components/AuthCard.tsx";
import { Field, FormAlert, SubmitButton } from "../components/Form.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm } from "../lib/api-form.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Forgot password", path: "/forgotpassword" });

export default function ForgotPassword() {
  const form = useApiForm(
    ForgotPasswordSchema,
    (values) => apiCall("/forgot_password", values),
    (_result, form) => {
      form.show({ text: ACCOUNT_MESSAGES.forgotSent, tone: "success" }, { keep: true });
      form.later(() => window.location.assign("/"), DELAYS_MS.redirect);
    },
    {
      initial: { email: "" },
      // The spec shows the server's 'Not Email id Found.' in its own words.
      failureMessage: (result) =>
        result.data.status === "false"
          ? ACCOUNT_MESSAGES.forgotNotFoundShown
          : messageOf(result.data),
    },
  );

  return (
    <AuthCard title="Forgot password">
      <p>
        Enter the email address of your account and we will email you a link to choose a new
        password.
      </p>
      <FormAlert message={form.message} />
      <form
        ref={form.ref}
        className="form"
        onSubmit={form.submit}
        noValidate
        aria-label="Forgot password"
      >
        <Field {...form.bind("email")} label="Email" type="email" autoComplete="email" />
        <div>
          <SubmitButton busy={form.busy || form.done}>Submit</SubmitButton>
        </div>
      </form>
      <p className="auth-switch">
        Remembered it? <Link to="/login">Login</Link>
      </p>
    </AuthCard>
  );
}
