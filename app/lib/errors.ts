/**
 * The status of an error a core service threw for a client's mistake (an AppError: 4xx), or
 * undefined for anything else. Route modules are bundled apart from the services they receive
 * through the router context, so `instanceof AppError` is always false here: look at the status.
 */
export function clientErrorStatus(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" && status >= 400 && status < 500 ? status : undefined;
}
