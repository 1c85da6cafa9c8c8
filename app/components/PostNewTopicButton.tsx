import { Link, useRouteLoaderData } from "react-router";
import type { RootLoaderData } from "../root.tsx";

/**
 * POST NEW TOPIC / ADD NEW POST: to Submit Deals when signed in, to the login page for a visitor
 * (spec section 6).
 */
export function PostNewTopicButton({ label = "POST NEW TOPIC" }: { label?: string }) {
  const signedIn = Boolean(useRouteLoaderData<RootLoaderData>("root")?.user);
  return (
    <Link to={signedIn ? "/submitdeal" : "/login"} className="btn btn-accent post-new-topic">
      {label}
    </Link>
  );
}
