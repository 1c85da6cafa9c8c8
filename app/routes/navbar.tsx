import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/navbar";

// The spec lists /navbar as a route whose content is not shown: the site's header and footer with
// an empty main area, kept out of search results.
export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Navigation", path: "/navbar", noindex: true });

export default function NavbarRoute() {
  return null;
}
