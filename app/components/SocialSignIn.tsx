import { useRouteLoaderData } from "react-router";
import { FaFacebookF } from "react-icons/fa";
import { FcGoogle } from "react-icons/fc";
import { DEFAULT_RETURN_PATH, safeReturnPath } from "../../core/auth/return-path.ts";
import type { RootLoaderData } from "../root.tsx";
import "../styles/auth.css";

const PROVIDERS = [
  { id: "google", label: "Google", Icon: FcGoogle },
  { id: "facebook", label: "Facebook", Icon: FaFacebookF },
] as const;

/**
 * "Continue with Google / Facebook": plain links to the server's OAuth flow (/auth/{provider}).
 * A provider without keys on this site is shown disabled, with a note, rather than failing later.
 */
export function SocialSignIn({
  intent = "login",
  next = "/",
}: {
  intent?: "login" | "delete";
  /** Where a sign-in returns to (record 0035); the server checks it again (server/routes/oauth.ts). */
  next?: string;
}) {
  const root = useRouteLoaderData<RootLoaderData>("root");
  const available = root?.publicConfig.oauthProviders ?? { google: false, facebook: false };
  const missing = PROVIDERS.filter((p) => !available[p.id]);
  const back = safeReturnPath(next);
  const returnQuery =
    intent === "login" && back !== DEFAULT_RETURN_PATH ? `&next=${encodeURIComponent(back)}` : "";
  return (
    <div className="social-signin">
      <p className="social-divider">
        <span>or continue with</span>
      </p>
      <div className="social-buttons">
        {PROVIDERS.map(({ id, label, Icon }) =>
          available[id] ? (
            <a
              key={id}
              className={`btn social-btn social-${id}`}
              href={`/auth/${id}?intent=${intent}${returnQuery}`}
            >
              <Icon aria-hidden="true" />
              <span>{label}</span>
            </a>
          ) : (
            <button
              key={id}
              type="button"
              className={`btn social-btn social-${id}`}
              disabled
              aria-describedby="social-unavailable"
            >
              <Icon aria-hidden="true" />
              <span>{label}</span>
            </button>
          ),
        )}
      </div>
      {missing.length > 0 && (
        <p id="social-unavailable" className="field-hint">
          {missing.map((p) => p.label).join(" and ")} sign-in {missing.length > 1 ? "are" : "is"}{" "}
          not available on this site yet.
        </p>
      )}
    </div>
  );
}
