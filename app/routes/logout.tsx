import { useEffect, useRef } from "react";
import { apiCall } from "../lib/api.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/logout";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Logout", noindex: true });

/**
 * /logout (the navigation bar is hidden here): ends the session on the server (POST, so no other
 * site can sign a visitor out with a link), then a full navigation home shows the signed-out site.
 */
export default function Logout() {
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void apiCall("/logout", {}).finally(() => window.location.replace("/"));
  }, []);
  return (
    <div className="container page-message" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <p>Logging out…</p>
    </div>
  );
}
