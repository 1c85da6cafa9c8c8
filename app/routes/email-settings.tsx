import { Link, redirect, useActionData, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import {
  EmailPreferencesFormBody,
  EmailPreferencesSaveBody,
} from "../../core/member/notifications/schema.ts";
import { FormAlert, KitForm, SubmitButton } from "../components/Form.tsx";
import { PushToggle } from "../components/PushToggle.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm } from "../lib/api-form.ts";
import { formAction } from "../lib/form-action.server.ts";
import { pageMeta } from "../lib/meta.ts";
import "../styles/notifications.css";
import type { Route } from "./+types/email-settings";

/** The signed-in member's mail choices; a visitor goes to /login. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user, csrfToken } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  return { ...(await services.notifications.emailPreferences(user)), csrfToken: csrfToken() };
}

/**
 * The form posted to the page: its boxes read as `POST /api/email_preferences_save`'s on/off
 * (an unticked box is off), checked by that call's schema and saved by the same service. A
 * visitor goes to /login, as the loader sends them.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, user } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  return formAction(
    request,
    EmailPreferencesFormBody,
    async (input) => (await services.notifications.saveEmailPreferences(user, input)).message,
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Email settings", path: "/user/settings/email", noindex: true });

/** /user/settings/email: which kinds of mail the member receives, each on or off. */
export default function EmailSettings() {
  const { kinds, csrfToken } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const initial = Object.fromEntries(kinds.map((k) => [k.kind, String(k.enabled)])) as Record<
    string,
    string
  >;
  const form = useApiForm(
    EmailPreferencesSaveBody,
    (values) => apiCall("/email_preferences_save", values),
    (result, form) => {
      form.show({
        text: messageOf(result.data, "Your email settings are saved."),
        tone: "success",
      });
    },
    { initial, posted, idPrefix: "email" },
  );
  return (
    <div className="container email-settings-page">
      <h1 className="page-title">Email settings</h1>
      <p>
        Choose which mails we send you. Everything also shows in your{" "}
        <Link to="/user/notifications">notifications</Link>. Mails about your account (confirming
        your address, resetting your password) always go out.
      </p>
      <PushToggle
        showDevices
        context="Instant keyword alerts, replies to your comments, new deals in your feed and moderators' decisions on your posts, on this phone or computer."
      />
      <KitForm form={form} csrfToken={csrfToken} className="form card">
        <fieldset className="email-kinds" aria-describedby="email-kinds-hint">
          <legend>Send me an email about</legend>
          <p id="email-kinds-hint" className="visually-hidden">
            Each box switches one kind of mail on or off.
          </p>
          {kinds.map((k) => {
            const id = `email-${k.kind}`;
            return (
              <div className="email-kind" key={k.kind}>
                <input
                  id={id}
                  name={k.kind}
                  type="checkbox"
                  checked={form.values[k.kind] === "true"}
                  onChange={(event) => form.set(k.kind, String(event.target.checked))}
                  aria-describedby={`${id}-description`}
                />
                <label htmlFor={id}>{k.label}</label>
                <p id={`${id}-description`}>{k.description}</p>
              </div>
            );
          })}
        </fieldset>
        <FormAlert message={form.message} />
        <div>
          <SubmitButton busy={form.busy}>Save email settings</SubmitButton>
        </div>
      </KitForm>
    </div>
  );
}
