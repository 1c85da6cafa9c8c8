import { Link, useRouteLoaderData } from "react-router";
import { loginPath } from "../lib/pending-action.ts";
import type { RootLoaderData } from "../root.tsx";

/**
 * POST NEW TOPIC / ADD NEW POST: to Submit Deals when signed in, to the login page for a visitor
 * (the spec's roles), which comes back to Submit Deals after signing in.
 */
export function PostNewTopicButton({ label = "POST NEW TOPIC" }: { label?: string }) {
  const signedIn = Boolean(useRouteLoaderData<RootLoaderData>("root")?.user);
  return (
    <Link
      to={signedIn ? "/submitdeal" : loginPath("/submitdeal")}
      className="btn btn-accent post-new-topic"
    >
      {label}
    </Link>
  );
}
