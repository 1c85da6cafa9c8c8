import { changedFields, recordAudit } from "../audit/audit-trail.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { slugToSave } from "../console/content-fields.ts";
import { planDeletion, requireContentRole } from "../console/content-policy.ts";
import { compactOrder, moveRow, nextPosition } from "../console/ordered-rows.ts";
import { isUniqueViolation } from "../console/unique-violation.ts";
import type { Deps } from "../deps.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import * as repo from "./console-repository.ts";
import {
  categoryKindOf,
  type ForumCategoryCreateInput,
  type ForumCategoryDeleteInput,
  type ForumCategoryUpdateInput,
  type ForumCreateInput,
  type ForumIdInput,
  type ForumMoveInput,
  type ForumUpdateInput,
} from "./console-schema.ts";

const FORUM_MISSING = "That forum does not exist.";
const CATEGORY_MISSING = "That forum category does not exist.";

export function presentForumRecord(row: repo.ForumRecord) {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    detail: row.detail,
    type: row.type,
    position: row.position,
  };
}

export function presentForumCategory(row: repo.ForumCategoryRecord, posts: number) {
  return {
    id: row.id,
    forum_id: row.forum_id,
    kind: row.kind,
    title: row.title,
    position: row.position,
    posts,
  };
}

export type ForumConsoleItem = ReturnType<typeof presentForumRecord> & {
  categories: ReturnType<typeof presentForumCategory>[];
};

function slugTaken(slug: string, title: string) {
  return new ValidationError({
    slug: `The slug “${slug}” is already used by the forum “${title}”. Choose another.`,
  });
}

/**
 * The forums and their categories in the console (record 0033): the deals forum's categories are
 * the Submit Deals form's deal categories, the educators' forum's its discussion categories.
 * Create, edit, order, delete (admins; a category with posts moves them to another of its kind
 * first). Each write is one transaction with its audit entry and reports a "forums" change ("posts"
 * too when posts moved).
 */
export function createForumsConsoleService(deps: Deps) {
  const { db, changes } = deps;

  async function list(user: CurrentUser | null): Promise<ForumConsoleItem[]> {
    requireContentRole(user, "read");
    const [forums, categories] = await Promise.all([
      repo.findForumRows(db),
      repo.findCategoryRows(db),
    ]);
    return forums.map((forum) => ({
      ...presentForumRecord(forum),
      categories: categories
        .filter((category) => category.forum_id === forum.id)
        .map((category) => presentForumCategory(category, Number(category.posts))),
    }));
  }

  async function saveForum(actor: CurrentUser, input: ForumCreateInput & { id?: number }) {
    const slug = slugToSave(input);
    const values: repo.ForumValues = {
      title: input.title,
      slug,
      detail: input.detail,
      type: input.type,
    };
    try {
      const row = await db.transaction().execute(async (tx) => {
        const holder = await repo.findForumBySlug(tx, slug);
        if (holder && holder.id !== input.id) throw slugTaken(slug, holder.title);
        if (input.id === undefined) {
          const position = await nextPosition(tx, "forums");
          const id = await repo.insertForum(tx, values, position);
          await recordAudit(tx, actor, {
            action: "forum.create",
            itemType: "forum",
            itemId: id,
            after: { ...values, position },
          });
          return (await repo.findForum(tx, id))!;
        }
        const before = await repo.findForum(tx, input.id, true);
        if (!before) throw new NotFoundError(FORUM_MISSING);
        if (before.type !== values.type && (await repo.countForumCategories(tx, input.id)) > 0) {
          throw new ValidationError({
            type: "A forum with categories keeps its type: its categories are of that kind.",
          });
        }
        await repo.updateForum(tx, input.id, values);
        await recordAudit(tx, actor, {
          action: "forum.update",
          itemType: "forum",
          itemId: input.id,
          ...changedFields(before, values),
        });
        return (await repo.findForum(tx, input.id))!;
      });
      changes.emit("forums");
      return presentForumRecord(row);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ValidationError({
          slug: `The slug “${slug}” was just taken by another forum. Choose another.`,
        });
      }
      throw error;
    }
  }

  async function createForum(user: CurrentUser | null, input: ForumCreateInput) {
    const actor = requireContentRole(user, "create");
    const forum = await saveForum(actor, input);
    return { message: `The forum “${forum.title}” was created.`, forum };
  }

  async function updateForum(user: CurrentUser | null, input: ForumUpdateInput) {
    const actor = requireContentRole(user, "update");
    const forum = await saveForum(actor, input);
    return { message: `The forum “${forum.title}” was saved.`, forum };
  }

  async function deleteForum(user: CurrentUser | null, { id }: ForumIdInput) {
    const actor = requireContentRole(user, "delete");
    const row = await db.transaction().execute(async (tx) => {
      const before = await repo.findForum(tx, id, true);
      if (!before) throw new NotFoundError(FORUM_MISSING);
      const categories = await repo.countForumCategories(tx, id);
      if (categories > 0) {
        throw new ConflictError(
          `“${before.title}” still has ${categories} ${categories === 1 ? "category" : "categories"}. ` +
            "Delete them first (moving their posts to another category).",
          { in_use: categories },
        );
      }
      await repo.deleteForum(tx, id);
      await compactOrder(tx, "forums");
      await recordAudit(tx, actor, {
        action: "forum.delete",
        itemType: "forum",
        itemId: id,
        before,
      });
      return before;
    });
    changes.emit("forums");
    return { message: `The forum “${row.title}” was deleted.` };
  }

  async function moveForum(user: CurrentUser | null, { id, direction }: ForumMoveInput) {
    const actor = requireContentRole(user, "order");
    await db.transaction().execute(async (tx) => {
      const before = await repo.findForum(tx, id);
      if (!before) throw new NotFoundError(FORUM_MISSING);
      const order = await moveRow(tx, "forums", id, direction);
      await recordAudit(tx, actor, {
        action: "forum.move",
        itemType: "forum",
        itemId: id,
        before: { position: before.position },
        after: { position: order!.indexOf(id) + 1 },
      });
    });
    changes.emit("forums");
    return { message: "The forums' order was saved." };
  }

  async function createCategory(user: CurrentUser | null, input: ForumCategoryCreateInput) {
    const actor = requireContentRole(user, "create");
    const row = await db.transaction().execute(async (tx) => {
      const forum = await repo.findForum(tx, input.forum_id, true);
      if (!forum) throw new ValidationError({ forum_id: FORUM_MISSING });
      const scope = { column: "forum_id", value: forum.id } as const;
      const position = await nextPosition(tx, "forum_categories", scope);
      const values = { forum_id: forum.id, kind: categoryKindOf(forum.type), title: input.title };
      const id = await repo.insertCategory(tx, values, position);
      await recordAudit(tx, actor, {
        action: "forum_category.create",
        itemType: "forum_category",
        itemId: id,
        after: { ...values, position },
      });
      return (await repo.findCategory(tx, id))!;
    });
    changes.emit("forums");
    return {
      message: `The category “${row.title}” was added.`,
      category: presentForumCategory(row, 0),
    };
  }

  async function updateCategory(user: CurrentUser | null, input: ForumCategoryUpdateInput) {
    const actor = requireContentRole(user, "update");
    const { row, posts } = await db.transaction().execute(async (tx) => {
      const before = await repo.findCategory(tx, input.id, true);
      if (!before) throw new NotFoundError(CATEGORY_MISSING);
      await repo.renameCategory(tx, input.id, input.title);
      await recordAudit(tx, actor, {
        action: "forum_category.update",
        itemType: "forum_category",
        itemId: input.id,
        ...changedFields({ title: before.title }, { title: input.title }),
      });
      return {
        row: (await repo.findCategory(tx, input.id))!,
        posts: await repo.countCategoryPosts(tx, input.id),
      };
    });
    changes.emit("forums");
    return {
      message: `The category “${row.title}” was saved.`,
      category: presentForumCategory(row, posts),
    };
  }

  async function deleteCategory(user: CurrentUser | null, input: ForumCategoryDeleteInput) {
    const actor = requireContentRole(user, "delete");
    const outcome = await db.transaction().execute(async (tx) => {
      const row = await repo.findCategory(tx, input.id, true);
      if (!row) throw new NotFoundError(CATEGORY_MISSING);
      const inUse = await repo.countCategoryPosts(tx, row.id);
      const plan = planDeletion({
        kind: "category",
        title: row.title,
        id: row.id,
        inUse,
        usedNoun: "post",
        moveTo: input.move_to,
      });
      let target: repo.ForumCategoryRecord | undefined;
      if (plan.moveTo !== null) {
        target = await repo.findCategory(tx, plan.moveTo, true);
        if (!target || target.kind !== row.kind) {
          throw new ValidationError({
            move_to: `Choose a ${row.kind} category to move the posts to.`,
          });
        }
      }
      const moved = target ? await repo.moveCategoryPosts(tx, row.id, target.id) : 0;
      await repo.deleteCategory(tx, row.id);
      await compactOrder(tx, "forum_categories", { column: "forum_id", value: row.forum_id });
      await recordAudit(tx, actor, {
        action: "forum_category.delete",
        itemType: "forum_category",
        itemId: row.id,
        before: { ...row, posts: inUse },
        after: target ? { moved_posts_to: target.id, moved_posts_to_title: target.title } : null,
      });
      return { row, moved, target };
    });
    changes.emit("forums");
    if (outcome.moved > 0) changes.emit("posts");
    const moved =
      outcome.target && outcome.moved > 0
        ? ` ${outcome.moved === 1 ? "Its post was" : `Its ${outcome.moved} posts were`} moved to “${outcome.target.title}”.`
        : "";
    return {
      message: `The category “${outcome.row.title}” was deleted.${moved}`,
      moved: outcome.moved,
    };
  }

  async function moveCategory(user: CurrentUser | null, { id, direction }: ForumMoveInput) {
    const actor = requireContentRole(user, "order");
    await db.transaction().execute(async (tx) => {
      const before = await repo.findCategory(tx, id);
      if (!before) throw new NotFoundError(CATEGORY_MISSING);
      const order = await moveRow(tx, "forum_categories", id, direction, {
        column: "forum_id",
        value: before.forum_id,
      });
      await recordAudit(tx, actor, {
        action: "forum_category.move",
        itemType: "forum_category",
        itemId: id,
        before: { position: before.position },
        after: { position: order!.indexOf(id) + 1 },
      });
    });
    changes.emit("forums");
    return { message: "The categories' order was saved." };
  }

  return {
    list,
    createForum,
    updateForum,
    deleteForum,
    moveForum,
    createCategory,
    updateCategory,
    deleteCategory,
    moveCategory,
  };
}

export type ForumsConsoleService = ReturnType<typeof createForumsConsoleService>;
