/** The console's SQL for CMS pages, featured stores and the Teachers Wishlist. */
import type { DbOrTx } from "../../db/index.ts";

// CMS pages ---------------------------------------------------------------------------------------

export function findPages(db: DbOrTx) {
  return db
    .selectFrom("cms_pages")
    .select(["id", "slug", "title", "updated_at"])
    .orderBy("title")
    .orderBy("id")
    .execute();
}

export function findPageById(db: DbOrTx, id: number, lock = false) {
  const query = db
    .selectFrom("cms_pages")
    .select(["id", "slug", "title", "detail", "updated_at"])
    .where("id", "=", id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export type PageRecord = NonNullable<Awaited<ReturnType<typeof findPageById>>>;

export function findPageBySlug(db: DbOrTx, slug: string) {
  return db
    .selectFrom("cms_pages")
    .select(["id", "title"])
    .where("slug", "=", slug)
    .executeTakeFirst();
}

export async function insertPage(
  db: DbOrTx,
  values: { slug: string; title: string; detail: string },
  at: Date,
): Promise<number> {
  const row = await db
    .insertInto("cms_pages")
    .values({ ...values, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePage(
  db: DbOrTx,
  id: number,
  values: { slug: string; title: string; detail: string },
  at: Date,
) {
  await db
    .updateTable("cms_pages")
    .set({ ...values, updated_at: at })
    .where("id", "=", id)
    .execute();
}

export async function deletePage(db: DbOrTx, id: number) {
  await db.deleteFrom("cms_pages").where("id", "=", id).execute();
}

/** An old slug of a page answers 301 to the page from now on. */
export async function keepOldPageSlug(db: DbOrTx, oldSlug: string, pageId: number) {
  await db
    .insertInto("slug_redirects")
    .values({ kind: "page", old_slug: oldSlug, target_id: pageId })
    .onConflict((oc) => oc.columns(["kind", "old_slug"]).doUpdateSet({ target_id: pageId }))
    .execute();
}

/** A slug a page uses (again) is nobody's old slug. */
export async function forgetOldPageSlug(db: DbOrTx, slug: string) {
  await db
    .deleteFrom("slug_redirects")
    .where("kind", "=", "page")
    .where("old_slug", "=", slug)
    .execute();
}

export async function deleteOldPageSlugs(db: DbOrTx, pageId: number) {
  await db
    .deleteFrom("slug_redirects")
    .where("kind", "=", "page")
    .where("target_id", "=", pageId)
    .execute();
}

// Featured stores ---------------------------------------------------------------------------------

export function findFeaturedRows(db: DbOrTx) {
  return db
    .selectFrom("featured_stores")
    .innerJoin("stores", "stores.id", "featured_stores.store_id")
    .select([
      "featured_stores.id",
      "featured_stores.store_id",
      "featured_stores.position",
      "stores.title",
      "stores.slug",
      "stores.image_url",
    ])
    .orderBy("featured_stores.position")
    .orderBy("featured_stores.id")
    .execute();
}

export type FeaturedRow = Awaited<ReturnType<typeof findFeaturedRows>>[number];

export function findFeaturedByStore(db: DbOrTx, storeId: number) {
  return db
    .selectFrom("featured_stores")
    .select(["id", "position"])
    .where("store_id", "=", storeId)
    .executeTakeFirst();
}

export function findStoreTitle(db: DbOrTx, storeId: number) {
  return db
    .selectFrom("stores")
    .select(["id", "title"])
    .where("id", "=", storeId)
    .executeTakeFirst();
}

export async function insertFeatured(db: DbOrTx, storeId: number, position: number) {
  await db.insertInto("featured_stores").values({ store_id: storeId, position }).execute();
}

export async function deleteFeatured(db: DbOrTx, id: number) {
  await db.deleteFrom("featured_stores").where("id", "=", id).execute();
}

// Teachers Wishlist -------------------------------------------------------------------------------

const WISHLIST_COLUMNS = [
  "id",
  "first_name",
  "last_name",
  "school_location",
  "amazon_wishlist",
  "position",
] as const;

export function findWishlist(db: DbOrTx) {
  // The ordered list: entries waiting for review are listed apart (core/people/educators).
  return db
    .selectFrom("teachers_wishlist")
    .select(WISHLIST_COLUMNS)
    .where("status", "=", "approved")
    .orderBy("position")
    .orderBy("id")
    .execute();
}

export function findWishlistEntry(db: DbOrTx, id: number, lock = false) {
  const query = db
    .selectFrom("teachers_wishlist")
    .select(WISHLIST_COLUMNS)
    .where("id", "=", id)
    .where("status", "=", "approved");
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export type WishlistRow = NonNullable<Awaited<ReturnType<typeof findWishlistEntry>>>;

export type WishlistValues = {
  first_name: string;
  last_name: string;
  school_location: string;
  amazon_wishlist: string;
};

export async function insertWishlistEntry(
  db: DbOrTx,
  values: WishlistValues,
  position: number,
): Promise<number> {
  const row = await db
    .insertInto("teachers_wishlist")
    .values({ ...values, position })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateWishlistEntry(db: DbOrTx, id: number, values: WishlistValues) {
  await db.updateTable("teachers_wishlist").set(values).where("id", "=", id).execute();
}

export async function deleteWishlistEntry(db: DbOrTx, id: number) {
  await db.deleteFrom("teachers_wishlist").where("id", "=", id).execute();
}
