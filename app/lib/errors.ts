import { data } from "react-router";

/** Answers the page with 404 (the root ErrorBoundary shows 'Page Not Found'). */
export function notFound(): never {
  throw data(null, { status: 404 });
}
