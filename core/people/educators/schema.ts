import { z } from "zod";
import { recordId, requiredText, webAddress } from "../../console/content-fields.ts";
import { text } from "../../validation.ts";
import { BUILT_IN_RULES, FREE_MAIL_DOMAINS, normaliseDomainEntry } from "./domains.ts";

/** Verified educators: the member's requests, the console's review and domains, own wishlists. */

/** A school-address link works once, for this long. */
export const EDUCATOR_LINK_TTL_HOURS = 24;
export const EDUCATOR_LINK_TTL_MS = EDUCATOR_LINK_TTL_HOURS * 60 * 60 * 1000;
/** At most this many requests (of either kind) per member in a rolling day: each may send a mail. */
export const EDUCATOR_REQUESTS_PER_DAY = 3;
export const EDUCATOR_NOTE_MAX = 1000;
export const EDUCATOR_NOTE_MIN = 20;
export const EDUCATOR_REASON_MAX = 500;
export const DOMAINS_LIST_MAX = 500;

export const EDUCATOR_MESSAGES = {
  email: "Please enter your school email address.",
  emailInvalid: "Please enter a valid email address, such as name@school.edu.",
  note: `Please tell us in a few words where you teach (at least ${EDUCATOR_NOTE_MIN} characters).`,
  noteTooLong: `The note can be at most ${EDUCATOR_NOTE_MAX} characters.`,
  code: "This confirmation link is not valid.",
  reasonRequired: "Please give a reason: the member is shown it.",
  reasonTooLong: `The reason can be at most ${EDUCATOR_REASON_MAX} characters.`,
  domain: "Please enter a domain such as district.org (no spaces, no @).",
  freeMail: "Free mail providers cannot be school domains: anyone can have an address there.",
  alreadyVerified: "You are already a verified educator.",
  openRequest:
    "You already have a request waiting. Withdraw it first if you want to ask in another way.",
  tooMany: `You can ask to be verified at most ${EDUCATOR_REQUESTS_PER_DAY} times a day. Please try again tomorrow.`,
  linkUsed: "This confirmation link has already been used.",
  linkExpired: `This confirmation link has expired (links work for ${EDUCATOR_LINK_TTL_HOURS} hours). Please ask again.`,
  linkInvalid: "This confirmation link is not valid. Please ask again from your account page.",
  notEducator:
    "Only verified educators can add a Teachers Wishlist entry. Ask to be verified at /user/verify-educator.",
} as const;

const M = EDUCATOR_MESSAGES;

/** The refusal of an address outside every school domain, naming what is accepted. */
export function notSchoolDomainMessage(domain: string, listed: readonly string[]): string {
  const accepted = [...BUILT_IN_RULES, ...listed].join(", ");
  return (
    `${domain} is not a school or district domain we accept. Accepted: ${accepted}. ` +
    "If your school uses another address, ask for a moderator's review instead."
  );
}

/** `POST /api/educator_verification/school_email` {email}. */
export const SchoolEmailBody = z.object({
  email: text({ error: M.email })
    .trim()
    .toLowerCase()
    .min(1, M.email)
    .max(254, M.emailInvalid)
    .pipe(z.email({ error: M.emailInvalid })),
});
export type SchoolEmailInput = z.output<typeof SchoolEmailBody>;

/** `POST /api/educator_verification/review` {note}. */
export const ReviewRequestBody = z.object({
  note: text({ error: M.note, multiline: true })
    .trim()
    .min(EDUCATOR_NOTE_MIN, M.note)
    .max(EDUCATOR_NOTE_MAX, M.noteTooLong)
    .transform((value) => value.replace(/\r\n?/g, "\n")),
});
export type ReviewRequestInput = z.output<typeof ReviewRequestBody>;

/** `POST /api/educator_verification/confirm` {code}: the code of the mailed link. */
export const ConfirmEducatorBody = z.object({
  code: text({ error: M.code }).trim().min(1, M.code).max(200, M.code),
});
export type ConfirmEducatorInput = z.output<typeof ConfirmEducatorBody>;

/** `POST /api/admin/educators/approve` {id}. */
export const ApproveRequestBody = z.object({ id: recordId("id") });
export type ApproveRequestInput = z.output<typeof ApproveRequestBody>;

const reason = text({ error: M.reasonRequired, multiline: true })
  .trim()
  .min(1, M.reasonRequired)
  .max(EDUCATOR_REASON_MAX, M.reasonTooLong);

/** `POST /api/admin/educators/reject` {id, reason}; `/api/admin/wishlist/reject` too. */
export const RejectBody = z.object({ id: recordId("id"), reason });
export type RejectInput = z.output<typeof RejectBody>;

/** `POST /api/admin/school_domains/add` and `/remove` {domain}. */
export const SchoolDomainBody = z.object({
  domain: text({ error: M.domain })
    .max(260, M.domain)
    .transform((value, ctx) => {
      const domain = normaliseDomainEntry(value);
      if (!domain) {
        ctx.addIssue({ code: "custom", message: M.domain });
        return z.NEVER;
      }
      return domain;
    }),
});
export type SchoolDomainInput = z.output<typeof SchoolDomainBody>;

/** Whether a list entry would be a free mail provider (or one of its subdomains). */
export function isFreeMailDomain(domain: string): boolean {
  return FREE_MAIL_DOMAINS.some((free) => domain === free || domain.endsWith(`.${free}`));
}

/** `POST /api/wishlist_submit`: the console's wishlist fields, sent by a verified educator. */
export const OwnWishlistBody = z.object({
  first_name: requiredText("First name", 100),
  last_name: requiredText("Last name", 100),
  school_location: requiredText("School location", 200),
  amazon_wishlist: webAddress("Amazon wishlist URL", { required: true }),
});
export type OwnWishlistInput = z.output<typeof OwnWishlistBody>;

/** `POST /api/admin/wishlist/approve` {id}. */
export const ApproveWishlistBody = ApproveRequestBody;
