import { data } from "react-router";

/** What core/errors.ts's DomainError kinds mean for a page (the API's map is in server/api/errors.ts). */
const CLIENT_ERROR_STATUS: Record<string, number> = {
  validation: 400,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  unauthenticated: 401,
  rejected: 400,
};

/**
 * The status of an error a core service threw for a client's mistake (a DomainError of a client
 * kind), or undefined for anything else. Route modules are bundled apart from the services they
 * receive through the router context, so `instanceof DomainError` is always false here: look at
 * the kind.
 */
export function clientErrorStatus(error: unknown): number | undefined {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return typeof kind === "string" ? CLIENT_ERROR_STATUS[kind] : undefined;
}

/** Answers the page with 404 (the root ErrorBoundary shows 'Page Not Found'). */
export function notFound(): never {
  throw data(null, { status: 404 });
}

/** A service's "no such item" (404) becomes the page's 404; any other failure stays one. */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (clientErrorStatus(error) === 404) notFound();
    throw error;
  }
}
