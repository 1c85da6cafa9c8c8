import { z } from "zod";
import {
  flag,
  optionalRecordId,
  optionalSlug,
  optionalText,
  recordId,
  requiredText,
  webAddress,
} from "../console/content-fields.ts";
import { affiliateTemplate } from "../posts/links/schema.ts";

/** What the console edits: a store (with its link) or a category. */
export type CatalogKind = "store" | "category";

export const CATALOG_TITLE_MAX = 120;
export const CATALOG_DESCRIPTION_MAX = 2000;

const shared = {
  /** Plain text, stored as typed: pages escape it. */
  title: requiredText("Title", CATALOG_TITLE_MAX),
  /** Left empty, the slug is made from the title. */
  slug: optionalSlug,
  description: optionalText("Description", CATALOG_DESCRIPTION_MAX, { multiline: true }),
};

/** `POST /api/admin/stores/create` (multipart, optional `image` file). */
export const StoreCreateBody = z.object({
  ...shared,
  link: webAddress("Link"),
  /** "" or an http(s) address with {url}: where /go sends the store's deals (record 0039). */
  affiliate_template: affiliateTemplate,
});

/** `POST /api/admin/categories/create` (multipart, optional `image` file). */
export const CategoryCreateBody = z.object(shared);

const updateFields = {
  id: recordId("id"),
  /** Takes the picture away (a new file replaces it anyway). */
  remove_image: flag,
};

/** `POST /api/admin/stores/update` (multipart, optional `image` file). */
export const StoreUpdateBody = StoreCreateBody.extend(updateFields);

/** `POST /api/admin/categories/update` (multipart, optional `image` file). */
export const CategoryUpdateBody = CategoryCreateBody.extend(updateFields);

/**
 * `POST /api/admin/stores/delete`, `POST /api/admin/categories/delete`: `move_to` names the store
 * or category that takes over the deals first.
 */
export const CatalogDeleteBody = z.object({
  id: recordId("id"),
  move_to: optionalRecordId("move_to"),
});

export type CatalogSaveInput = z.output<typeof CategoryCreateBody> & {
  link?: string;
  affiliate_template?: string;
  id?: number;
  remove_image?: boolean;
};
export type CatalogDeleteInput = z.output<typeof CatalogDeleteBody>;
