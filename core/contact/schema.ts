import { z } from "zod";
import { CONTACT_CATEGORIES, CONTACT_MESSAGES } from "../constants.ts";
import { fieldErrors, NOT_TEXT_MESSAGE, text } from "../validation.ts";

const requiredMessage = (label: string) => `${label} is required.`;

const required = (label: string, max: number) =>
  text({ error: requiredMessage(label) })
    .trim()
    .min(1, requiredMessage(label))
    .max(max, `${label} must be at most ${max} characters.`);

/** Digits, optionally after a leading "+"; spaces, dashes, dots and brackets are ignored. */
const MOBILE = /^\+?\d{6,15}$/;

/** A web address with or without its scheme ("example.com" is read as https://example.com). */
function normaliseWebsite(value: string): string | null {
  if (!value) return "";
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (!url.hostname.includes(".") && url.hostname !== "localhost") return null;
    return url.toString();
  } catch {
    return null;
  }
}

const WEBSITE_INVALID = "Please enter a valid website URL.";

/** `POST /api/contact_us` and the Contact Us form (the spec's validation rules). */
export const ContactBody = z.object({
  name: required("Name", 100),
  category: z.preprocess(
    (value) => (value === undefined || value === null || value === "" ? "inquiry" : value),
    z.enum(CONTACT_CATEGORIES, { error: "Please choose a category from the list." }),
  ),
  subject: required("Subject", 200),
  email: required("Email", 254).pipe(z.email("Please enter a valid email address.")),
  mobile: required("Mobile", 30)
    .transform((value) => value.replace(/[\s().-]/g, ""))
    .pipe(z.string().regex(MOBILE, "Mobile number must be numeric.")),
  website: text({ error: WEBSITE_INVALID })
    .trim()
    .max(300, "Website must be at most 300 characters.")
    .optional()
    .transform((value, ctx) => {
      const url = normaliseWebsite(value ?? "");
      if (url === null) {
        ctx.addIssue({ code: "custom", message: WEBSITE_INVALID });
        return z.NEVER;
      }
      return url;
    }),
  message: text({ error: "Message must be text.", multiline: true })
    .trim()
    .max(5000, "Message must be at most 5000 characters.")
    .optional()
    .transform((value) => value ?? ""),
});

export type ContactInput = z.input<typeof ContactBody>;
export type ContactMessage = z.output<typeof ContactBody>;

export const CONTACT_REQUIRED_FIELDS = {
  name: requiredMessage("Name"),
  subject: requiredMessage("Subject"),
  email: requiredMessage("Email"),
  mobile: requiredMessage("Mobile"),
} as const;

/**
 * The headline of a failed contact form: the spec's 'All fields are required.' when a required
 * field is empty (or not text), else the first field's message.
 */
export function contactFailureMessage(errors: Record<string, string>): string {
  const missing = Object.entries(CONTACT_REQUIRED_FIELDS).some(
    ([field, message]) => errors[field] === message || errors[field] === NOT_TEXT_MESSAGE,
  );
  return missing
    ? CONTACT_MESSAGES.required
    : (Object.values(errors)[0] ?? CONTACT_MESSAGES.required);
}

/**
 * What is wrong with a contact form, as the site shows it: one message per field and the headline.
 * Null when the form is valid. Shared by the browser form and the API.
 */
export function contactProblem(
  input: unknown,
): { message: string; errors: Record<string, string> } | null {
  const errors = fieldErrors(ContactBody, input);
  return errors ? { message: contactFailureMessage(errors), errors } : null;
}
