import { z } from "zod";
import { isMediaUrl } from "../../media/media-path.ts";
import { claimedUserId } from "../../people/accounts/schema.ts";
import { isBlank, text } from "../../validation.ts";

/**
 * The Submit Deals forms (the spec's entities and validation rules). The browser validates its form
 * with these schemas and the API validates the multipart fields with the same ones, so both show
 * the same message for the same field. Inputs are form strings; outputs are typed values.
 */

export const SUBMISSION_LIMITS = {
  title: 200,
  description: 50_000,
  link: 2000,
  couponCode: 60,
  maxPrice: 9_999_999_999.99,
} as const;

export const DEAL_MESSAGES = {
  dealCategory: "Please select a deal category.",
  store: "Please select a store.",
  category: "Please select a category.",
  title: "Title is required.",
  titleTooLong: `Title must be at most ${SUBMISSION_LIMITS.title} characters.`,
  description: "Description is required.",
  descriptionTooLong: "Description is too long.",
  price: "Price must be a number, 0 or more.",
  discount: "Discount must be a number from 0 to 100.",
  discountWhole: "Discount must be a whole number of percent.",
  link: "Please enter a valid link starting with http:// or https://.",
  expiry: "Please enter a valid expiry date.",
  expiryPast: "Expiry date cannot be in the past.",
  imageLink: "Image link must be a valid address starting with https://.",
  couponCode: `Coupon code must be at most ${SUBMISSION_LIMITS.couponCode} characters.`,
  type: "Please choose a deal or a coupon.",
} as const;

export const DISCUSSION_MESSAGES = {
  category: "Please select a category.",
  title: DEAL_MESSAGES.title,
  titleTooLong: DEAL_MESSAGES.titleTooLong,
  description: DEAL_MESSAGES.description,
  descriptionTooLong: DEAL_MESSAGES.descriptionTooLong,
} as const;

/** The image types an upload may be; the server checks the bytes, the browser the declared type. */
export const IMAGE_ACCEPT = "image/jpeg,image/png,image/gif,image/webp";

/** The texts core/media/images.ts refuses a file with, for the browser's own early check. */
export const IMAGE_MESSAGES = {
  tooLarge: "The image must be 5 MB or smaller.",
  notImage: "Please choose an image file (JPEG, PNG, GIF or WebP).",
} as const;

/** Text of an HTML fragment without tags or entities, enough to tell an empty editor apart. */
export function hasVisibleText(html: string): boolean {
  return (
    html
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, "")
      .replace(/<[^>]*>/g, "")
      .replace(/&nbsp;|&#160;/gi, " ")
      .trim() !== ""
  );
}

export function requiredId(message: string) {
  return z.preprocess(
    (value) => (isBlank(value) ? undefined : typeof value === "string" ? Number(value) : value),
    z
      .number({ error: message })
      .int(message)
      .positive(message)
      .max(Number.MAX_SAFE_INTEGER, message),
  );
}

export function requiredText(message: string, max: number, tooLong: string) {
  return z.preprocess(
    (value) => (value === undefined || value === null ? "" : value),
    text({ error: message }).trim().min(1, message).max(max, tooLong),
  );
}

export function richText(message: string, tooLong: string) {
  return z.preprocess(
    (value) => (value === undefined || value === null ? "" : value),
    text({ error: message, multiline: true })
      .max(SUBMISSION_LIMITS.description, tooLong)
      .refine(hasVisibleText, message),
  );
}

/**
 * A number typed by a person: "", "12", "12.50", "$1,299". Blank is "not given". A whole number
 * (`wholeMessage`) refuses fractions rather than rounding them away.
 */
export function optionalNumber(
  message: string,
  min: number,
  max: number,
  options: { wholeMessage?: string } = {},
) {
  const number = z.number({ error: message }).min(min, message).max(max, message);
  return z.preprocess(
    (value) =>
      isBlank(value)
        ? undefined
        : typeof value === "string"
          ? Number(value.replace(/[$,\s]/g, ""))
          : value,
    (options.wholeMessage ? number.int(options.wholeMessage) : number).optional(),
  );
}

export function optionalUrl(message: string, protocol: RegExp) {
  return z.preprocess(
    (value) => (isBlank(value) ? undefined : typeof value === "string" ? value.trim() : value),
    text({ error: message })
      .pipe(
        z
          .url({ protocol, hostname: z.regexes.domain, error: message })
          .max(SUBMISSION_LIMITS.link, message),
      )
      .optional(),
  );
}

/**
 * A deal's picture link: an outside https image (copied when the deal is posted), or the site's
 * own copy of one (/media/…), as Submit Deal's link preview stores it (record 0110).
 */
export function pictureLink(message: string) {
  return z.union(
    [
      text({ error: message })
        .trim()
        .refine((value) => isMediaUrl(value)),
      optionalUrl(message, /^https$/),
    ],
    { error: message },
  );
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

const HALF_DAY_MS = 12 * 60 * 60 * 1000;

/**
 * An expiry date means "until the end of that day wherever the reader is". The last place on Earth
 * where a date is still running is UTC-12, so date D ends at D+1 12:00 UTC, and the earliest date
 * that has not yet ended everywhere is the UTC date of now minus 12 hours.
 */
export function earliestExpiryDate(now: Date): string {
  return isoDate(new Date(now.getTime() - HALF_DAY_MS));
}

/** The moment a deal with expiry date `date` (YYYY-MM-DD) stops being live. */
export function expiryEndsAt(date: string): Date {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + 3 * HALF_DAY_MS);
}

/** The expiry date (YYYY-MM-DD) whose end is `endsAt`: the inverse of expiryEndsAt. */
export function expiryDateOf(endsAt: Date): string {
  return isoDate(new Date(endsAt.getTime() - 3 * HALF_DAY_MS));
}

export function isRealDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && isoDate(parsed) === value;
}

/**
 * The deal form. `earliestExpiry` is `earliestExpiryDate(now)`, or a function that gives it at the
 * moment a form is checked (the server's `DealSchema`, which lives as long as the process).
 */
export function createDealSchema(earliestExpiry: string | (() => string)) {
  const earliest = typeof earliestExpiry === "string" ? () => earliestExpiry : earliestExpiry;
  return z.object({
    user_id: claimedUserId,
    deal_category: requiredId(DEAL_MESSAGES.dealCategory),
    store_id: requiredId(DEAL_MESSAGES.store),
    category_id: requiredId(DEAL_MESSAGES.category),
    title: requiredText(DEAL_MESSAGES.title, SUBMISSION_LIMITS.title, DEAL_MESSAGES.titleTooLong),
    deal_description: richText(DEAL_MESSAGES.description, DEAL_MESSAGES.descriptionTooLong),
    price: optionalNumber(DEAL_MESSAGES.price, 0, SUBMISSION_LIMITS.maxPrice).transform((v) =>
      v === undefined ? undefined : Math.round(v * 100) / 100,
    ),
    discount: optionalNumber(DEAL_MESSAGES.discount, 0, 100, {
      wholeMessage: DEAL_MESSAGES.discountWhole,
    }),
    link: optionalUrl(DEAL_MESSAGES.link, /^https?$/),
    deal_image: pictureLink(DEAL_MESSAGES.imageLink),
    expiry: z.preprocess(
      (value) => (isBlank(value) ? undefined : typeof value === "string" ? value.trim() : value),
      text({ error: DEAL_MESSAGES.expiry })
        .refine(isRealDate, DEAL_MESSAGES.expiry)
        .refine((value) => !isRealDate(value) || value >= earliest(), DEAL_MESSAGES.expiryPast)
        .optional(),
    ),
    type: z.preprocess(
      (value) => (isBlank(value) ? "d" : value),
      z.enum(["d", "coupon"], { error: DEAL_MESSAGES.type }),
    ),
    coupon_code: z.preprocess(
      (value) => (isBlank(value) ? undefined : value),
      text({ error: DEAL_MESSAGES.couponCode })
        .trim()
        .max(SUBMISSION_LIMITS.couponCode, DEAL_MESSAGES.couponCode)
        .optional(),
    ),
  });
}

/** `POST /api/save_deal`: the deal form, with the expiry checked against the clock when it runs. */
export const DealSchema = createDealSchema(() => earliestExpiryDate(new Date()));

export type DealSubmission = z.output<typeof DealSchema>;

/** `POST /api/save_discussion` and the Discussion form. */
export const DiscussionSchema = z.object({
  user_id: claimedUserId,
  forum_category_id: requiredId(DISCUSSION_MESSAGES.category),
  title: requiredText(
    DISCUSSION_MESSAGES.title,
    SUBMISSION_LIMITS.title,
    DISCUSSION_MESSAGES.titleTooLong,
  ),
  detail: richText(DISCUSSION_MESSAGES.description, DISCUSSION_MESSAGES.descriptionTooLong),
});

export type DiscussionSubmission = z.output<typeof DiscussionSchema>;

/** The browser's early check of a chosen file (the server checks the bytes again). */
export function imageFileError(file: { type: string; size: number }, maxBytes: number): string {
  if (!IMAGE_ACCEPT.split(",").includes(file.type)) return IMAGE_MESSAGES.notImage;
  if (file.size > maxBytes) return IMAGE_MESSAGES.tooLarge;
  return "";
}
