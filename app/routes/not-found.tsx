import { data } from "react-router";
import { NotFoundContent } from "../components/NotFoundContent.tsx";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/not-found";

export function loader() {
  // The status matters to search engines: an unknown path is a 404, not a soft error page.
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Page Not Found", noindex: true });

export default function NotFound() {
  return <NotFoundContent />;
}
