import { data } from "react-router";

/**
 * The status of an error a core service threw for a client's mistake (an AppError: 4xx), or
 * undefined for anything else. Route modules are bundled apart from the services they receive
 * through the router context, so `instanceof AppError` is always false here: look at the status.
 */
export function clientErrorStatus(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" && status >= 400 && status < 500 ? status : undefined;
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
