import { Link, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { ACCOUNT_MESSAGES, ResetPasswordSchema } from "../../core/people/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import { AuthCard, NewPasswordFields } from "../components/AuthCard.tsx";
import { FormAlert, SubmitButton } from "../components/Form.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm } from "../lib/api-form.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/reset-password";

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return { token: params.token, usable: await services.accounts.isResetLinkUsable(params.token) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Choose a new password", noindex: true });

export default function ResetPassword() {
  const { token, usable } = useLoaderData<typeof loader>();
  const form = useApiForm(
    ResetPasswordSchema,
    (values) => apiCall("/reset_password", values),
    (result, form) => {
      form.show({ text: messageOf(result.data), tone: "success" }, { keep: true });
      form.later(() => window.location.assign("/login"), DELAYS_MS.redirect);
    },
    { initial: { token, password: "", password_confirmation: "" } },
  );

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

  return (
    <AuthCard title="Choose a new password">
      <FormAlert message={form.message} />
      <form
        ref={form.ref}
        className="form"
        onSubmit={form.submit}
        noValidate
        aria-label="Choose a new password"
      >
        <NewPasswordFields
          password={form.bind("password")}
          confirmation={form.bind("password_confirmation")}
        />
        <div>
          <SubmitButton busy={form.busy || form.done}>Save new password</SubmitButton>
        </div>
      </form>
    </AuthCard>
  );
}
