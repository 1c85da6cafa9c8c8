import { useState, type FormEvent } from "react";
import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { ACCOUNT_MESSAGES, SigninSchema } from "../../core/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import {
  AuthCard,
  Field,
  FormAlert,
  SubmitButton,
  messageOf,
  useSchemaForm,
  useTimedMessage,
  useTimers,
} from "../components/AuthForm.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog.tsx";
import { SocialSignIn } from "../components/SocialSignIn.tsx";
import { apiCall } from "../lib/api.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/delete-account";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  const search = new URL(request.url).searchParams;
  const socialError = search.get("social_error");
  return {
    // Back from a Google/Facebook sign-in made for this purpose: ask at once.
    confirmUserId: user && search.get("social") === "confirm" ? user.id : null,
    socialError:
      socialError === "nodata"
        ? ACCOUNT_MESSAGES.deleteSigninFailed
        : socialError
          ? ACCOUNT_MESSAGES.socialFailed
          : null,
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Delete account",
    description: "Delete your account and the personal data it holds.",
    path: "/delete-account",
    noindex: true,
  });

/**
 * Delete account: sign in again (password, or Google/Facebook), answer 'Are you want to delete
 * account ?', and the server removes the account's personal data and every session.
 */
export default function DeleteAccount() {
  const { confirmUserId, socialError } = useLoaderData<typeof loader>();
  const form = useSchemaForm(SigninSchema, { email: "", password: "" });
  const feedback = useTimedMessage(DELAYS_MS.feedback);
  const later = useTimers();
  const [userId, setUserId] = useState<number | null>(confirmUserId);
  const [busy, setBusy] = useState(false);
  const [deleted, setDeleted] = useState(false);

  async function signIn(event: FormEvent) {
    event.preventDefault();
    feedback.clear();
    if (!form.validate()) return;
    setBusy(true);
    const result = await apiCall<{ status?: string; response?: { user_id?: number } }>(
      "/signin",
      form.values,
    );
    setBusy(false);
    if (result.ok && result.data.status === "true" && result.data.response?.user_id) {
      setUserId(result.data.response.user_id);
    } else {
      feedback.show(ACCOUNT_MESSAGES.deleteSigninFailed, "danger");
    }
  }

  async function confirmDeletion() {
    if (userId === null) return;
    setBusy(true);
    const result = await apiCall("/user_deleted", { user_id: userId });
    setBusy(false);
    setUserId(null);
    if (result.ok) {
      setDeleted(true);
      feedback.show(ACCOUNT_MESSAGES.userDeleted, "success", { keep: true });
      // The server ended every session; a full navigation shows the signed-out site.
      later(() => window.location.assign("/"), DELAYS_MS.redirect);
    } else {
      feedback.show(messageOf(result.data), "danger");
    }
  }

  function keepAccount() {
    setUserId(null);
    feedback.show("Your account has not been deleted.", "success");
  }

  return (
    <AuthCard title="Delete account">
      {socialError && <p className="alert alert-danger">{socialError}</p>}
      <FormAlert message={feedback.message} />
      {!deleted && (
        <>
          <p>
            Sign in again to delete your account. Your name, email address, password, profile
            details, likes, follows and subscriptions are removed; the deals, discussions and
            comments you posted stay on the site as written by &ldquo;Deleted user&rdquo;.
          </p>
          <form
            className="form"
            onSubmit={signIn}
            noValidate
            aria-label="Sign in to delete your account"
          >
            <Field {...form.bind("email")} label="Email" type="email" autoComplete="email" />
            <Field
              {...form.bind("password")}
              label="Password"
              type="password"
              autoComplete="current-password"
            />
            <div>
              <SubmitButton busy={busy && userId === null}>Sign in</SubmitButton>
            </div>
          </form>
          <SocialSignIn intent="delete" />
        </>
      )}
      <ConfirmDialog
        open={userId !== null}
        title={ACCOUNT_MESSAGES.deleteConfirmQuestion}
        busy={busy}
        onConfirm={confirmDeletion}
        onCancel={keepAccount}
      >
        <p>This cannot be undone.</p>
      </ConfirmDialog>
    </AuthCard>
  );
}
