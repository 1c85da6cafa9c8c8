import { Link, data, redirect, useActionData, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { ACCOUNT_MESSAGES, SigninSchema } from "../../core/people/accounts/schema.ts";
import {
  SUSPENDED_FALLBACK_MESSAGE,
  SUSPENSION_NOTICE_COOKIE,
  decodeSuspensionNotice,
} from "../../core/auth/suspension.ts";
import { returnPathOf, safeReturnPath, withReturnPath } from "../../core/auth/return-path.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import { DomainError, TooManyAttemptsError } from "../../core/errors.ts";
import { fieldErrors } from "../../core/validation.ts";
import { AuthCard } from "../components/AuthCard.tsx";
import { CsrfField, Field, FormAlert, SubmitButton } from "../components/Form.tsx";
import { SocialSignIn } from "../components/SocialSignIn.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm, type FieldErrors } from "../lib/api-form.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/login";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, csrfToken } = context.get(requestContext);
  const url = new URL(request.url);
  // Where to go after signing in (record 0035): a path on this site, else /.
  const next = returnPathOf(url);
  if (user) throw redirect(next);
  const socialError = url.searchParams.get("social_error");
  // A suspended account's Google or Facebook sign-in: its reason came in a cookie (server/routes/oauth.ts).
  const suspended =
    socialError === "suspended"
      ? (decodeSuspensionNotice(cookieValue(request, SUSPENSION_NOTICE_COOKIE)) ??
        SUSPENDED_FALLBACK_MESSAGE)
      : null;
  return {
    socialFailed: socialError !== null && !suspended,
    suspended,
    csrfToken: csrfToken(),
    next,
  };
}

function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie") ?? "";
  for (const part of header.split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

/**
 * The page carries this visitor's XSRF token: never a shared cache's copy. A sign-in refused for
 * too many failures says when to try again, as the API's does.
 */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return {
    "Cache-Control": "private, no-store",
    ...(retryAfter ? { "Retry-After": retryAfter } : {}),
  };
};

type SignInOutcome =
  | { ok: true; message: string; next: string }
  | { ok: false; email: string; errors: FieldErrors; message: string | null };

/**
 * Sign-in without JavaScript: the same form posted to the page, checked with the same schema and
 * signed in by the same service as `POST /api/signin`, which also sets the session cookie.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, user, session } = context.get(requestContext);
  const posted = await request.formData();
  const values = {
    email: String(posted.get("email") ?? ""),
    password: String(posted.get("password") ?? ""),
  };
  const next = safeReturnPath(posted.get("next"));
  const errors = fieldErrors(SigninSchema, values);
  if (errors) {
    return data<SignInOutcome>({ ok: false, email: values.email, errors, message: null }, 422);
  }
  try {
    const { token, message } = await services.accounts.signin(values, {
      userAgent: request.headers.get("user-agent") ?? "",
      previousSessionId: user?.sessionId,
    });
    session.start(token);
    return data<SignInOutcome>({ ok: true, message, next });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const outcome: SignInOutcome = {
      ok: false,
      email: values.email,
      errors: {},
      message: error.message,
    };
    // Too many failed sign-ins to this address: refused for now, like POST /api/signin.
    if (error instanceof TooManyAttemptsError) {
      return data(outcome, {
        status: 429,
        headers: { "Retry-After": String(error.retryAfterSeconds) },
      });
    }
    return data(outcome, 401);
  }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Login",
    description: "Log in to post deals, comment, like and follow other members.",
    path: "/login",
  });

export default function Login() {
  const { socialFailed, suspended, csrfToken, next } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const form = useApiForm(
    SigninSchema,
    (values) => apiCall<{ message?: string; next?: string }>("/signin", { ...values, next }),
    (result, form) => {
      form.show({ text: messageOf(result.data), tone: "success" }, { keep: true });
      // Back to the page that sent the visitor here, as the server checked it; a full
      // navigation, so the navigation bar shows the signed-in links.
      const target = safeReturnPath(result.data.next ?? next);
      form.later(() => window.location.assign(target), DELAYS_MS.redirect);
    },
    {
      initial: { email: posted && !posted.ok ? posted.email : "", password: "" },
      initialErrors: posted && !posted.ok ? posted.errors : undefined,
      initialMessage: posted?.message
        ? { text: posted.message, tone: posted.ok ? "success" : "danger" }
        : null,
    },
  );

  return (
    <AuthCard title="Login">
      {posted?.ok && (
        <meta httpEquiv="refresh" content={`${DELAYS_MS.redirect / 1000};url=${posted.next}`} />
      )}
      {socialFailed && <p className="alert alert-danger">{ACCOUNT_MESSAGES.socialFailed}</p>}
      {suspended && <p className="alert alert-danger">{suspended}</p>}
      <FormAlert message={form.message} />
      <form
        ref={form.ref}
        method="post"
        action={withReturnPath("/login", next)}
        className="form"
        onSubmit={form.submit}
        noValidate
        aria-label="Login"
      >
        <CsrfField token={csrfToken} />
        {next !== "/" && <input type="hidden" name="next" value={next} />}
        <Field {...form.bind("email")} label="Email" type="email" autoComplete="email" />
        <Field
          {...form.bind("password")}
          label="Password"
          type="password"
          autoComplete="current-password"
        />
        <p className="auth-aside">
          <Link to="/forgotpassword">Forgot password?</Link>
        </p>
        <SubmitButton busy={form.busy || form.done || Boolean(posted?.ok)}>Login</SubmitButton>
      </form>
      <SocialSignIn intent="login" next={next} />
      <p className="auth-switch">
        New here? <Link to={withReturnPath("/register", next)}>Create an account</Link>
      </p>
    </AuthCard>
  );
}
