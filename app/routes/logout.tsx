import { useEffect, useRef } from "react";
import { redirect, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { CsrfField, SubmitButton } from "../components/Form.tsx";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/logout";

export async function loader({ context }: Route.LoaderArgs) {
  return { csrfToken: context.get(requestContext).csrfToken() };
}

/** The page carries this visitor's XSRF token: never a shared cache's copy. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/**
 * The Logout form's target: ends the session with the same service as `POST /api/logout`, clears
 * the session cookie and goes home (the spec), with or without JavaScript.
 */
export async function action({ context }: Route.ActionArgs) {
  const { services, user, session } = context.get(requestContext);
  await services.accounts.logout(user);
  session.end();
  return redirect("/", 303);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Logout", noindex: true });

/**
 * /logout (the navigation bar is hidden here), opened directly or in a new tab: the browser posts
 * the Logout form at once; without JavaScript the visitor presses its button.
 */
export default function Logout() {
  const { csrfToken } = useLoaderData<typeof loader>();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.requestSubmit();
  }, []);
  return (
    <div className="container page-message">
      <h1>Logout</h1>
      <form ref={form} method="post" action="/logout">
        <CsrfField token={csrfToken} />
        <SubmitButton busy={false}>Logout</SubmitButton>
      </form>
    </div>
  );
}
