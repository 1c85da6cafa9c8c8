import { useState, type FormEvent } from "react";
import { Link, redirect, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { ACCOUNT_MESSAGES, SigninSchema } from "../../core/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import {
  AuthCard,
  Field,
  FormAlert,
  SubmitButton,
  messageOf,
  serverFieldErrors,
  useSchemaForm,
  useTimedMessage,
  useTimers,
} from "../components/AuthForm.tsx";
import { SocialSignIn } from "../components/SocialSignIn.tsx";
import { apiCall } from "../lib/api.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/login";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  if (user) throw redirect("/");
  return { socialFailed: new URL(request.url).searchParams.has("social_error") };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Login",
    description: "Log in to post deals, comment, like and follow other members.",
    path: "/login",
  });

const EMPTY = { email: "", password: "" };

export default function Login() {
  const { socialFailed } = useLoaderData<typeof loader>();
  const form = useSchemaForm(SigninSchema, EMPTY);
  const feedback = useTimedMessage(DELAYS_MS.feedback);
  const later = useTimers();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    feedback.clear();
    if (!form.validate()) return;
    setBusy(true);
    const result = await apiCall<{ status?: string; message?: unknown; errors?: unknown }>(
      "/signin",
      form.values,
    );
    if (result.ok && result.data.status === "true") {
      setDone(true);
      feedback.show(messageOf(result.data), "success", { keep: true });
      // A full navigation, so the navigation bar shows the signed-in links.
      later(() => window.location.assign("/"), DELAYS_MS.redirect);
      return;
    }
    setBusy(false);
    form.showErrors(serverFieldErrors(result.data, ["email", "password"]));
    feedback.show(messageOf(result.data), "danger");
  }

  return (
    <AuthCard title="Login">
      {socialFailed && <p className="alert alert-danger">{ACCOUNT_MESSAGES.socialFailed}</p>}
      <FormAlert message={feedback.message} />
      <form className="form" onSubmit={submit} noValidate aria-label="Login">
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
        <SubmitButton busy={busy || done}>Login</SubmitButton>
      </form>
      <SocialSignIn intent="login" />
      <p className="auth-switch">
        New here? <Link to="/register">Create an account</Link>
      </p>
    </AuthCard>
  );
}
