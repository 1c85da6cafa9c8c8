import type { DbOrTx } from "../../db/index.ts";

export function findCmsPage(db: DbOrTx, slug: string) {
  return db
    .selectFrom("cms_pages")
    .select(["id", "slug", "title", "detail", "updated_at"])
    .where("slug", "=", slug)
    .executeTakeFirst();
}

/** The current slug of the page an old slug (of a renamed page) leads to. */
export async function findMovedPageSlug(db: DbOrTx, oldSlug: string): Promise<string | null> {
  const row = await db
    .selectFrom("slug_redirects")
    .innerJoin("cms_pages", "cms_pages.id", "slug_redirects.target_id")
    .select("cms_pages.slug")
    .where("slug_redirects.kind", "=", "page")
    .where("slug_redirects.old_slug", "=", oldSlug)
    .executeTakeFirst();
  return row?.slug ?? null;
}

export type CmsPageRow = NonNullable<Awaited<ReturnType<typeof findCmsPage>>>;

/** The stores the owner features, in the owner's order. */
export function findFeaturedStores(db: DbOrTx) {
  return db
    .selectFrom("featured_stores")
    .innerJoin("stores", "stores.id", "featured_stores.store_id")
    .select(["stores.id", "stores.slug", "stores.title", "stores.image_url"])
    .orderBy("featured_stores.position")
    .orderBy("featured_stores.id")
    .execute();
}

export type FeaturedStoreRow = Awaited<ReturnType<typeof findFeaturedStores>>[number];
