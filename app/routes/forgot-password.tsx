import { Link, useActionData, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { ACCOUNT_MESSAGES, ForgotPasswordSchema } from "../../core/people/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import { AuthCard } from "../components/AuthCard.tsx";
import { Field, FormAlert, KitForm, SubmitButton } from "../components/Form.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm } from "../lib/api-form.ts";
import { formAction } from "../lib/form-action.server.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Forgot password", path: "/forgotpassword" });

export async function loader({ context }: Route.LoaderArgs) {
  return { csrfToken: context.get(requestContext).csrfToken() };
}

/** The page carries this visitor's XSRF token: never a shared cache's copy. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/** The form posted to the page: the same check and service as `POST /api/forgot_password`. */
export async function action({ context, request }: Route.ActionArgs) {
  const { services } = context.get(requestContext);
  return formAction(
    request,
    ForgotPasswordSchema,
    async (input) => {
      await services.accounts.forgotPassword(input);
      return ACCOUNT_MESSAGES.forgotSent;
    },
    {
      // The spec shows the server's 'Not Email id Found.' in its own words.
      failureMessage: (error) =>
        error.kind === "not_found" ? ACCOUNT_MESSAGES.forgotNotFoundShown : error.message,
      next: "/",
    },
  );
}

export default function ForgotPassword() {
  const { csrfToken } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const form = useApiForm(
    ForgotPasswordSchema,
    (values) => apiCall("/forgot_password", values),
    (_result, form) => {
      form.show({ text: ACCOUNT_MESSAGES.forgotSent, tone: "success" }, { keep: true });
      form.later(() => window.location.assign("/"), DELAYS_MS.redirect);
    },
    {
      initial: { email: "" },
      posted,
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
      <KitForm form={form} csrfToken={csrfToken} posted={posted} aria-label="Forgot password">
        <Field {...form.bind("email")} label="Email" type="email" autoComplete="email" />
        <div>
          <SubmitButton busy={form.busy || form.done || Boolean(posted?.ok)}>Submit</SubmitButton>
        </div>
      </KitForm>
      <p className="auth-switch">
        Remembered it? <Link to="/login">Login</Link>
      </p>
    </AuthCard>
  );
}
