import { Link, useParams, useRouteLoaderData } from "react-router";
import type { RootLoaderData } from "../root.tsx";
import { AuthCard } from "../components/AuthCard.tsx";
import { useConfirmLink } from "../lib/confirm-link.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/confirm";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Email confirmation", noindex: true });

/**
 * /confirm/{code}: the browser posts the code (POST /api/verify) once the page runs, so a mail
 * scanner that only fetches the link does not use the single-use code up.
 */
export default function Confirm() {
  const { code = "" } = useParams();
  const signedIn = Boolean(useRouteLoaderData<RootLoaderData>("root")?.user);
  const outcome = useConfirmLink("/verify", { confirmation_code: code });

  return (
    <AuthCard title="Email confirmation">
      <div aria-live="polite" role="status">
        {outcome.state === "loading" && (
          <div className="loading">
            <span className="spinner" aria-hidden="true" />
            <span className="visually-hidden">Confirming your email address…</span>
          </div>
        )}
        {outcome.state === "done" && <p className="alert alert-success">{outcome.message}</p>}
        {outcome.state === "failed" && <p className="alert alert-danger">{outcome.message}</p>}
      </div>
      {outcome.state === "done" && (
        <Link className="btn btn-primary" to={signedIn ? "/" : "/login"}>
          {signedIn ? "Go To Home" : "Login"}
        </Link>
      )}
      {outcome.state === "failed" && (
        <p>
          <Link to="/verify">Send a new confirmation link</Link>
        </p>
      )}
    </AuthCard>
  );
}
