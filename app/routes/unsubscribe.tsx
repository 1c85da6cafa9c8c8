import { Form, Link, data, useActionData, useLoaderData, useNavigation } from "react-router";
import { requestContext } from "#app-context";
import { DomainError } from "../../core/errors.ts";
import { pageMeta } from "../lib/meta.ts";
import "../styles/notifications.css";
import type { Route } from "./+types/unsubscribe";

/**
 * /unsubscribe?token=…: the link at the foot of every member mail (docs/decisions/0044). No sign-in:
 * the signed token says whose mail of which kind. GET shows what the button switches off; POST
 * (the button, or a mail client's RFC 8058 one-click `List-Unsubscribe=One-Click`, which carries no
 * cookie and no XSRF token: the CSRF plugin lets this one path through) switches it off.
 */

function tokenOf(request: Request, form?: FormData): string {
  const fromForm = form?.get("token");
  if (typeof fromForm === "string" && fromForm) return fromForm;
  return new URL(request.url).searchParams.get("token") ?? "";
}

/** A refused token (malformed, tampered, or a deleted account's) answers 400 with the page that says why. */
function refused(error: unknown) {
  if (!(error instanceof DomainError)) throw error;
  return data({ state: "refused" as const, message: error.message }, { status: 400 });
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const token = tokenOf(request);
  try {
    const found = await services.notifications.unsubscribeTarget(token);
    return { state: "ask" as const, token, ...found };
  } catch (error) {
    return refused(error);
  }
}

export async function action({ context, request }: Route.ActionArgs) {
  const { services } = context.get(requestContext);
  let form: FormData | undefined;
  try {
    form = await request.formData();
  } catch {
    form = undefined; // a one-click POST with an empty or odd body still names its token in the URL
  }
  try {
    const done = await services.notifications.unsubscribe(tokenOf(request, form));
    return { state: "done" as const, message: done.message };
  } catch (error) {
    return refused(error);
  }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Unsubscribe", noindex: true });

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const shown = acted ?? loaded;
  return (
    <div className="container unsubscribe-page">
      <h1 className="page-title">
        {shown.state === "refused"
          ? "This link does not work"
          : shown.state === "done"
            ? "You are unsubscribed"
            : "Unsubscribe"}
      </h1>
      <div className="card">
        {shown.state === "refused" && (
          <p className="alert alert-danger" role="alert">
            {shown.message}
          </p>
        )}
        {shown.state === "done" && (
          <p className="alert alert-success" role="status">
            {shown.message}
          </p>
        )}
        {shown.state === "ask" && (
          <>
            <p>
              {shown.enabled
                ? `Stop receiving “${shown.label}” mails?`
                : `“${shown.label}” mails are already off for you.`}
            </p>
            {shown.enabled && (
              <Form
                method="post"
                action={`/unsubscribe?token=${encodeURIComponent(shown.token)}`}
                reloadDocument
              >
                <input type="hidden" name="token" value={shown.token} />
                <button
                  type="submit"
                  className="btn btn-primary"
                  disabled={busy}
                  aria-busy={busy || undefined}
                >
                  {busy ? "Loading…" : "Unsubscribe"}
                </button>
              </Form>
            )}
          </>
        )}
        <p>
          Change any of your mails in your <Link to="/user/settings/email">email settings</Link>{" "}
          (after signing in).
        </p>
      </div>
    </div>
  );
}
