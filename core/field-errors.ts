import type { z } from "zod";

/**
 * How a failed parse of an input schema (core/validation.ts) becomes field messages, for browser
 * forms and API errors alike. It needs no zod code of its own, so the browser's form kit can check
 * a form with a schema it loads only when the form is sent (docs/decisions/0051-javascript-budget.md).
 */

/** Field → first message, for browser forms and API errors alike (`_` for the input as a whole). */
export function issuesToFieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.join(".") : "_";
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Field → first message; null when the input is valid. */
export function fieldErrors<S extends z.ZodType>(
  schema: S,
  input: unknown,
): Record<string, string> | null {
  const result = schema.safeParse(input ?? {});
  return result.success ? null : issuesToFieldErrors(result.error.issues);
}
