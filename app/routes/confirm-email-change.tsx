import { Link, useActionData, useLoaderData, useRouteLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { ACCOUNT_MESSAGES, ConfirmEmailChangeSchema } from "../../core/people/accounts/schema.ts";
import type { RootLoaderData } from "../root.tsx";
import { AuthCard } from "../components/AuthCard.tsx";
import { FormAlert, KitForm, SubmitButton } from "../components/Form.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm } from "../lib/api-form.ts";
import { formAction } from "../lib/form-action.server.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/confirm-email-change";

/**
 * /confirm-email-change?token=…: the link mailed to a new address. Opening it only asks; the
 * button uses the single-use code (POST /api/confirm_email_change, or this page's action without
 * JavaScript), so a mail scanner that fetches the link changes nothing.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, csrfToken } = context.get(requestContext);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const link = await services.accounts.emailChangeLink(token);
  return { token, link, csrfToken: link.state === "usable" ? csrfToken() : null };
}

/** The page carries this visitor's XSRF token: never a shared cache's copy. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/** The button posted to the page: the same check and service as POST /api/confirm_email_change. */
export async function action({ context, request }: Route.ActionArgs) {
  const { services } = context.get(requestContext);
  return formAction(request, ConfirmEmailChangeSchema, async (input) => {
    return (await services.accounts.confirmEmailChange(input)).message;
  });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Change your email address", noindex: true });

const TITLE = "Change your email address";

export default function ConfirmEmailChange() {
  const { token, link, csrfToken } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const signedIn = Boolean(useRouteLoaderData<RootLoaderData>("root")?.user);
  const form = useApiForm(
    ConfirmEmailChangeSchema,
    (values) => apiCall("/confirm_email_change", values),
    (result, form) => {
      form.show({ text: messageOf(result.data), tone: "success" }, { keep: true });
    },
    { initial: { token }, posted },
  );
  const changed = Boolean(posted?.ok) || form.done;
  const next = signedIn ? (
    <Link className="btn btn-primary" to="/user/profile">
      Go to my account
    </Link>
  ) : (
    <Link className="btn btn-primary" to="/login">
      Login
    </Link>
  );

  // A change posted to the page used the link: its success shows, not the used link's notice.
  if (link.state !== "usable" && !posted) {
    return (
      <AuthCard title={TITLE}>
        <p className="alert alert-danger" role="alert">
          {link.state === "used"
            ? ACCOUNT_MESSAGES.emailChangeLinkUsed
            : ACCOUNT_MESSAGES.emailChangeLinkInvalid}
        </p>
        <Link to="/user/profile-edit#change-email">Ask for a new link</Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={TITLE}>
      <FormAlert message={form.message} />
      {changed ? (
        next
      ) : link.state === "usable" ? (
        <>
          <p>
            Your new email address will be <strong>{link.newEmail}</strong>. You will sign in with
            it, and our mail will go there.
          </p>
          <KitForm form={form} csrfToken={csrfToken} aria-label={TITLE}>
            <input type="hidden" name="token" value={token} />
            <div>
              <SubmitButton busy={form.busy}>Use this address</SubmitButton>
            </div>
          </KitForm>
          <p>
            <Link to="/user/profile-edit">Keep my current address</Link>
          </p>
        </>
      ) : (
        <Link to="/user/profile-edit#change-email">Ask for a new link</Link>
      )}
    </AuthCard>
  );
}
