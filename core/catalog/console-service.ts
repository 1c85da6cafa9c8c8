import { changedFields, recordAudit } from "../audit/audit-trail.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { slugToSave, type ListQueryInput } from "../console/content-fields.ts";
import { planDeletion, requireContentRole } from "../console/content-policy.ts";
import { isUniqueViolation } from "../console/unique-violation.ts";
import { PAGE_SIZE, lastPage } from "../constants.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { insertMediaRecord } from "../media/image-records.ts";
import { releaseSiteImage, withStoredImage } from "../media/images.ts";
import {
  presentCatalogItem,
  presentCatalogRow,
  type CatalogConsoleItem,
  type CatalogConsolePage,
} from "./console-presenter.ts";
import * as repo from "./console-repository.ts";
import type { CatalogDeleteInput, CatalogKind, CatalogSaveInput } from "./console-schema.ts";

const NOUN = { store: "store", category: "category" } as const;
const LABEL = { store: "Store", category: "Category" } as const;
const FOLDER = { store: "stores", category: "categories" } as const;
/** Store and category pictures are shown small (cards, carousels, a listing's header). */
const IMAGE_MAX_SIZE = 800;

function slugTaken(kind: CatalogKind, slug: string, title: string) {
  return new ValidationError({
    slug: `The slug “${slug}” is already used by the ${NOUN[kind]} “${title}”. Choose another.`,
  });
}

function slugRaced(kind: CatalogKind, slug: string) {
  return new ValidationError({
    slug: `The slug “${slug}” was just taken by another ${NOUN[kind]}. Choose another.`,
  });
}

/** What an edit or the audit log records of a store or category. */
function auditedFields(kind: CatalogKind, values: repo.CatalogValues) {
  const { link, affiliate_template, ...rest } = values;
  return kind === "store" ? { ...rest, link, affiliate_template } : rest;
}

/**
 * The console's stores and categories (record 0033): list, create, edit and delete, with their
 * pictures (the byte-checked upload of core/media), slugs that keep answering (old slugs 301 to
 * the new one) and deals that are never orphaned. Each write is one transaction with its audit
 * entry, reported as a "catalog" change (and "posts" when deals moved or their search changed).
 */
export function createCatalogConsoleService(deps: Deps) {
  const { db, changes } = deps;
  const perPage = PAGE_SIZE.storesAndCategories;

  async function list(
    user: CurrentUser | null,
    kind: CatalogKind,
    query: ListQueryInput,
  ): Promise<CatalogConsolePage> {
    requireContentRole(user, "read");
    const { rows, total } = await repo.findCatalogPage(
      db,
      kind,
      query.search,
      (query.page - 1) * perPage,
      perPage,
    );
    return {
      items: rows.map((row) => presentCatalogRow(kind, row)),
      total,
      page: query.page,
      lastPage: lastPage(total, perPage),
      perPage,
      search: query.search,
    };
  }

  async function item(user: CurrentUser | null, kind: CatalogKind, id: number) {
    requireContentRole(user, "read");
    const row = await repo.findCatalogRecord(db, kind, id);
    if (!row) throw new NotFoundError(`That ${NOUN[kind]} does not exist.`);
    const [deals, oldSlugs] = await Promise.all([
      repo.countPosts(db, kind, id),
      repo.findOldSlugs(db, kind, id),
    ]);
    return { ...presentCatalogItem(kind, row, deals), old_slugs: oldSlugs };
  }

  async function create(
    user: CurrentUser | null,
    kind: CatalogKind,
    input: CatalogSaveInput,
    image: Buffer | undefined,
  ): Promise<{ message: string; item: CatalogConsoleItem }> {
    const actor = requireContentRole(user, "create");
    const slug = slugToSave(input);
    // Refused before the picture is processed, and again in the transaction (and by the index).
    const holder = await repo.findBySlug(db, kind, slug);
    if (holder) throw slugTaken(kind, slug, holder.title);
    let row: repo.CatalogRecord;
    try {
      row = await withStoredImage(
        deps,
        { bytes: image, folder: FOLDER[kind], maxSize: IMAGE_MAX_SIZE },
        (stored) =>
          db.transaction().execute(async (tx) => {
            const taken = await repo.findBySlug(tx, kind, slug);
            if (taken) throw slugTaken(kind, slug, taken.title);
            const values: repo.CatalogValues = {
              title: input.title,
              slug,
              description: input.description,
              image_url: stored?.url ?? "",
              link: input.link ?? "",
              affiliate_template: kind === "store" ? (input.affiliate_template ?? "") : "",
            };
            const id = await repo.insertCatalogRecord(tx, kind, values);
            await repo.forgetOldSlug(tx, kind, slug);
            if (stored) await insertMediaRecord(tx, actor.id, stored);
            await recordAudit(tx, actor, {
              action: `${kind}.create`,
              itemType: kind,
              itemId: id,
              after: auditedFields(kind, values),
            });
            return (await repo.findCatalogRecord(tx, kind, id))!;
          }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw slugRaced(kind, slug);
      throw error;
    }
    changes.emit("catalog");
    return {
      message: `${LABEL[kind]} “${row.title}” was created.`,
      item: presentCatalogItem(kind, row, 0),
    };
  }

  async function update(
    user: CurrentUser | null,
    kind: CatalogKind,
    input: CatalogSaveInput & { id: number },
    image: Buffer | undefined,
  ): Promise<{ message: string; item: CatalogConsoleItem }> {
    const actor = requireContentRole(user, "update");
    const slug = slugToSave(input);
    if (!(await repo.findCatalogRecord(db, kind, input.id))) {
      throw new NotFoundError(`That ${NOUN[kind]} does not exist.`);
    }
    const holder = await repo.findBySlug(db, kind, slug, input.id);
    if (holder) throw slugTaken(kind, slug, holder.title);
    let outcome: { row: repo.CatalogRecord; released: string | null; renamed: boolean };
    try {
      outcome = await withStoredImage(
        deps,
        { bytes: image, folder: FOLDER[kind], maxSize: IMAGE_MAX_SIZE },
        (stored) =>
          db.transaction().execute(async (tx) => {
            const before = await repo.findCatalogRecord(tx, kind, input.id, true);
            if (!before) throw new NotFoundError(`That ${NOUN[kind]} does not exist.`);
            const taken = await repo.findBySlug(tx, kind, slug, input.id);
            if (taken) throw slugTaken(kind, slug, taken.title);
            const imageUrl = stored ? stored.url : input.remove_image ? "" : before.image_url;
            const values: repo.CatalogValues = {
              title: input.title,
              slug,
              description: input.description,
              image_url: imageUrl,
              link: kind === "store" ? (input.link ?? "") : "",
              affiliate_template: kind === "store" ? (input.affiliate_template ?? "") : "",
            };
            await repo.updateCatalogRecord(tx, kind, input.id, values);
            if (slug !== before.slug) {
              await repo.forgetOldSlug(tx, kind, slug);
              await repo.keepOldSlug(tx, kind, before.slug, input.id);
            }
            if (stored) await insertMediaRecord(tx, actor.id, stored);
            await recordAudit(tx, actor, {
              action: `${kind}.update`,
              itemType: kind,
              itemId: input.id,
              ...changedFields(auditedFields(kind, before), auditedFields(kind, values)),
            });
            return {
              row: (await repo.findCatalogRecord(tx, kind, input.id))!,
              released: imageUrl !== before.image_url ? before.image_url : null,
              renamed: values.title !== before.title,
            };
          }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw slugRaced(kind, slug);
      throw error;
    }
    changes.emit("catalog");
    // A new name rewrites the search document of its posts (the rename trigger of migration 010).
    if (outcome.renamed) changes.emit("posts");
    await releaseSiteImage(deps, outcome.released);
    const deals = await repo.countPosts(db, kind, input.id);
    return {
      message: `${LABEL[kind]} “${outcome.row.title}” was saved.`,
      item: presentCatalogItem(kind, outcome.row, deals),
    };
  }

  async function remove(
    user: CurrentUser | null,
    kind: CatalogKind,
    input: CatalogDeleteInput,
  ): Promise<{ message: string; moved: number }> {
    const actor = requireContentRole(user, "delete");
    const outcome = await db.transaction().execute(async (tx) => {
      const row = await repo.findCatalogRecord(tx, kind, input.id, true);
      if (!row) throw new NotFoundError(`That ${NOUN[kind]} does not exist.`);
      const inUse = await repo.countPosts(tx, kind, row.id);
      const plan = planDeletion({
        kind: NOUN[kind],
        title: row.title,
        id: row.id,
        inUse,
        usedNoun: "deal",
        moveTo: input.move_to,
      });
      let target: repo.CatalogRecord | undefined;
      if (plan.moveTo !== null) {
        target = await repo.findCatalogRecord(tx, kind, plan.moveTo, true);
        if (!target) {
          throw new ValidationError({
            move_to: `The ${NOUN[kind]} to move the deals to does not exist.`,
          });
        }
      }
      const moved = target ? await repo.movePosts(tx, kind, row.id, target.id) : 0;
      // The old addresses lead where the deals went; with nothing moved they are gone.
      await repo.retargetOldSlugs(tx, kind, row.id, target?.id ?? null);
      if (target) await repo.keepOldSlug(tx, kind, row.slug, target.id);
      await repo.deleteCatalogRecord(tx, kind, row.id);
      await recordAudit(tx, actor, {
        action: `${kind}.delete`,
        itemType: kind,
        itemId: row.id,
        before: { ...auditedFields(kind, row), deals: inUse },
        after: target ? { moved_deals_to: target.id, moved_deals_to_title: target.title } : null,
      });
      return { row, moved, target };
    });
    changes.emit("catalog");
    if (outcome.moved > 0) changes.emit("posts");
    await releaseSiteImage(deps, outcome.row.image_url);
    const moved = outcome.target
      ? ` Its ${outcome.moved === 1 ? "deal was" : `${outcome.moved} deals were`} moved to “${outcome.target.title}”.`
      : "";
    return {
      message: `${LABEL[kind]} “${outcome.row.title}” was deleted.${outcome.moved > 0 ? moved : ""}`,
      moved: outcome.moved,
    };
  }

  return { list, item, create, update, remove };
}

export type CatalogConsoleService = ReturnType<typeof createCatalogConsoleService>;
