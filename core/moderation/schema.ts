import { z } from "zod";
import { text } from "../validation.ts";

/** What can be reported and moderated: a deal (`d`), an educator post (`g`), a comment, a user. */
export const ModeratedItemType = z.enum(["d", "g", "comment", "user"], {
  error: "item_type must be one of d, g, comment or user.",
});

/** The post's unique_id, the comment's id or the user's id; numbers are accepted as sent. */
export const moderatedItemId = z
  .union([z.number().int().positive(), text()])
  .transform((value) => String(value).trim())
  .pipe(z.string().min(1, "item_id is required.").max(40, "item_id is not valid."));

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
