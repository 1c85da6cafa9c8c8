import type { CmsPageRow, FeaturedStoreRow } from "./repository.ts";

/** A page the site owner writes. Its HTML is the owner's own (trusted), not a member's. */
export function presentCmsPage(row: CmsPageRow) {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    detail: row.detail,
    updated_at: row.updated_at.toISOString(),
  };
}

export type CmsPage = ReturnType<typeof presentCmsPage>;

/**
 * The page's HTML for the site's own page, which shows the title as its heading: a first heading
 * that only repeats the title is dropped so it is not read twice.
 */
export function bodyWithoutTitle(page: CmsPage): string {
  const match = /^\s*<h([1-6])[^>]*>([\s\S]*?)<\/h\1>/i.exec(page.detail);
  if (!match) return page.detail;
  const heading = match[2]!
    .replace(/<[^>]*>/g, "")
    .trim()
    .toLowerCase();
  return heading === page.title.trim().toLowerCase()
    ? page.detail.slice(match[0].length)
    : page.detail;
}

/** `POST /api/cms_page`. */
export function presentCmsPageResponse(page: CmsPage) {
  return { status: "true", cms_page: [page] };
}

export function presentFeaturedStore(row: FeaturedStoreRow) {
  return { id: row.id, slug: row.slug, title: row.title, image_url: row.image_url };
}

export type FeaturedStore = ReturnType<typeof presentFeaturedStore>;

/** `GET /api/featured_stores`. */
export function presentFeaturedStoresResponse(stores: FeaturedStore[]) {
  return { status: "true", response: { featured_data_arr: stores } };
}
