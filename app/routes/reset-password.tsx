import { Link, useActionData, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { ACCOUNT_MESSAGES, ResetPasswordSchema } from "../../core/people/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import { AuthCard, NewPasswordFields } from "../components/AuthCard.tsx";
import { FormAlert, KitForm, SubmitButton } from "../components/Form.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm } from "../lib/api-form.ts";
import { formAction } from "../lib/form-action.server.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/reset-password";

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services, csrfToken } = context.get(requestContext);
  const usable = await services.accounts.isResetLinkUsable(params.token);
  return { token: params.token, usable, csrfToken: usable ? csrfToken() : null };
}

/** The page carries this visitor's XSRF token: never a shared cache's copy. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/**
 * The form posted to the page: the same check and service as `POST /api/reset_password`, which
 * also ends this browser's session.
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { services, session } = context.get(requestContext);
  return formAction(
    request,
    ResetPasswordSchema,
    async (input) => {
      const { message } = await services.accounts.resetPassword(input);
      session.end();
      return message;
    },
    { also: { token: params.token }, next: "/login" },
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Choose a new password", noindex: true });

export default function ResetPassword() {
  const { token, usable, csrfToken } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const form = useApiForm(
    ResetPasswordSchema,
    (values) => apiCall("/reset_password", values),
    (result, form) => {
      form.show({ text: messageOf(result.data), tone: "success" }, { keep: true });
      form.later(() => window.location.assign("/login"), DELAYS_MS.redirect);
    },
    { initial: { token, password: "", password_confirmation: "" }, posted },
  );

  // A reset posted to the page used the link: its success shows, not the used link's notice.
  if (!usable && !posted?.ok) {
    return (
      <AuthCard title="Choose a new password">
        <p className="alert alert-danger">{ACCOUNT_MESSAGES.resetLinkInvalid}</p>
        <Link className="btn btn-primary" to="/forgotpassword">
          Send me a new link
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password">
      <FormAlert message={form.message} />
      <KitForm form={form} csrfToken={csrfToken} posted={posted} aria-label="Choose a new password">
        <NewPasswordFields
          password={form.bind("password")}
          confirmation={form.bind("password_confirmation")}
        />
        <div>
          <SubmitButton busy={form.busy || form.done || Boolean(posted?.ok)}>
            Save new password
          </SubmitButton>
        </div>
      </KitForm>
    </AuthCard>
  );
}
