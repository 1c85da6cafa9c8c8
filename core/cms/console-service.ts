import { changedFields, recordAudit } from "../audit/audit-trail.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { requireContentRole } from "../console/content-policy.ts";
import { APPROVED_WISHLIST, compactOrder, moveRow, nextPosition } from "../console/ordered-rows.ts";
import { isUniqueViolation } from "../console/unique-violation.ts";
import { htmlToText, imageSources, sanitizeRichHtml } from "../content/sanitize.ts";
import type { Deps } from "../deps.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import {
  recordCopiedImages,
  withCopiedImages,
  type CopiedImages,
} from "../media/outside-images.ts";
import {
  presentFeaturedRow,
  presentPageForEditing,
  presentPageSummary,
  presentWishlistRow,
  type FeaturedConsoleItem,
  type PageForEditing,
  type PageSummary,
  type WishlistConsoleItem,
} from "./console-presenter.ts";
import * as repo from "./console-repository.ts";
import {
  PRIVACY_POLICY_SLUG,
  type FeaturedMoveInput,
  type FeaturedStoreInput,
  type IdInput,
  type MoveInput,
  type PageCreateInput,
  type PageUpdateInput,
  type WishlistCreateInput,
  type WishlistUpdateInput,
} from "./console-schema.ts";

const PAGE_MISSING = "That page does not exist.";
const ENTRY_MISSING = "That wishlist entry does not exist.";

function slugTaken(slug: string, title: string) {
  return new ValidationError({
    slug: `The slug “${slug}” is already used by the page “${title}”. Choose another.`,
  });
}

/**
 * The page's HTML through the site's allow-list, its outside images replaced by their stored
 * copies (`images`, core/media/outside-images.ts); a page with nothing to show is refused.
 */
function cleanDetail(html: string, images?: ReadonlyMap<string, string>): string {
  const detail = sanitizeRichHtml(html, { images });
  if (!htmlToText(detail) && !/<img\s/i.test(detail)) throw emptyPage();
  return detail;
}

const emptyPage = () =>
  new ValidationError({ detail: "Write the page's text: a page cannot be empty." });

/**
 * What the site owner curates besides the catalogue (record 0033): CMS pages with the rich editor
 * (their HTML through core/content/sanitize.ts), the featured stores and the Teachers Wishlist,
 * each in the owner's order. Every write is one transaction with its audit entry and reports a
 * "cms" change: CMS pages, featured stores and the home page's lists drop at once.
 */
export function createCmsConsoleService(deps: Deps) {
  const { db, changes, now } = deps;

  // Pages -------------------------------------------------------------------------------------------

  async function pages(user: CurrentUser | null): Promise<PageSummary[]> {
    requireContentRole(user, "read");
    return (await repo.findPages(db)).map(presentPageSummary);
  }

  async function page(user: CurrentUser | null, id: number): Promise<PageForEditing> {
    requireContentRole(user, "read");
    const row = await repo.findPageById(db, id);
    if (!row) throw new NotFoundError(PAGE_MISSING);
    return presentPageForEditing(row);
  }

  async function savePage(
    actor: CurrentUser,
    input: PageCreateInput & { id?: number },
  ): Promise<PageForEditing> {
    // Nothing is fetched for a page with neither words nor images.
    if (!htmlToText(sanitizeRichHtml(input.detail)) && !imageSources(input.detail).length) {
      throw emptyPage();
    }
    // Its outside images are copied before the transaction, which records them.
    return withCopiedImages(deps, input.detail, "site", (copied) =>
      savePageCopied(actor, input, copied),
    );
  }

  async function savePageCopied(
    actor: CurrentUser,
    input: PageCreateInput & { id?: number },
    copied: CopiedImages,
  ): Promise<PageForEditing> {
    const detail = cleanDetail(input.detail, copied.sources);
    const values = { slug: input.slug, title: input.title, detail };
    try {
      const saved = await db.transaction().execute(async (tx) => {
        await recordCopiedImages(tx, actor.id, copied);
        const holder = await repo.findPageBySlug(tx, input.slug);
        if (holder && holder.id !== input.id) throw slugTaken(input.slug, holder.title);
        if (input.id === undefined) {
          const id = await repo.insertPage(tx, values, now());
          await repo.forgetOldPageSlug(tx, input.slug);
          await recordAudit(tx, actor, {
            action: "page.create",
            itemType: "page",
            itemId: id,
            after: values,
          });
          return (await repo.findPageById(tx, id))!;
        }
        const before = await repo.findPageById(tx, input.id, true);
        if (!before) throw new NotFoundError(PAGE_MISSING);
        if (before.slug === PRIVACY_POLICY_SLUG && input.slug !== PRIVACY_POLICY_SLUG) {
          throw new ValidationError({
            slug: `The privacy policy keeps its address (/${PRIVACY_POLICY_SLUG}): every page links to it.`,
          });
        }
        await repo.updatePage(tx, input.id, values, now());
        if (input.slug !== before.slug) {
          await repo.forgetOldPageSlug(tx, input.slug);
          await repo.keepOldPageSlug(tx, before.slug, input.id);
        }
        await recordAudit(tx, actor, {
          action: "page.update",
          itemType: "page",
          itemId: input.id,
          ...changedFields(
            { slug: before.slug, title: before.title, detail: before.detail },
            values,
          ),
        });
        return (await repo.findPageById(tx, input.id))!;
      });
      changes.emit("cms");
      return presentPageForEditing(saved);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ValidationError({
          slug: `The slug “${input.slug}” was just taken by another page. Choose another.`,
        });
      }
      throw error;
    }
  }

  async function createPage(user: CurrentUser | null, input: PageCreateInput) {
    const actor = requireContentRole(user, "create");
    const saved = await savePage(actor, input);
    return { message: `The page “${saved.title}” was created.`, page: saved };
  }

  async function updatePage(user: CurrentUser | null, input: PageUpdateInput) {
    const actor = requireContentRole(user, "update");
    const saved = await savePage(actor, input);
    return { message: `The page “${saved.title}” was saved.`, page: saved };
  }

  async function deletePage(user: CurrentUser | null, { id }: IdInput) {
    const actor = requireContentRole(user, "delete");
    const row = await db.transaction().execute(async (tx) => {
      const before = await repo.findPageById(tx, id, true);
      if (!before) throw new NotFoundError(PAGE_MISSING);
      if (before.slug === PRIVACY_POLICY_SLUG) {
        throw new ConflictError(
          "The privacy policy cannot be deleted: every page links to it. Edit it instead.",
        );
      }
      await repo.deleteOldPageSlugs(tx, id);
      await repo.deletePage(tx, id);
      await recordAudit(tx, actor, {
        action: "page.delete",
        itemType: "page",
        itemId: id,
        before: { slug: before.slug, title: before.title, detail: before.detail },
      });
      return before;
    });
    changes.emit("cms");
    return { message: `The page “${row.title}” was deleted.` };
  }

  // Featured stores ---------------------------------------------------------------------------------

  async function featured(user: CurrentUser | null): Promise<FeaturedConsoleItem[]> {
    requireContentRole(user, "read");
    return (await repo.findFeaturedRows(db)).map(presentFeaturedRow);
  }

  async function addFeatured(user: CurrentUser | null, { store_id }: FeaturedStoreInput) {
    const actor = requireContentRole(user, "create");
    try {
      const store = await db.transaction().execute(async (tx) => {
        const found = await repo.findStoreTitle(tx, store_id);
        if (!found) throw new ValidationError({ store_id: "That store does not exist." });
        if (await repo.findFeaturedByStore(tx, store_id)) {
          throw new ValidationError({ store_id: `“${found.title}” is already featured.` });
        }
        const position = await nextPosition(tx, "featured_stores");
        await repo.insertFeatured(tx, store_id, position);
        await recordAudit(tx, actor, {
          action: "featured.add",
          itemType: "store",
          itemId: store_id,
          after: { featured: true, position },
        });
        return found;
      });
      changes.emit("cms");
      return { message: `“${store.title}” is now featured.` };
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ValidationError({ store_id: "That store is already featured." });
      }
      throw error;
    }
  }

  async function removeFeatured(user: CurrentUser | null, { store_id }: FeaturedStoreInput) {
    const actor = requireContentRole(user, "update");
    const title = await db.transaction().execute(async (tx) => {
      const row = await repo.findFeaturedByStore(tx, store_id);
      if (!row) throw new NotFoundError("That store is not featured.");
      const store = await repo.findStoreTitle(tx, store_id);
      await repo.deleteFeatured(tx, row.id);
      await compactOrder(tx, "featured_stores");
      await recordAudit(tx, actor, {
        action: "featured.remove",
        itemType: "store",
        itemId: store_id,
        before: { featured: true, position: row.position },
        after: { featured: false },
      });
      return store?.title ?? "The store";
    });
    changes.emit("cms");
    return { message: `“${title}” is no longer featured.` };
  }

  async function moveFeatured(
    user: CurrentUser | null,
    { store_id, direction }: FeaturedMoveInput,
  ) {
    const actor = requireContentRole(user, "order");
    await db.transaction().execute(async (tx) => {
      const row = await repo.findFeaturedByStore(tx, store_id);
      if (!row) throw new NotFoundError("That store is not featured.");
      const order = await moveRow(tx, "featured_stores", row.id, direction);
      await recordAudit(tx, actor, {
        action: "featured.move",
        itemType: "store",
        itemId: store_id,
        before: { position: row.position },
        after: { position: order!.indexOf(row.id) + 1 },
      });
    });
    changes.emit("cms");
    return { message: "The featured stores' order was saved." };
  }

  // Teachers Wishlist -------------------------------------------------------------------------------

  async function wishlist(user: CurrentUser | null): Promise<WishlistConsoleItem[]> {
    requireContentRole(user, "read");
    return (await repo.findWishlist(db)).map(presentWishlistRow);
  }

  function wishlistValues(input: WishlistCreateInput): repo.WishlistValues {
    return {
      first_name: input.first_name,
      last_name: input.last_name,
      school_location: input.school_location,
      amazon_wishlist: input.amazon_wishlist,
    };
  }

  async function createWishlistEntry(user: CurrentUser | null, input: WishlistCreateInput) {
    const actor = requireContentRole(user, "create");
    const values = wishlistValues(input);
    const row = await db.transaction().execute(async (tx) => {
      const position = await nextPosition(tx, "teachers_wishlist", APPROVED_WISHLIST);
      const id = await repo.insertWishlistEntry(tx, values, position);
      await recordAudit(tx, actor, {
        action: "wishlist.create",
        itemType: "wishlist",
        itemId: id,
        after: { ...values, position },
      });
      return (await repo.findWishlistEntry(tx, id))!;
    });
    changes.emit("cms");
    return {
      message: `${row.first_name} ${row.last_name}'s wishlist was added.`,
      item: presentWishlistRow(row),
    };
  }

  async function updateWishlistEntry(user: CurrentUser | null, input: WishlistUpdateInput) {
    const actor = requireContentRole(user, "update");
    const values = wishlistValues(input);
    const row = await db.transaction().execute(async (tx) => {
      const before = await repo.findWishlistEntry(tx, input.id, true);
      if (!before) throw new NotFoundError(ENTRY_MISSING);
      await repo.updateWishlistEntry(tx, input.id, values);
      await recordAudit(tx, actor, {
        action: "wishlist.update",
        itemType: "wishlist",
        itemId: input.id,
        ...changedFields(before, values),
      });
      return (await repo.findWishlistEntry(tx, input.id))!;
    });
    changes.emit("cms");
    return {
      message: `${row.first_name} ${row.last_name}'s wishlist was saved.`,
      item: presentWishlistRow(row),
    };
  }

  async function deleteWishlistEntry(user: CurrentUser | null, { id }: IdInput) {
    const actor = requireContentRole(user, "delete");
    const row = await db.transaction().execute(async (tx) => {
      const before = await repo.findWishlistEntry(tx, id, true);
      if (!before) throw new NotFoundError(ENTRY_MISSING);
      await repo.deleteWishlistEntry(tx, id);
      await compactOrder(tx, "teachers_wishlist", APPROVED_WISHLIST);
      await recordAudit(tx, actor, {
        action: "wishlist.delete",
        itemType: "wishlist",
        itemId: id,
        before,
      });
      return before;
    });
    changes.emit("cms");
    return { message: `${row.first_name} ${row.last_name}'s wishlist was deleted.` };
  }

  async function moveWishlistEntry(user: CurrentUser | null, { id, direction }: MoveInput) {
    const actor = requireContentRole(user, "order");
    await db.transaction().execute(async (tx) => {
      const before = await repo.findWishlistEntry(tx, id);
      if (!before) throw new NotFoundError(ENTRY_MISSING);
      const order = await moveRow(tx, "teachers_wishlist", id, direction, APPROVED_WISHLIST);
      await recordAudit(tx, actor, {
        action: "wishlist.move",
        itemType: "wishlist",
        itemId: id,
        before: { position: before.position },
        after: { position: order!.indexOf(id) + 1 },
      });
    });
    changes.emit("cms");
    return { message: "The wishlist's order was saved." };
  }

  return {
    pages,
    page,
    createPage,
    updatePage,
    deletePage,
    featured,
    addFeatured,
    removeFeatured,
    moveFeatured,
    wishlist,
    createWishlistEntry,
    updateWishlistEntry,
    deleteWishlistEntry,
    moveWishlistEntry,
  };
}

export type CmsConsoleService = ReturnType<typeof createCmsConsoleService>;
