import { Link, redirect, useActionData, useLoaderData, useNavigate } from "react-router";
import { requestContext } from "#app-context";
import { RegisterFormSchema } from "../../core/people/accounts/schema.ts";
import { returnPathOf, safeReturnPath, withReturnPath } from "../../core/auth/return-path.ts";
import { DELAYS_MS } from "../../core/constants.ts";
import { AuthCard, NewPasswordFields } from "../components/AuthCard.tsx";
import { Field, FormAlert, KitForm, SubmitButton } from "../components/Form.tsx";
import { SocialSignIn } from "../components/SocialSignIn.tsx";
import { apiCall } from "../lib/api.ts";
import { useApiForm } from "../lib/api-form.ts";
import { formAction } from "../lib/form-action.server.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/register";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  // Where to go after signing in (record 0035): a path on this site, else /.
  const next = returnPathOf(new URL(request.url));
  if (user) throw redirect(next);
  const { services, csrfToken } = context.get(requestContext);
  // When the form was rendered, signed (record 0085): sent back with it, as `form_stamp`.
  return { next, csrfToken: csrfToken(), formStamp: await services.accounts.signupFormStamp() };
}

/** The page carries this visitor's XSRF token: never a shared cache's copy. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const REGISTERED = "Registered Successfully !";

/**
 * The form posted to the page: the same check and service as `POST /api/signup`, with the form's
 * honeypot and signed render time (record 0085).
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services } = context.get(requestContext);
  const next = safeReturnPath(new URL(request.url).searchParams.get("next"));
  return formAction(
    request,
    RegisterFormSchema,
    async ({ confirm_password: _checked, ...signup }) => {
      await services.accounts.signup(signup);
      return REGISTERED;
    },
    { next: withReturnPath("/verify", next) },
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Register",
    description: "Join the community of shoppers and teachers sharing deals and coupons.",
    path: "/register",
  });

const EMPTY = { name: "", email: "", password: "", confirm_password: "", website: "" };

export default function Register() {
  const { next, csrfToken, formStamp: rendered } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const navigate = useNavigate();
  // A form the page answered with a field message keeps the stamp it was first rendered with, so
  // that correcting it quickly is not taken for a script's pace; an expired one is replaced.
  const formStamp =
    posted && !posted.ok && posted.values.form_stamp && !posted.errors.form_stamp
      ? posted.values.form_stamp
      : rendered;
  // The spec's register error is message.email; the kit reads field messages in that shape too.
  const form = useApiForm(
    RegisterFormSchema,
    ({ name, email, password, website }) =>
      apiCall("/signup", { name, email, password, website, form_stamp: formStamp }),
    (_result, form) => {
      form.show({ text: REGISTERED, tone: "success" }, { keep: true });
      const { email } = form.values;
      // The spec's /verify: a new account is not signed in; its "log in" link keeps `next`, so
      // signing in from there still returns the visitor (docs/decisions/0013).
      form.later(
        () => navigate(withReturnPath("/verify", next), { state: { email } }),
        DELAYS_MS.redirect,
      );
    },
    { initial: EMPTY, posted },
  );

  return (
    <AuthCard title="Register">
      <FormAlert message={form.message} />
      <KitForm
        form={form}
        csrfToken={csrfToken}
        posted={posted}
        action={withReturnPath("/register", next)}
        aria-label="Register"
      >
        <Field {...form.bind("name")} label="Name" autoComplete="name" />
        <Field {...form.bind("email")} label="Email" type="email" autoComplete="email" />
        <NewPasswordFields
          label="Password"
          password={form.bind("password")}
          confirmation={form.bind("confirm_password")}
        />
        <HoneypotField {...form.bind("website")} />
        <input type="hidden" name="form_stamp" value={formStamp} />
        <SubmitButton busy={form.busy || form.done || Boolean(posted?.ok)}>Register</SubmitButton>
      </KitForm>
      <SocialSignIn intent="login" next={next} />
      <p className="auth-switch">
        Already have an account? <Link to={withReturnPath("/login", next)}>Login</Link>
      </p>
    </AuthCard>
  );
}

/**
 * A honeypot (docs/decisions/0085-sign-up-defences.md): a text field people never see or reach,
 * placed off screen (not display:none, which form-filling scripts skip), out of the tab order and
 * hidden from screen readers, whose label says to leave it empty should one find it anyway.
 * Anything in it marks the form as a script's. Kept out of the form kit (Form.tsx), which every page
 * loads: only this page needs it (tests/integration/javascript-budget.test.ts).
 */
function HoneypotField({
  id,
  name = id,
  value,
  onChange,
}: {
  id: string;
  name?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="form-honeypot" aria-hidden="true">
      <label htmlFor={id}>Leave this field empty</label>
      <input
        id={id}
        name={name}
        type="text"
        value={value}
        tabIndex={-1}
        autoComplete="off"
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
