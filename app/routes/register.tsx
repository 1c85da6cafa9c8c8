import { useState, type FormEvent } from "react";
import { Link, redirect, useNavigate } from "react-router";
import { requestContext } from "#app-context";
import { RegisterFormSchema } from "../../core/accounts/schema.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import {
  AuthCard,
  Field,
  FormAlert,
  PASSWORD_HINT,
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
import type { Route } from "./+types/register";

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  if (user) throw redirect("/");
  return null;
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Register",
    description: "Join the community of shoppers and teachers sharing deals and coupons.",
    path: "/register",
  });

const EMPTY = { name: "", email: "", password: "", confirm_password: "" };
const FIELDS = Object.keys(EMPTY);

interface SignupAnswer {
  status?: string;
  message?: unknown;
  errors?: unknown;
}

export default function Register() {
  const form = useSchemaForm(RegisterFormSchema, EMPTY);
  const feedback = useTimedMessage(DELAYS_MS.feedback);
  const later = useTimers();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    feedback.clear();
    if (!form.validate()) return;
    setBusy(true);
    const { name, email, password } = form.values;
    const result = await apiCall<SignupAnswer>("/signup", { name, email, password });
    if (result.status === 201) {
      setDone(true);
      feedback.show("Registered Successfully !", "success", { keep: true });
      later(() => navigate("/verify", { state: { email } }), DELAYS_MS.redirect);
      return;
    }
    setBusy(false);
    // The spec's register error is message.email; other fields come back the same way.
    const byField =
      typeof result.data.message === "object" ? result.data.message : result.data.errors;
    form.showErrors(serverFieldErrors({ errors: byField }, FIELDS));
    feedback.show(messageOf(result.data), "danger");
  }

  return (
    <AuthCard title="Register">
      <FormAlert message={feedback.message} />
      <form className="form" onSubmit={submit} noValidate aria-label="Register">
        <Field {...form.bind("name")} label="Name" autoComplete="name" />
        <Field {...form.bind("email")} label="Email" type="email" autoComplete="email" />
        <Field
          {...form.bind("password")}
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
        />
        <Field
          {...form.bind("confirm_password")}
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
        />
        <SubmitButton busy={busy || done}>Register</SubmitButton>
      </form>
      <SocialSignIn intent="login" />
      <p className="auth-switch">
        Already have an account? <Link to="/login">Login</Link>
      </p>
    </AuthCard>
  );
}
