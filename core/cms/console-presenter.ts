import type { FeaturedRow, PageRecord, WishlistRow } from "./console-repository.ts";
import { cmsPagePath } from "./paths.ts";
import { presentWishlistEntry } from "../home/presenter.ts";

/** A CMS page in the console's list. */
export function presentPageSummary(row: {
  id: number;
  slug: string;
  title: string;
  updated_at: Date;
}) {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    url: cmsPagePath(row.slug),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PageSummary = ReturnType<typeof presentPageSummary>;

/** A CMS page with its HTML, for the editor. */
export function presentPageForEditing(row: PageRecord) {
  return { ...presentPageSummary(row), detail: row.detail };
}

export type PageForEditing = ReturnType<typeof presentPageForEditing>;

export function presentFeaturedRow(row: FeaturedRow) {
  return {
    store_id: row.store_id,
    title: row.title,
    slug: row.slug,
    image_url: row.image_url,
    position: row.position,
  };
}

export type FeaturedConsoleItem = ReturnType<typeof presentFeaturedRow>;

/** A Teachers Wishlist entry as the home page shows it, with its place in the list. */
export function presentWishlistRow(row: WishlistRow) {
  return { ...presentWishlistEntry(row), position: row.position };
}

export type WishlistConsoleItem = ReturnType<typeof presentWishlistRow>;
