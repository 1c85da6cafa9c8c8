import { z } from "zod";
import { pageNumber } from "../../list-query.ts";
import { NOT_TEXT_MESSAGE, text } from "../../validation.ts";

/** The spec's texts for the profile screens (sections 5 and 8). */
export const PROFILE_UPDATED = "Your profile has been updated";
export const ALL_FIELDS_REQUIRED = "All fields are required.";

const BLANK = new Set<unknown>([undefined, null, ""]);

/** A record id in a payload: a positive integer, sent as a number or a numeric string. */
export function idField(label: string) {
  return z.preprocess(
    (value) => (typeof value === "string" ? value.trim() : value),
    z.coerce
      .number({ error: `${label} is required.` })
      .int(`${label} must be a whole number.`)
      .positive(`${label} is required.`),
  );
}

/** An id that may be left out (undefined, null or ""). */
export function optionalIdField(label: string) {
  return z.preprocess(
    (value) => (BLANK.has(typeof value === "string" ? value.trim() : value) ? undefined : value),
    idField(label).optional(),
  );
}

/** Text that may be missing or null in a payload; trimmed, "" when absent. */
function optionalText(label: string, max: number, options: { multiline?: boolean } = {}) {
  return z.preprocess(
    (value) => (value === undefined || value === null ? "" : value),
    text(options).trim().max(max, `${label} must be ${max} characters or fewer.`),
  );
}

/** `POST /api/user_dashboard`, `POST /api/user`: the acting user, and the page of their deals. */
export const OwnProfileSchema = z.object({
  user_id: optionalIdField("user_id"),
  page: pageNumber,
});

/** `POST /api/user_profile`. */
export const PublicProfileSchema = z.object({
  loggedin_user_id: optionalIdField("loggedin_user_id"),
  user_id: idField("user_id"),
  page: pageNumber,
});

export type OwnProfileInput = z.output<typeof OwnProfileSchema>;
export type PublicProfileInput = z.output<typeof PublicProfileSchema>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.includes(".");
  } catch {
    return false;
  }
}

/** "example.com/me" is what people type; store it as https://example.com/me. */
function withScheme(value: string): string {
  if (!value || /^[a-z][a-z0-9+.-]*:/i.test(value)) return value;
  return `https://${value.replace(/^\/+/, "")}`;
}

function isPastDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  // Rejects 2023-02-30 and the like, which Date would roll over.
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
  return value >= "1900-01-01" && date.getTime() <= Date.now();
}

/**
 * `POST /api/profile_update` and the Edit profile form. Name, email and mobile are required; the
 * email is shown disabled and never changed here, so the server ignores whatever is sent for it.
 */
export const ProfileUpdateSchema = z.object({
  user_id: optionalIdField("user_id"),
  name: z.preprocess(
    (value) => value ?? "",
    text()
      .trim()
      .min(1, "Name is required !")
      .min(2, "Name should be more than 2 character!")
      .max(100, "Name must be 100 characters or fewer."),
  ),
  // Read as text like every field (a list or an object is refused), then ignored.
  email: z.preprocess((value) => value ?? undefined, text().optional()),
  // The spec's profile form checks "Mobile numeric", so an app may send the number itself: a
  // number is read as its digits (JSON has no NaN or Infinity, and an exponent fails the digits
  // check). Anything else that is not text is refused by text().
  mobile: z.preprocess(
    (value) => (typeof value === "number" ? String(value) : (value ?? "")),
    text()
      .trim()
      .min(1, "Mobile is required !")
      .regex(/^\d+$/, "Mobile number should be numeric.")
      .max(15, "Mobile number should be at most 15 digits."),
  ),
  website: optionalText("Website", 300)
    .transform(withScheme)
    .refine((v) => v === "" || isHttpUrl(v), "Please enter a valid website URL."),
  dob: optionalText("Date of birth", 10).refine(
    (v) => v === "" || isPastDate(v),
    "Please enter a valid date of birth.",
  ),
  gender: optionalText("Gender", 6)
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(["male", "female", ""], "Please choose male or female.")),
  brief: optionalText("Biography", 2000, { multiline: true }),
  address: optionalText("Address", 300, { multiline: true }),
});

export type ProfileUpdateInput = z.output<typeof ProfileUpdateSchema>;

/**
 * The spec's banner text for a failed update: 'All fields are required.' when a required field is
 * blank or not text.
 */
export function profileUpdateMessage(errors: Record<string, string>): string {
  const missing = (message = "") => /required/.test(message) || message === NOT_TEXT_MESSAGE;
  if (missing(errors.name) || missing(errors.mobile)) return ALL_FIELDS_REQUIRED;
  return Object.values(errors)[0] ?? ALL_FIELDS_REQUIRED;
}
