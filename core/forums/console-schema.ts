import { z } from "zod";
import {
  direction,
  optionalRecordId,
  optionalSlug,
  optionalText,
  recordId,
  requiredText,
} from "../console/content-fields.ts";

/** d: the deals forum (its categories are the deal categories); g: the educators' forum. */
export const ForumType = z.enum(["d", "g"], { error: "type must be d (deals) or g (educators)." });

const forumFields = {
  title: requiredText("Title", 120),
  /** Left empty, the slug is made from the title. */
  slug: optionalSlug,
  detail: optionalText("Description", 1000, { multiline: true }),
  type: ForumType,
};

/** `POST /api/admin/forums/create`. */
export const ForumCreateBody = z.object(forumFields);
/** `POST /api/admin/forums/update`. */
export const ForumUpdateBody = z.object({ id: recordId("id"), ...forumFields });

/** `POST /api/admin/forum_categories/create`: the kind follows the forum's type. */
export const ForumCategoryCreateBody = z.object({
  forum_id: recordId("forum_id"),
  title: requiredText("Title", 100),
});
/** `POST /api/admin/forum_categories/update`. */
export const ForumCategoryUpdateBody = z.object({
  id: recordId("id"),
  title: requiredText("Title", 100),
});
/** `POST /api/admin/forum_categories/delete`: `move_to` takes over its posts first. */
export const ForumCategoryDeleteBody = z.object({
  id: recordId("id"),
  move_to: optionalRecordId("move_to"),
});

export const ForumIdBody = z.object({ id: recordId("id") });
export const ForumMoveBody = z.object({ id: recordId("id"), direction });

export type ForumCreateInput = z.output<typeof ForumCreateBody>;
export type ForumUpdateInput = z.output<typeof ForumUpdateBody>;
export type ForumCategoryCreateInput = z.output<typeof ForumCategoryCreateBody>;
export type ForumCategoryUpdateInput = z.output<typeof ForumCategoryUpdateBody>;
export type ForumCategoryDeleteInput = z.output<typeof ForumCategoryDeleteBody>;
export type ForumIdInput = z.output<typeof ForumIdBody>;
export type ForumMoveInput = z.output<typeof ForumMoveBody>;

/** The kind of the categories of a forum of this type. */
export function categoryKindOf(type: "d" | "g"): "deal" | "discussion" {
  return type === "d" ? "deal" : "discussion";
}
