import { z } from "zod";
import { optionalIdField } from "../../people/profiles/schema.ts";
import { EMAIL_KINDS, isEmailKind, type EmailKind } from "./email-kinds.ts";

/** `GET /api/notifications?page=n`: anything but a page number is page 1. */
export const NotificationsPage = z.object({
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** `POST /api/notifications_read`: one notification (id), or every one when id is left out. */
export const MarkReadBody = z.object({
  id: optionalIdField("id"),
});

export type MarkReadInput = z.output<typeof MarkReadBody>;

export const NOTIFICATION_MESSAGES = {
  allRead: "All notifications are marked as read.",
  oneRead: "The notification is marked as read.",
  notFound: "That notification does not exist.",
} as const;

/** Notifications per page of /user/notifications. */
export const NOTIFICATIONS_PAGE_SIZE = 20;

/** `POST /api/notifications` {page}: the same page as the GET call's query string. */
export const NotificationsPageBody = NotificationsPage;

/** A mail kind's on/off as a JSON boolean, or as a form sends it ("true"/"false", "on"/"off", 1/0). */
const onOff = z.preprocess(
  (value) => {
    if (typeof value === "boolean") return value;
    if (value === 1 || value === "1" || value === "true" || value === "on") return true;
    if (value === 0 || value === "0" || value === "false" || value === "off") return false;
    return value;
  },
  z.boolean({ error: "Choose on (true) or off (false)." }),
);

/**
 * `POST /api/email_preferences_save`: the kinds to change, each true or false; kinds left out stay
 * as they are. A name that is not a mail kind is refused by name.
 */
export const EmailPreferencesSaveBody = z
  .looseObject(
    Object.fromEntries(EMAIL_KINDS.map((kind) => [kind, onOff.optional()])) as Record<
      EmailKind,
      z.ZodOptional<typeof onOff>
    >,
  )
  .superRefine((value, ctx) => {
    const keys = Object.keys(value);
    for (const key of keys) {
      if (!isEmailKind(key)) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `There is no kind of mail called “${key.slice(0, 40)}”. The kinds are: ${EMAIL_KINDS.join(", ")}.`,
        });
      }
    }
    if (!keys.some(isEmailKind)) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: `Name at least one kind of mail to switch on or off: ${EMAIL_KINDS.join(", ")}.`,
      });
    }
  })
  .transform((value) => {
    const out: Partial<Record<EmailKind, boolean>> = {};
    for (const kind of EMAIL_KINDS) if (typeof value[kind] === "boolean") out[kind] = value[kind];
    return out;
  });

export type EmailPreferencesSaveInput = z.output<typeof EmailPreferencesSaveBody>;

/**
 * The email-settings page's form as a browser posts it: a ticked box sends "on" and an unticked one
 * nothing, so every kind the form shows and did not send is off. Read into the call's shape and
 * checked by its schema (app/routes/email-settings.tsx).
 */
export const EmailPreferencesFormBody = z.preprocess(
  (posted) =>
    posted && typeof posted === "object"
      ? { ...Object.fromEntries(EMAIL_KINDS.map((kind) => [kind, "off"])), ...posted }
      : posted,
  EmailPreferencesSaveBody,
);

/** The token of an unsubscribe link (`/unsubscribe?token=…`). */
export const UnsubscribeToken = z.object({
  token: z.string().trim().min(1).max(200),
});

export const EMAIL_MESSAGES = {
  saved: "Your email settings are saved.",
  badToken:
    "This unsubscribe link is not valid. It may have been copied incompletely. Open it again from the mail, or change your email settings after signing in.",
  noAccount: "This account no longer exists, so it receives no mail from us.",
  unsubscribed: (label: string) =>
    `You are unsubscribed from “${label}” mails. You can switch them on again in your email settings.`,
} as const;
