import { useId, useState } from "react";
import { Form, data, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { requestContext } from "#app-context";
import {
  ACCOUNT_MESSAGES,
  DeleteAccountBody,
  SigninSchema,
} from "../../core/people/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import { TooManyAttemptsError } from "../../core/errors.ts";
import { AuthCard } from "../components/AuthCard.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog.tsx";
import { CsrfField, Field, FormAlert, KitForm, SubmitButton } from "../components/Form.tsx";
import { SocialSignIn } from "../components/SocialSignIn.tsx";
import { apiCall } from "../lib/api.ts";
import {
  messageOf,
  useApiForm,
  type ApiAnswer,
  type ApiForm,
  type FormOutcome,
} from "../lib/api-form.ts";
import { formAction } from "../lib/form-action.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { useHydrated } from "../lib/use-hydrated.ts";
import type { Route } from "./+types/delete-account";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, csrfToken } = context.get(requestContext);
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
    csrfToken: csrfToken(),
  };
}

/** The page carries this visitor's XSRF token: never a shared cache's copy. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return {
    "Cache-Control": "private, no-store",
    ...(retryAfter ? { "Retry-After": retryAfter } : {}),
  };
};

const KEPT = "Your account has not been deleted.";

/** The page's steps, told apart by the posted `intent`: sign in again, then Yes or No. */
type Step = "signin" | "delete" | "keep";

/** A step's answer; `userId` is the account just signed in to, to ask about. */
type StepOutcome = FormOutcome & { step: Step; userId: number | null };

/**
 * The page's forms posted without JavaScript. Signing in again runs the same check and service as
 * `POST /api/signin` (and starts the session, as it does); Yes runs `POST /api/user_deleted`'s
 * service for the session's user (with the form's `remove_posts` box), which needs that recent
 * sign-in, and ends the session.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, user, session } = context.get(requestContext);
  const intent = (await request.clone().formData()).get("intent");
  const answered = (
    step: Step,
    answer: Awaited<ReturnType<typeof formAction>>,
    userId: number | null = null,
  ) => data<StepOutcome>({ ...answer.data, step, userId }, answer.init ?? undefined);

  if (intent === "keep") {
    return data<StepOutcome>({
      ok: true,
      values: {},
      errors: {},
      message: KEPT,
      step: "keep",
      userId: null,
    });
  }
  if (intent === "delete") {
    const answer = await formAction(
      request,
      DeleteAccountBody,
      async (input) => {
        const { message } = await services.accounts.deleteAccount(user, input);
        session.end();
        return message;
      },
      // The session's user, never one named in the form.
      { also: { user_id: user ? String(user.id) : "" }, next: "/" },
    );
    return answered("delete", answer);
  }
  let userId: number | null = null;
  const answer = await formAction(
    request,
    SigninSchema,
    async (input) => {
      const signedIn = await services.accounts.signin(input, {
        userAgent: request.headers.get("user-agent") ?? "",
        previousSessionId: user?.sessionId,
      });
      session.start(signedIn.token);
      userId = signedIn.user.id;
      return "";
    },
    {
      // The spec's one message for a failed sign-in here; a refusal for too many failures says so.
      failureMessage: (error) =>
        error instanceof TooManyAttemptsError ? error.message : ACCOUNT_MESSAGES.deleteSigninFailed,
    },
  );
  return answered("signin", answer, userId);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Delete account",
    description: "Delete your account and the personal data it holds.",
    path: "/delete-account",
    noindex: true,
  });

/**
 * What deletion removes and what stays, in the privacy policy's words (db/demo/site.ts,
 * docs/decisions/0014-account-deletion.md).
 */
function WhatDeletionRemoves() {
  return (
    <>
      <p>Deleting your account removes, at once and all together:</p>
      <ul>
        <li>your name, email address, password, photo and every profile detail;</li>
        <li>
          your votes (likes and unlikes), &ldquo;Expired?&rdquo; marks, coupon answers and the
          reports you filed, which no longer count anywhere;
        </li>
        <li>
          your keyword alerts, saved deals, the stores, categories and members you follow, and your
          followers;
        </li>
        <li>
          your notifications, email settings, any email to you not sent yet, and your name in other
          members&rsquo; notifications;
        </li>
        <li>your signed-in devices and linked Google or Facebook accounts;</li>
        <li>
          your educator verification requests, Teachers Wishlist entries not yet approved,
          subscriptions and the messages you sent us while signed in.
        </li>
      </ul>
      <p>
        The deals, discussions and comments you posted stay on the site, shown as written by
        &ldquo;Deleted user&rdquo;, unless you choose to delete them too when asked to confirm.
        Approved Teachers Wishlist entries and the record of our staff&rsquo;s actions also stay.
        See the <a href="/privacy-policy">privacy policy</a>.
      </p>
    </>
  );
}

/** The confirm step's choice: the member's posts and comments go too. */
function RemovePostsChoice({
  checked,
  onChange,
}: {
  checked?: boolean;
  onChange?: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <p className="delete-account-choice">
      <input
        id={id}
        type="checkbox"
        name="remove_posts"
        value="on"
        {...(onChange
          ? { checked, onChange: (event) => onChange(event.target.checked) }
          : { defaultChecked: false })}
      />
      <label htmlFor={id}>{ACCOUNT_MESSAGES.removePostsLabel}</label>
    </p>
  );
}

/** The first step: what deletion removes, and the sign-in form (or Google/Facebook). */
function SignInAgain({
  form,
  csrfToken,
}: {
  form: ApiForm<{ email: string; password: string }>;
  csrfToken: string;
}) {
  return (
    <>
      <WhatDeletionRemoves />
      <p>Sign in again to delete your account.</p>
      <KitForm form={form} csrfToken={csrfToken} aria-label="Sign in to delete your account">
        <input type="hidden" name="intent" value="signin" />
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
      </KitForm>
      <SocialSignIn intent="delete" />
    </>
  );
}

/** The confirm modal's "form": nothing to fill in, only the answer Yes. */
const NO_FIELDS = z.object({});

/**
 * The modal's question as a form of the page, for a browser without JavaScript (a closed <dialog>
 * shows nothing there): Yes and No post their `intent`. Once hydrated, the modal asks instead.
 */
function ConfirmWithoutScripts({ csrfToken }: { csrfToken: string }) {
  return (
    <Form method="post" className="form card" aria-labelledby="delete-confirm-question">
      <CsrfField token={csrfToken} />
      <h2 id="delete-confirm-question" className="confirm-dialog-title">
        {ACCOUNT_MESSAGES.deleteConfirmQuestion}
      </h2>
      <RemovePostsChoice />
      <p>This cannot be undone.</p>
      <div className="confirm-dialog-actions">
        <button type="submit" name="intent" value="keep" className="btn btn-outline">
          No
        </button>
        <button type="submit" name="intent" value="delete" className="btn btn-danger">
          Yes
        </button>
      </div>
    </Form>
  );
}

/** The action's answer if it is `step`'s. */
function postedStep(
  posted: ReturnType<typeof useActionData<typeof action>>,
  step: Step,
): FormOutcome | undefined {
  return posted?.step === step ? posted : undefined;
}

/**
 * Delete account: sign in again (password, or Google/Facebook), answer 'Are you want to delete
 * account ?', and the server removes the account's personal data and every session.
 */
export default function DeleteAccount() {
  const { confirmUserId, socialError, csrfToken } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const hydrated = useHydrated();
  // Signed in again by the form posted to the page: ask at once, as after the JSON call.
  const [userId, setUserId] = useState<number | null>(confirmUserId ?? posted?.userId ?? null);
  const [removePosts, setRemovePosts] = useState(false);

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
      posted: postedStep(posted, "signin"),
      // The spec's one message for a failed sign-in here; a refusal for too many failures says so.
      failureMessage: (result) =>
        result.status === 429
          ? messageOf(result.data as ApiAnswer)
          : ACCOUNT_MESSAGES.deleteSigninFailed,
    },
  );

  const confirm = useApiForm(
    NO_FIELDS,
    () => apiCall("/user_deleted", { user_id: userId, remove_posts: removePosts }),
    (_result, form) => {
      setUserId(null);
      form.show({ text: ACCOUNT_MESSAGES.userDeleted, tone: "success" }, { keep: true });
      // The server ended every session; a full navigation shows the signed-out site.
      form.later(() => window.location.assign("/"), DELAYS_MS.redirect);
    },
    { initial: {}, posted: postedStep(posted, "delete") ?? postedStep(posted, "keep") },
  );

  async function confirmDeletion() {
    if (userId === null) return;
    await confirm.submit();
    // A refusal closes the dialog too; its message shows on the page.
    setUserId(null);
  }

  function keepAccount() {
    setUserId(null);
    setRemovePosts(false);
    confirm.show({ text: KEPT, tone: "success" });
  }

  return (
    <AuthCard title="Delete account">
      {socialError && <p className="alert alert-danger">{socialError}</p>}
      {posted?.ok && posted.next && (
        <meta httpEquiv="refresh" content={`${DELAYS_MS.redirect / 1000};url=${posted.next}`} />
      )}
      <FormAlert message={confirm.message ?? signIn.message} />
      {userId !== null && !hydrated && <ConfirmWithoutScripts csrfToken={csrfToken} />}
      {!confirm.done && !(posted?.step === "delete" && posted.ok) && (
        <SignInAgain form={signIn} csrfToken={csrfToken} />
      )}
      <ConfirmDialog
        open={userId !== null}
        title={ACCOUNT_MESSAGES.deleteConfirmQuestion}
        busy={confirm.busy}
        onConfirm={confirmDeletion}
        onCancel={keepAccount}
      >
        <RemovePostsChoice checked={removePosts} onChange={setRemovePosts} />
        <p>This cannot be undone.</p>
      </ConfirmDialog>
    </AuthCard>
  );
}
