import { useState } from "react";
import { useLoaderData } from "react-router";
import { z } from "zod";
import { requestContext } from "#app-context";
import { ACCOUNT_MESSAGES, SigninSchema } from "../../core/people/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import { AuthCard } from "../components/AuthCard.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog.tsx";
import { Field, FormAlert, SubmitButton } from "../components/Form.tsx";
import { SocialSignIn } from "../components/SocialSignIn.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm, type ApiAnswer, type ApiForm } from "../lib/api-form.ts";
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

/** The first step: what deletion removes, and the sign-in form (or Google/Facebook). */
function SignInAgain({ form }: { form: ApiForm<{ email: string; password: string }> }) {
  return (
    <>
      <p>
        Sign in again to delete your account. Your name, email address, password, profile details,
        likes, follows and subscriptions are removed; the deals, discussions and comments you posted
        stay on the site as written by &ldquo;Deleted user&rdquo;.
      </p>
      <form
        ref={form.ref}
        className="form"
        onSubmit={form.submit}
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
          <SubmitButton busy={form.busy}>Sign in</SubmitButton>
        </div>
      </form>
      <SocialSignIn intent="delete" />
    </>
  );
}

/** The confirm modal's "form": nothing to fill in, only the answer Yes. */
const NO_FIELDS = z.object({});

/**
 * Delete account: sign in again (password, or Google/Facebook), answer 'Are you want to delete
 * account ?', and the server removes the account's personal data and every session.
 */
export default function DeleteAccount() {
  const { confirmUserId, socialError } = useLoaderData<typeof loader>();
  const [userId, setUserId] = useState<number | null>(confirmUserId);

  const signIn = useApiForm(
    SigninSchema,
    (values) => apiCall<{ response?: { user_id?: number } }>("/signin", values),
    (result, form) => {
      const id = result.data.response?.user_id;
      if (id) setUserId(id);
      else form.show({ text: ACCOUNT_MESSAGES.deleteSigninFailed, tone: "danger" });
    },
    {
      initial: { email: "", password: "" },
      // The spec's one message for a failed sign-in here; a refusal for too many failures says so.
      failureMessage: (result) =>
        result.status === 429
          ? messageOf(result.data as ApiAnswer)
          : ACCOUNT_MESSAGES.deleteSigninFailed,
    },
  );

  const confirm = useApiForm(
    NO_FIELDS,
    () => apiCall("/user_deleted", { user_id: userId }),
    (_result, form) => {
      setUserId(null);
      form.show({ text: ACCOUNT_MESSAGES.userDeleted, tone: "success" }, { keep: true });
      // The server ended every session; a full navigation shows the signed-out site.
      form.later(() => window.location.assign("/"), DELAYS_MS.redirect);
    },
    { initial: {} },
  );

  async function confirmDeletion() {
    if (userId === null) return;
    await confirm.submit();
    // A refusal closes the dialog too; its message shows on the page.
    setUserId(null);
  }

  function keepAccount() {
    setUserId(null);
    confirm.show({ text: "Your account has not been deleted.", tone: "success" });
  }

  return (
    <AuthCard title="Delete account">
      {socialError && <p className="alert alert-danger">{socialError}</p>}
      <FormAlert message={confirm.message ?? signIn.message} />
      {!confirm.done && <SignInAgain form={signIn} />}
      <ConfirmDialog
        open={userId !== null}
        title={ACCOUNT_MESSAGES.deleteConfirmQuestion}
        busy={confirm.busy}
        onConfirm={confirmDeletion}
        onCancel={keepAccount}
      >
        <p>This cannot be undone.</p>
      </ConfirmDialog>
    </AuthCard>
  );
}
