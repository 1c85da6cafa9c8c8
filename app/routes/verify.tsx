import { Link, useActionData, useLoaderData, useLocation } from "react-router";
import { requestContext } from "#app-context";
import { ResendConfirmationSchema } from "../../core/people/accounts/schema.ts";
import { returnPathOf, withReturnPath } from "../../core/auth/return-path.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import { AuthCard } from "../components/AuthCard.tsx";
import { Field, FormAlert, KitForm, SubmitButton } from "../components/Form.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm } from "../lib/api-form.ts";
import { formAction } from "../lib/form-action.server.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/verify";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, csrfToken } = context.get(requestContext);
  const confirmed = Boolean(user?.email_verified);
  return {
    account: user ? { email: user.email, confirmed } : null,
    // Carried from /register?next=… to the "log in" link (record 0035).
    next: returnPathOf(new URL(request.url)),
    csrfToken: confirmed ? null : csrfToken(),
  };
}

/** The page carries this visitor's XSRF token: never a shared cache's copy. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/** The form posted to the page: the same check and service as `POST /api/resend_confirmation`. */
export async function action({ context, request }: Route.ActionArgs) {
  const { services } = context.get(requestContext);
  return formAction(
    request,
    ResendConfirmationSchema,
    async (input) => (await services.accounts.resendConfirmation(input)).message,
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Check your email", path: "/verify", noindex: true });

/** After sign-up: "check your email", and a way to have the link sent again. */
export default function Verify() {
  const { account, next, csrfToken } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const location = useLocation();
  const registeredEmail = (location.state as { email?: string } | null)?.email ?? "";
  const form = useApiForm(
    ResendConfirmationSchema,
    (values) => apiCall("/resend_confirmation", values),
    (result, form) => form.show({ text: messageOf(result.data), tone: "success" }),
    {
      initial: { email: registeredEmail || account?.email || "" },
      posted,
      // The resend answer stays a little longer than other messages: it asks the reader to act.
      messageMs: DELAYS_MS.feedback * 3,
    },
  );

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

  return (
    <AuthCard title="Check your email">
      <p className="verify-notice">
        We have sent a confirmation link to{" "}
        {registeredEmail ? <strong>{registeredEmail}</strong> : "your email address"}. Open it to
        confirm your account. The link works once and expires in 48 hours.
      </p>
      <p>
        You can already <Link to={withReturnPath("/login", next)}>log in</Link> and browse; posting
        deals, discussions and comments needs a confirmed address.
      </p>
      <h2 className="auth-subtitle">Didn&apos;t get the email?</h2>
      <p>Check your spam folder, or have a new link sent.</p>
      <FormAlert message={form.message} />
      <KitForm
        form={form}
        csrfToken={csrfToken}
        posted={posted}
        action={withReturnPath("/verify", next)}
        aria-label="Send the confirmation link again"
      >
        <Field {...form.bind("email")} label="Email" type="email" autoComplete="email" />
        <div>
          <SubmitButton busy={form.busy} className="btn btn-outline">
            Resend confirmation email
          </SubmitButton>
        </div>
      </KitForm>
    </AuthCard>
  );
}
