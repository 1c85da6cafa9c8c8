import { Link, useParams } from "react-router";
import { AuthCard } from "../components/AuthCard.tsx";
import { EducatorBadge } from "../components/EducatorBadge.tsx";
import { useConfirmLink } from "../lib/confirm-link.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/verify-educator-confirm";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Confirm your school address", noindex: true });

/**
 * /user/verify-educator/confirm/{code}: the page posts the code once it runs in a browser, so a
 * mail scanner that only fetches the link does not use the single-use code up.
 */
export default function ConfirmSchoolAddress() {
  const { code = "" } = useParams();
  const outcome = useConfirmLink("/educator_verification/confirm", { code });

  return (
    <AuthCard title="Confirm your school address">
      <div aria-live="polite" role="status">
        {outcome.state === "loading" && (
          <div className="loading">
            <span className="spinner" aria-hidden="true" />
            <span className="visually-hidden">Confirming your school address…</span>
          </div>
        )}
        {outcome.state === "done" && (
          <p className="alert alert-success">
            {outcome.message} <EducatorBadge verified />
          </p>
        )}
        {outcome.state === "failed" && <p className="alert alert-danger">{outcome.message}</p>}
      </div>
      {outcome.state === "done" && (
        <p>
          <Link className="btn btn-primary" to="/user/profile">
            Go to my account
          </Link>
        </p>
      )}
      {outcome.state === "failed" && (
        <p>
          <Link to="/user/verify-educator">Ask to be verified again</Link>
        </p>
      )}
    </AuthCard>
  );
}
