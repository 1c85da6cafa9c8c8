import { z } from "zod";
import { text } from "../validation.ts";
import { REPORT_REASONS } from "./reasons.ts";

/** What can be reported and moderated: a deal (`d`), an educator post (`g`), a comment, a user. */
export const ModeratedItemType = z.enum(["d", "g", "comment", "user"], {
  error: "item_type must be one of d, g, comment or user.",
});

/** The post's unique_id, the comment's id or the user's id; numbers are accepted as sent. */
export const moderatedItemId = z
  .union([z.number().int().positive(), text()])
  .transform((value) => String(value).trim())
  .pipe(text().min(1, "item_id is required.").max(40, "item_id is not valid."));

export const ModerationAction = z.enum(["hide", "restore", "remove"], {
  error: "action must be one of hide, restore or remove.",
});

export const moderationReason = text({ multiline: true })
  .trim()
  .max(500, "The reason can be at most 500 characters.")
  .optional()
  .default("");

/** `POST /api/admin/moderate`. */
export const ModerateBody = z.object({
  item_type: ModeratedItemType,
  item_id: moderatedItemId,
  action: ModerationAction,
  reason: moderationReason,
});

export type ModerateInput = z.output<typeof ModerateBody>;

export { REPORT_REASONS } from "./reasons.ts";

export const REPORT_MESSAGES = {
  reason: "Please choose a reason for your report.",
  noteTooLong: "The note can be at most 500 characters.",
  sent: "Thank you. Your report has been sent to the moderators.",
  notFound: "That item does not exist or is no longer shown.",
  repeat:
    "You have already reported this, and your report is still open. A moderator will look at it soon.",
  own: "You cannot report your own posts, comments or profile.",
  confirmFirst:
    "Please confirm your email address before reporting. Use the link we emailed you, or ask for a new one at /verify.",
} as const;

export const ReportReason = z.enum(
  REPORT_REASONS.map((reason) => reason.value) as [
    (typeof REPORT_REASONS)[number]["value"],
    ...(typeof REPORT_REASONS)[number]["value"][],
  ],
  { error: REPORT_MESSAGES.reason },
);

/** `POST /api/report`: one member's report of a deal, a discussion, a comment or a profile. */
export const ReportBody = z.object({
  item_type: ModeratedItemType,
  item_id: moderatedItemId,
  reason: ReportReason,
  note: z.preprocess(
    (value) => (value === undefined || value === null ? "" : value),
    text({ multiline: true }).trim().max(500, REPORT_MESSAGES.noteTooLong),
  ),
});

export type ReportInput = z.output<typeof ReportBody>;

/** `GET /api/admin/reports?page=n`: the queue's page; anything else is page 1. */
export const QueuePage = z.object({
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
