import { z } from "zod";

// The one way a failed parse becomes field messages; in a module of its own, without zod, for the
// browser's form kit (docs/decisions/0051-javascript-budget.md).
export { fieldErrors, issuesToFieldErrors } from "./field-errors.ts";

/**
 * The building blocks every input schema of core/<feature>/schema.ts is made of, and the one way a
 * failed parse becomes field messages (docs/decisions/0021-text-input-hardening.md).
 */

/** Text of one line: no control character at all (C0, DEL, C1). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const SINGLE_LINE = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** Text of several lines: tab, line feed and carriage return are allowed, no other control character. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

export const CONTROL_CHARACTERS_MESSAGE =
  "This text contains control characters (such as NUL) that are not allowed.";

export const MALFORMED_TEXT_MESSAGE = "This text is not valid Unicode.";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The answer to a value that is there but is not text (a number, true or false, a list, an object)
 * where a form would send text. JSON lets a client send `{"email": {"toString": 1}}`, which no
 * form can, and which `String(value)` cannot even turn into text (it throws): such values are
 * refused, never converted.
 */
export const NOT_TEXT_MESSAGE = "This field must be text.";

/** Whether a value is given (neither absent nor null) but is not a string. */
export function isGivenNonText(value: unknown): boolean {
  return value !== undefined && value !== null && typeof value !== "string";
}

/**
 * The shared first step of every string in an input schema: a string that refuses control
 * characters, which no form can type and which PostgreSQL cannot store (NUL), and lone UTF-16
 * surrogates, which no keyboard produces and which PostgreSQL refuses inside JSON (a queued mail
 * carries the text). A value that is not text is refused with NOT_TEXT_MESSAGE; `error` is the
 * message for a missing or null one (zod's own when not given). Chain .trim(), .min(), .max() after
 * it.
 */
export function text(options: { error?: string; multiline?: boolean } = {}) {
  return z
    .string({
      error: (issue) => (isGivenNonText(issue.input) ? NOT_TEXT_MESSAGE : options.error),
    })
    .regex(options.multiline ? MULTI_LINE : SINGLE_LINE, CONTROL_CHARACTERS_MESSAGE)
    .refine((value) => !LONE_SURROGATE.test(value), MALFORMED_TEXT_MESSAGE);
}

/** Nothing given: absent, null, or text of only white space (a form's empty field). */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && !value.trim());
}

/**
 * An end date as staff type it (a suspension's, a voting block's): a date, YYYY-MM-DD, meaning
 * that day's start in UTC, or an ISO date and time with its offset. Null when it is neither, or
 * when a date does not exist (2030-02-31 would parse as another day: refused, not moved).
 */
export function parseEndDate(value: string): Date | null {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const withTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(
    value,
  );
  const at = dateOnly ? new Date(`${value}T00:00:00.000Z`) : withTime ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) return null;
  if (dateOnly && at.toISOString().slice(0, 10) !== value) return null;
  return at;
}
