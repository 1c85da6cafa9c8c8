import { z } from "zod";
import type { PostForEdit } from "../../core/posts/console-presenter.ts";
import { PostUpdateBody } from "../../core/posts/console-schema.ts";

/**
 * The console's post edit form (app/routes/admin/post-edit.tsx): its fields, and the changed ones
 * it sends, shared by the form and its page action (app/lib/console-forms.server.ts).
 */

const DEAL_FIELDS = [
  "title",
  "description",
  "kind",
  "forum_category_id",
  "store_id",
  "category_id",
  "price",
  "list_price",
  "discount",
  "link",
  "coupon_code",
  "expiry",
  "deal_badge",
  "is_featured",
] as const;

const DISCUSSION_FIELDS = ["title", "description", "forum_category_id", "is_featured"] as const;

export type EditValues = Record<string, string>;

export function initialValues(post: PostForEdit): EditValues {
  const fields = post.post_type === "d" ? DEAL_FIELDS : DISCUSSION_FIELDS;
  const values: EditValues = { reason: "" };
  for (const field of fields) values[field] = field === "kind" ? post.kind : post[field];
  return values;
}

/** The fields a person changed, the ones the call sends: an edit records only what it changes. */
export function changedValues(values: EditValues, initial: EditValues) {
  return Object.fromEntries(
    Object.entries(values).filter(
      ([field, value]) => field === "reason" || value !== initial[field],
    ),
  );
}

/** The server's schema over the fields that changed (a stored value is not checked again). */
export function changedFieldsSchema<S extends z.ZodObject>(schema: S, initial: EditValues) {
  return z.preprocess((values) => changedValues(values as EditValues, initial), schema);
}

/** `POST /api/admin/posts/update`'s schema over what changed from `post` as stored. */
export function postUpdateSchema(post: PostForEdit) {
  return changedFieldsSchema(PostUpdateBody, initialValues(post));
}
