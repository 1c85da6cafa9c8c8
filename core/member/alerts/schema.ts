import { z } from "zod";
import { optionalId } from "../../list-query.ts";
import { isBlank, text } from "../../validation.ts";

/**
 * Keyword alerts (docs/decisions/0045-alert-matching.md). The same schemas validate the
 * JSON calls and the /user/alerts page's forms.
 */

/** At most this many alerts per member. */
export const MAX_ALERTS_PER_USER = 100;
export const MAX_KEYWORDS_LENGTH = 200;
/** An instant alert mails at most once in this many minutes; later matches wait for the next. */
export const INSTANT_MAIL_SPACING_MINUTES = 10;
/** The preview and the feed look this far back. */
export const PREVIEW_DAYS = 30;
export const DELIVERIES = ["instant", "daily", "site"] as const;
export type Delivery = (typeof DELIVERIES)[number];
export const DEFAULT_DIGEST_HOUR = 8;

export const ALERT_MESSAGES = {
  empty:
    "Give the alert some keywords or at least one filter (store, category, price or discount).",
  keywordsTooLong: `Keywords can be at most ${MAX_KEYWORDS_LENGTH} characters.`,
  noSearchableWord:
    "These keywords have no word that search can look for (very common words such as “the” are left out). Add a word that names what you want.",
  unknownStore: "One of the chosen stores does not exist.",
  unknownCategory: "That category does not exist.",
  price: "The maximum price must be a number of 0 or more.",
  discount: "The minimum discount must be a whole number from 0 to 100.",
  delivery: "Delivery must be “instant”, “daily” or “site”.",
  digestHour: "The digest hour must be a whole number from 0 to 23.",
  tooMany: `You can have at most ${MAX_ALERTS_PER_USER} alerts. Delete one you no longer need first.`,
  notFound: "That alert does not exist.",
  saved: "Alert saved.",
  deleted: "Alert deleted.",
  revoked: "The feed has a new address; the old one no longer works.",
} as const;

const M = ALERT_MESSAGES;

/** A number field that may be empty (absent, null, ""): undefined then. */
function optionalNumber(message: string, check: (n: number) => boolean) {
  return z.preprocess(
    (value) => (isBlank(value) ? undefined : value),
    z.coerce
      .number({ error: message })
      .refine((n) => Number.isFinite(n) && check(n), message)
      .optional(),
  );
}

const storeIds = z.preprocess(
  (value) => {
    if (isBlank(value)) return [];
    return Array.isArray(value) ? value.filter((v) => !isBlank(v)) : [value];
  },
  z
    .array(
      z.coerce
        .number({ error: M.unknownStore })
        .int({ error: M.unknownStore })
        .positive({ error: M.unknownStore }),
      { error: M.unknownStore },
    )
    .max(50, { error: "Choose at most 50 stores." }),
);

const booleanField = z.preprocess(
  (value) =>
    value === "true" || value === "on" || value === "1" || value === 1
      ? true
      : value === "false" || value === "" || value === "0" || value === 0 || value == null
        ? false
        : value,
  z.boolean({ error: "must be true or false." }),
);

/** What an alert looks for: shared by save and preview. */
export const AlertCriteria = z.object({
  keywords: z.preprocess(
    (value) => (value == null ? "" : value),
    text({ error: "Keywords must be text." }).trim().max(MAX_KEYWORDS_LENGTH, M.keywordsTooLong),
  ),
  store_id: storeIds,
  category_id: optionalId,
  max_price: optionalNumber(M.price, (n) => n >= 0 && n < 1e10),
  min_discount: optionalNumber(M.discount, (n) => Number.isInteger(n) && n >= 0 && n <= 100),
});

const withSomething = <T extends z.output<typeof AlertCriteria>>(
  value: T,
  ctx: z.RefinementCtx,
) => {
  const nothing =
    !value.keywords &&
    value.store_id.length === 0 &&
    value.category_id === undefined &&
    value.max_price === undefined &&
    value.min_discount === undefined;
  if (nothing) ctx.addIssue({ code: "custom", path: ["keywords"], message: M.empty });
};

/** `POST /api/alert_preview`. */
export const AlertPreviewBody = AlertCriteria.superRefine(withSomething);
export type AlertCriteriaInput = z.output<typeof AlertCriteria>;

/** `POST /api/alert_save`: `id` empty for a new alert. */
export const AlertSaveBody = AlertCriteria.extend({
  id: optionalId,
  delivery: z.enum(DELIVERIES, { error: M.delivery }),
  paused: booleanField.default(false),
  only_hot: booleanField.default(false),
  digest_hour: z.preprocess(
    (value) => (isBlank(value) ? undefined : value),
    z.coerce
      .number({ error: M.digestHour })
      .int({ error: M.digestHour })
      .min(0, { error: M.digestHour })
      .max(23, { error: M.digestHour })
      .default(DEFAULT_DIGEST_HOUR),
  ),
}).superRefine(withSomething);
export type AlertSaveInput = z.output<typeof AlertSaveBody>;

/**
 * The /user/alerts editor as a browser posts it (app/routes/alerts.tsx), in `alert_save`'s shape
 * for AlertSaveBody: the stores' multiple select sends `store_id` once per chosen store, and a
 * ticked box sends "on" while an unticked one sends nothing (off).
 */
export function alertSaveFields(posted: FormData): Record<string, unknown> {
  const one = (name: string) => {
    const value = posted.get(name);
    return typeof value === "string" ? value : undefined;
  };
  return {
    id: one("id"),
    keywords: one("keywords"),
    store_id: posted.getAll("store_id").filter((value) => typeof value === "string"),
    category_id: one("category_id"),
    max_price: one("max_price"),
    min_discount: one("min_discount"),
    only_hot: one("only_hot"),
    delivery: one("delivery"),
    digest_hour: one("digest_hour"),
    paused: one("paused"),
  };
}

const requiredId = z.coerce
  .number({ error: M.notFound })
  .int({ error: M.notFound })
  .positive({ error: M.notFound });

/** `POST /api/alert_delete`, `POST /api/alert_rss_revoke`: {id}. */
export const AlertIdBody = z.object({ id: requiredId });
export type AlertIdInput = z.output<typeof AlertIdBody>;

/** `POST /api/alerts`: nothing needed. */
export const AlertListBody = z.object({}).passthrough();

/** A feed token as it appears in its URL: 43 base64url characters (256 bits). */
export const RSS_TOKEN = /^[A-Za-z0-9_-]{43}$/;
