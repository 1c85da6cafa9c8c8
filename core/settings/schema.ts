import { z } from "zod";
import { isBlank, text } from "../validation.ts";
import { BLOCKED_DOMAIN_MESSAGES, normaliseDomain } from "./blocked-domains.ts";
import { ENDING_LEVELS, NEWCOMER_LIMIT } from "../moderation/newcomer-links.ts";

/**
 * The console's settings page (/admin/settings, administrators): the spec's general settings, the
 * footer, moderation, and blocked link domains. A field left out of a call keeps its value; a field
 * sent is checked, and nothing is saved unless every field sent is valid.
 */

export const SETTINGS_LIMITS = {
  websiteName: 100,
  keywords: 1000,
  description: 300,
  copyright: 200,
  url: 2000,
  threshold: 1000,
  holdDays: 365,
  expiryMarks: 100,
  newcomer: NEWCOMER_LIMIT,
} as const;

export const SETTINGS_MESSAGES = {
  websiteName: "The website name is required.",
  websiteNameTooLong: `The website name can be at most ${SETTINGS_LIMITS.websiteName} characters.`,
  keywordsTooLong: `The keywords can be at most ${SETTINGS_LIMITS.keywords} characters.`,
  descriptionTooLong: `The description can be at most ${SETTINGS_LIMITS.description} characters.`,
  copyrightTooLong: `The copyright text can be at most ${SETTINGS_LIMITS.copyright} characters.`,
  url: "Please enter a valid link starting with http:// or https://.",
  educatorPost: "Please enter the unique id of an educator post, such as ab3de5fgh2.",
  educatorPostMissing: "No live educator post has this unique id.",
  /** The answers of a save and of the blocked-domain list's changes (JSON call and page form). */
  saved: "The settings have been saved.",
  blocked: (domain: string) => `Links to ${domain} are now refused.`,
  unblocked: (domain: string) => `Links to ${domain} are allowed again.`,
  imageSaved: (field: SiteImageField, saved: boolean) =>
    `The ${SITE_IMAGE_NAMES[field]} has been ${saved ? "saved" : "removed"}.`,
  threshold: `The number of reports must be a whole number from 1 to ${SETTINGS_LIMITS.threshold}.`,
  holdDays: `The number of days must be a whole number from 0 to ${SETTINGS_LIMITS.holdDays}.`,
  holdPosts: "hold_new_user_posts must be true or false.",
  expiryMarks: `The number of members must be a whole number from 1 to ${SETTINGS_LIMITS.expiryMarks}.`,
  newcomerLinkPosts: `The number of approved posts must be a whole number from 0 to ${SETTINGS_LIMITS.newcomer}.`,
  newcomerUntilLevel: `The level must be one of ${ENDING_LEVELS.join(", ")}.`,
  newcomerLinkCap: `The number of links must be a whole number from 0 to ${SETTINGS_LIMITS.newcomer}.`,
  themeColor: "The theme colour must be a colour such as #353f66.",
  backgroundColor: "The background colour must be a colour such as #f4f5f8.",
  imageField: "field must be one of website_logo, play_store_image or app_store_image.",
  imageMissing: "Please choose an image file (JPEG, PNG, GIF or WebP).",
} as const;

const M = SETTINGS_MESSAGES;

/** A text field of the form: trimmed, at most `max` characters; missing or null keeps the value. */
function optionalText(max: number, tooLong: string, options: { required?: string } = {}) {
  const base = text({ error: tooLong }).trim().max(max, tooLong);
  return z.preprocess(
    (value) => (value === null ? undefined : value),
    (options.required ? base.min(1, options.required) : base).optional(),
  );
}

function optionalUrl() {
  return z.preprocess(
    (value) => (value === null ? undefined : value),
    text({ error: M.url })
      .trim()
      .max(SETTINGS_LIMITS.url, M.url)
      .refine((value) => value === "" || isWebLink(value), M.url)
      .optional(),
  );
}

/** An absolute http(s) link to a named host (what the footer's app-store buttons open). */
export function isWebLink(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.includes(".");
  } catch {
    return false;
  }
}

/** A whole number from `min` to `max`, as JSON or a form's text ("3"). */
function optionalWholeNumber(min: number, max: number, message: string) {
  return z.preprocess(
    (value) =>
      value === null || value === undefined
        ? undefined
        : typeof value === "string"
          ? /^\s*\d{1,9}\s*$/.test(value)
            ? Number(value)
            : NaN
          : value,
    z.number({ error: message }).int(message).min(min, message).max(max, message).optional(),
  );
}

/**
 * A colour as #rrggbb (what `<input type="color">` sends), in either case; stored lower case, the
 * form the database's CHECK (migration 041) and the manifest use.
 */
function optionalColor(message: string) {
  return z.preprocess(
    (value) => (value === null || value === "" ? undefined : value),
    text({ error: message })
      .trim()
      .regex(/^#[0-9a-f]{6}$/i, message)
      .transform((value) => value.toLowerCase())
      .optional(),
  );
}

/** A checkbox or JSON boolean: true/false, "true"/"false", "on" (a checked box). */
const optionalBoolean = z.preprocess(
  (value) =>
    value === null || value === undefined
      ? undefined
      : value === "true" || value === "on"
        ? true
        : value === "false" || value === ""
          ? false
          : value,
  z.boolean({ error: M.holdPosts }).optional(),
);

/** `POST /api/admin/settings`: every field optional; those sent are saved together or not at all. */
export const SettingsBody = z.object({
  website_name: optionalText(SETTINGS_LIMITS.websiteName, M.websiteNameTooLong, {
    required: M.websiteName,
  }),
  website_keywords: optionalText(SETTINGS_LIMITS.keywords, M.keywordsTooLong),
  website_description: optionalText(SETTINGS_LIMITS.description, M.descriptionTooLong),
  educator_post_unique_id: z.preprocess(
    (value) => (value === null ? undefined : value),
    text({ error: M.educatorPost })
      .trim()
      .regex(/^[a-z0-9]{0,40}$/i, M.educatorPost)
      .optional(),
  ),
  copyright_text: optionalText(SETTINGS_LIMITS.copyright, M.copyrightTooLong),
  playstore_url: optionalUrl(),
  app_store_url: optionalUrl(),
  report_hide_threshold: optionalWholeNumber(1, SETTINGS_LIMITS.threshold, M.threshold),
  hold_new_user_posts: optionalBoolean,
  hold_new_user_days: optionalWholeNumber(0, SETTINGS_LIMITS.holdDays, M.holdDays),
  // Distinct members whose "Expired?" marks expire a deal (core/posts/expiry, record 0037).
  expiry_mark_threshold: optionalWholeNumber(1, SETTINGS_LIMITS.expiryMarks, M.expiryMarks),
  // Newcomers' links (core/moderation/newcomer-links.ts, record 0089).
  newcomer_link_posts: optionalWholeNumber(0, SETTINGS_LIMITS.newcomer, M.newcomerLinkPosts),
  newcomer_until_level: z.preprocess(
    (value) => (value === null || value === "" ? undefined : value),
    z.enum(ENDING_LEVELS, { error: M.newcomerUntilLevel }).optional(),
  ),
  newcomer_link_cap: optionalWholeNumber(0, SETTINGS_LIMITS.newcomer, M.newcomerLinkCap),
  // The installed app's colours (core/app-install, record 0108).
  app_theme_color: optionalColor(M.themeColor),
  app_background_color: optionalColor(M.backgroundColor),
});
export type SettingsInput = z.output<typeof SettingsBody>;

/** The settings that hold an image, each uploaded on its own. */
export const SITE_IMAGE_FIELDS = ["website_logo", "play_store_image", "app_store_image"] as const;
export type SiteImageField = (typeof SITE_IMAGE_FIELDS)[number];
/** How the answers of `POST /api/admin/settings/image` name each image. */
const SITE_IMAGE_NAMES: Record<SiteImageField, string> = {
  website_logo: "logo",
  play_store_image: "Google Play badge",
  app_store_image: "App Store badge",
};

/**
 * `POST /api/admin/settings/image` (multipart): `field` names the setting, the file field `image`
 * carries the new picture; `remove=true` without a file clears the setting instead.
 */
export const SiteImageBody = z.object({
  field: z.enum(SITE_IMAGE_FIELDS, { error: M.imageField }),
  remove: z.preprocess(
    (value) =>
      isBlank(value) ? false : value === "true" ? true : value === "false" ? false : value,
    z.boolean({ error: "remove must be true or false." }),
  ),
});
export type SiteImageInput = z.output<typeof SiteImageBody>;

/** A domain as typed, normalised for the list (core/settings/blocked-domains.ts). */
const blockedDomain = z.preprocess(
  (value) => (value === null || value === undefined ? "" : value),
  text({ error: BLOCKED_DOMAIN_MESSAGES.invalid })
    .max(300, BLOCKED_DOMAIN_MESSAGES.tooLong)
    .transform((value, context) => {
      const domain = normaliseDomain(value);
      if (!domain) {
        context.addIssue({ code: "custom", message: BLOCKED_DOMAIN_MESSAGES.invalid });
        return z.NEVER;
      }
      return domain;
    }),
);

/** `POST /api/admin/blocked_domains/add` and `/remove` {domain}. */
export const BlockedDomainBody = z.object({ domain: blockedDomain });
export type BlockedDomainInput = z.output<typeof BlockedDomainBody>;
