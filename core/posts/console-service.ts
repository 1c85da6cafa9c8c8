import { changedFields, recordAudit } from "../audit/audit-trail.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { CONSOLE_PAGE_SIZE } from "../list-query.ts";
import { lastPage } from "../constants.ts";
import type { Deps } from "../deps.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { releaseUserImage } from "../media/images.ts";
import {
  recordCopiedImages,
  withCopiedImages,
  type CopiedImages,
} from "../media/outside-images.ts";
import { applyModeration } from "../moderation/service.ts";
import { productForLink } from "./prices/product-of-link.ts";
import { uniqueId as uniqueIdSchema } from "./schema.ts";
import { cleanDescription, derivedDealFields, derivedDiscussionFields } from "./derived-fields.ts";
import {
  DEAL_MESSAGES,
  DISCUSSION_MESSAGES,
  expiryDateOf,
  expiryEndsAt,
} from "./submissions/schema.ts";
import type { DbOrTx } from "../../db/index.ts";
import type { PostStatus } from "../../db/schema.ts";
import { requirePostAction } from "./console-policy.ts";
import {
  presentConsolePost,
  presentPostForEdit,
  type ConsolePostsPage,
  type PostForEdit,
} from "./console-presenter.ts";
import * as repo from "./console-repository.ts";
import type { EditablePost } from "./console-repository.ts";
import {
  DEAL_ONLY_FIELDS,
  EDIT_MESSAGES,
  type PostBulkAction,
  type PostBulkInput,
  type PostDeleteInput,
  type PostListInput,
  type PostUpdateInput,
} from "./console-schema.ts";
import { hasEnded } from "./policy.ts";
import { removeLockedPosts } from "./post-removal.ts";

const NOT_FOUND = "That post does not exist.";

/** The status each moderation action leaves a post in. */
const STATUS_OF = {
  hide: "hidden",
  restore: "active",
  remove: "removed",
} as const satisfies Record<string, PostStatus>;

export interface BulkOutcome {
  action: PostBulkAction;
  /** unique_ids of the posts the action changed, in the order they were named. */
  changed: string[];
  /** unique_ids of the posts that already were as asked (no audit entry). */
  unchanged: string[];
  /** For deletes: the rows that went with the posts. */
  removed?: { comments: number; likes: number; views: number };
}

/** Prices are kept to the cent. */
const cents = (value: number | null | undefined) =>
  value === null || value === undefined ? value : Math.round(value * 100) / 100;

/** The fields an edit may change and the audit log shows, as the post has them. */
function auditedFields(post: EditablePost) {
  return {
    title: post.title,
    slug: post.slug,
    description: post.description,
    price: post.price,
    list_price: post.list_price,
    discount: post.discount,
    link: post.link,
    coupon_code: post.coupon_code,
    kind: post.kind,
    store_id: post.store_id,
    category_id: post.category_id,
    forum_category_id: post.forum_category_id,
    expires_at: post.expires_at,
    deal_badge: post.deal_badge,
    is_featured: post.is_featured,
  };
}

type Audited = ReturnType<typeof auditedFields>;

/** `given` when the edit sent it (null included), else the post's own value. */
const pick = <T>(given: T | undefined, current: T): T => (given === undefined ? current : given);

/**
 * The console's posts: every deal and discussion in every state, edited, featured, hidden,
 * restored, expired and deleted by staff. Each action runs in one transaction with its audit
 * entries, and the caches drop after commit.
 */
export function createConsolePostsService(deps: Deps) {
  const { db, now, changes } = deps;

  /** Checks the ids an edit names (store, category, forum category); field messages if unknown. */
  async function checkReferences(tx: DbOrTx, post: EditablePost, input: PostUpdateInput) {
    const errors: Record<string, string> = {};
    if (input.store_id !== undefined) {
      const known = await repo.existingIds(tx, "stores", [input.store_id]);
      if (!known.has(input.store_id)) errors.store_id = DEAL_MESSAGES.store;
    }
    if (input.category_id !== undefined) {
      const known = await repo.existingIds(tx, "categories", [input.category_id]);
      if (!known.has(input.category_id)) errors.category_id = DEAL_MESSAGES.category;
    }
    if (input.forum_category_id !== undefined) {
      const isDeal = post.post_type === "d";
      const found = await repo.findForumCategory(
        tx,
        input.forum_category_id,
        isDeal ? "deal" : "discussion",
      );
      if (!found) {
        errors.forum_category_id = isDeal
          ? DEAL_MESSAGES.dealCategory
          : DISCUSSION_MESSAGES.category;
      }
    }
    return errors;
  }

  /**
   * The post's audited fields after the edit, the derived ones worked out again; `images` are the
   * stored copies of the new description's outside images.
   */
  function editedFields(
    post: EditablePost,
    input: PostUpdateInput,
    images: ReadonlyMap<string, string> | undefined,
  ) {
    const description =
      input.description === undefined
        ? null
        : cleanDescription(input.description, "description", DEAL_MESSAGES.description, images);
    const current = auditedFields(post);
    const title = input.title ?? post.title;
    if (post.post_type === "g") {
      const next: Audited = {
        ...current,
        title,
        ...derivedDiscussionFields({ title }),
        description: description?.description ?? post.description,
        forum_category_id: pick(input.forum_category_id, post.forum_category_id),
        is_featured: pick(input.is_featured, post.is_featured),
      };
      return { next, descriptionText: description?.description_text };
    }
    const price = pick(cents(input.price), post.price);
    const listPrice = pick(cents(input.list_price), post.list_price);
    if (price !== null && listPrice !== null && listPrice < price) {
      throw new ValidationError({ list_price: EDIT_MESSAGES.listPriceBelowPrice });
    }
    const link = pick(input.link, post.link) ?? "";
    const couponCode = pick(input.coupon_code, post.coupon_code) ?? "";
    const derived = derivedDealFields({
      title,
      link,
      coupon_code: couponCode,
      type: input.kind ?? (post.kind === "coupon" ? "coupon" : "deal"),
      price,
      list_price: listPrice,
      discount: pick(input.discount, post.discount),
    });
    let expiresAt = post.expires_at;
    if (input.expiry === null) expiresAt = null;
    else if (
      input.expiry !== undefined &&
      !(post.expires_at && expiryDateOf(post.expires_at) === input.expiry)
    ) {
      expiresAt = expiryEndsAt(input.expiry);
    }
    const next: Audited = {
      title,
      slug: derived.slug,
      description: description?.description ?? post.description,
      price,
      list_price: listPrice,
      discount: derived.discount,
      link,
      coupon_code: couponCode,
      kind: derived.kind,
      store_id: pick(input.store_id, post.store_id),
      category_id: pick(input.category_id, post.category_id),
      forum_category_id: pick(input.forum_category_id, post.forum_category_id),
      expires_at: expiresAt,
      deal_badge: pick(input.deal_badge, post.deal_badge) ?? "",
      is_featured: pick(input.is_featured, post.is_featured),
    };
    return { next, descriptionText: description?.description_text, linkKey: derived.link_key };
  }

  /** One action on one locked post; whether it changed anything. */
  async function applyAction(
    tx: DbOrTx,
    actor: CurrentUser,
    post: EditablePost,
    action: Exclude<PostBulkAction, "delete">,
    reason: string,
    at: Date,
  ): Promise<boolean> {
    switch (action) {
      case "feature":
      case "unfeature": {
        const featured = action === "feature";
        if (post.is_featured === featured) return false;
        await repo.updatePost(tx, post.id, { is_featured: featured, updated_at: at });
        await recordAudit(tx, actor, {
          action: `post.${action}`,
          itemType: post.post_type,
          itemId: post.unique_id,
          reason,
          before: { is_featured: post.is_featured },
          after: { is_featured: featured },
        });
        return true;
      }
      case "expire": {
        if (hasEnded(post, at)) return false;
        await repo.updatePost(tx, post.id, { expires_at: at, expired: true, updated_at: at });
        await recordAudit(tx, actor, {
          action: "post.expire",
          itemType: post.post_type,
          itemId: post.unique_id,
          reason,
          before: { expires_at: post.expires_at?.toISOString() ?? null },
          after: { expires_at: at.toISOString() },
        });
        return true;
      }
      default: {
        if (post.status === STATUS_OF[action]) return false;
        await applyModeration(
          tx,
          actor,
          { item_type: post.post_type, item_id: post.unique_id, action, reason },
          deps.jobs,
        );
        return true;
      }
    }
  }

  /**
   * Deletes locked posts for good with their comments, likes and views; one audit entry each,
   * naming what went with the post (not its text, which may be why it was deleted). Open reports
   * of the posts and their comments are settled. Returns the images to let go of after commit.
   */
  async function deleteLocked(
    tx: DbOrTx,
    actor: CurrentUser,
    posts: EditablePost[],
    order: string[],
    reason: string,
    at: Date,
  ) {
    const educatorPost = await repo.findEducatorPostUniqueId(tx);
    const protectedPost = posts.find((post) => post.unique_id === educatorPost);
    if (protectedPost) {
      throw new ConflictError(
        `“${protectedPost.title}” is the navigation bar's Educators post: choose another one in Settings before deleting it. Nothing was deleted.`,
      );
    }
    const { counts, images } = await removeLockedPosts(tx, posts, { at, resolvedBy: actor.id });
    const byUniqueId = new Map(posts.map((post) => [post.unique_id, post]));
    const removed = { comments: 0, likes: 0, views: 0 };
    for (const uniqueId of order) {
      const post = byUniqueId.get(uniqueId)!;
      const gone = counts.get(post.id) ?? { comments: 0, likes: 0, views: 0 };
      removed.comments += gone.comments;
      removed.likes += gone.likes;
      removed.views += gone.views;
      await recordAudit(tx, actor, {
        action: "post.delete",
        itemType: post.post_type,
        itemId: post.unique_id,
        reason,
        before: {
          title: post.title,
          status: post.status,
          author_id: post.user_id,
          created_at: post.created_at.toISOString(),
          comments: gone.comments,
          likes: gone.likes,
          views: gone.views,
        },
      });
    }
    return { removed, images };
  }

  /** Locks the named posts; a name that matches no post refuses the whole call. */
  async function lockNamed(tx: DbOrTx, ids: string[]) {
    const rows = await repo.lockPosts(tx, ids);
    const found = new Map(rows.map((row) => [row.unique_id, row]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      throw new NotFoundError(
        `${missing.length === 1 ? "No post has the id" : "No posts have the ids"} ${missing.join(", ")}. Nothing was changed.`,
      );
    }
    return { rows, found };
  }

  async function deletePosts(
    user: CurrentUser | null,
    input: PostDeleteInput,
  ): Promise<BulkOutcome> {
    const actor = requirePostAction(user, "delete");
    const at = now();
    const { removed, images } = await db.transaction().execute(async (tx) => {
      const { rows } = await lockNamed(tx, input.ids);
      return deleteLocked(tx, actor, rows, input.ids, input.reason, at);
    });
    changes.emit("posts");
    changes.emit("comments");
    changes.emit("reactions");
    for (const image of images) await releaseUserImage(deps, image.userId, image.url);
    return { action: "delete", changed: input.ids, unchanged: [], removed };
  }

  /** The edit itself, in one transaction with its audit entry, the post locked. */
  async function updateLocked(
    actor: CurrentUser,
    input: PostUpdateInput,
    copied: CopiedImages | null,
  ) {
    const at = now();
    const result = await db.transaction().execute(async (tx) => {
      const [post] = await repo.lockPosts(tx, [input.unique_id]);
      if (!post) throw new NotFoundError(NOT_FOUND);
      if (post.post_type === "g") {
        const sent = DEAL_ONLY_FIELDS.filter((field) => input[field] !== undefined);
        if (sent.length) {
          throw new ValidationError(
            Object.fromEntries(sent.map((field) => [field, EDIT_MESSAGES.notForDiscussion])),
          );
        }
      }
      const errors = await checkReferences(tx, post, input);
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const { next, descriptionText, linkKey } = editedFields(post, input, copied?.sources);
      const { before, after } = changedFields(auditedFields(post), next);
      const changed = Object.keys(after);
      if (changed.length === 0) return { post: { ...post }, changed };
      // A new link key regroups the deal by its new link (core/posts/prices).
      const regroup = linkKey !== undefined && linkKey !== post.link_key;
      const productId = regroup ? await productForLink(tx, linkKey, at) : undefined;
      await repo.updatePost(tx, post.id, {
        ...(after as Partial<Audited>),
        ...(regroup ? { product_id: productId } : {}),
        ...(descriptionText !== undefined && "description" in after
          ? { description_text: descriptionText }
          : {}),
        ...(linkKey !== undefined && "link" in after ? { link_key: linkKey } : {}),
        updated_at: at,
      });
      if (copied) await recordCopiedImages(tx, actor.id, copied);
      await recordAudit(tx, actor, {
        action: "post.update",
        itemType: post.post_type,
        itemId: post.unique_id,
        reason: input.reason,
        before,
        after,
      });
      return { post: { ...post, title: next.title, slug: next.slug }, changed };
    });
    if (result.changed.length) changes.emit("posts");
    return result;
  }

  return {
    /** One page of every post, filtered and sorted as the console asks. */
    async list(user: CurrentUser | null, query: PostListInput): Promise<ConsolePostsPage> {
      requirePostAction(user, "update");
      const { page, sort, ...fields } = query;
      const filter: repo.ConsolePostFilter = {
        ...fields,
        authorIds: fields.author ? await repo.findAuthorIds(db, fields.author) : undefined,
      };
      const [total, rows] = await Promise.all([
        repo.countPosts(db, filter),
        repo.findPosts(db, filter, sort, {
          limit: CONSOLE_PAGE_SIZE,
          offset: (page - 1) * CONSOLE_PAGE_SIZE,
        }),
      ]);
      const at = now();
      return {
        posts: rows.map((row) => presentConsolePost(row, at)),
        total,
        currentPage: page,
        lastPage: lastPage(total, CONSOLE_PAGE_SIZE),
      };
    },

    /** A post of any state as the edit form shows it; NotFoundError when there is none. */
    async forEdit(user: CurrentUser | null, uniqueId: string): Promise<PostForEdit> {
      requirePostAction(user, "update");
      // An id no schema accepts (a page's address can carry anything) names no post.
      if (!uniqueIdSchema.safeParse(uniqueId).success) throw new NotFoundError(NOT_FOUND);
      const post = await repo.findPostForEdit(db, uniqueId);
      if (!post) throw new NotFoundError(NOT_FOUND);
      return presentPostForEdit(post);
    },

    /**
     * Edits any fields of a post. The derived fields follow (slug from the title: old addresses
     * redirect by unique_id; link key; kind; discount from price and list price). The audit entry
     * keeps each changed field as it was and as it became.
     */
    async update(user: CurrentUser | null, input: PostUpdateInput) {
      const actor = requirePostAction(user, "update");
      if (input.description === undefined) return updateLocked(actor, input, null);
      // A new description's outside images are copied before the transaction (never while it
      // holds the post's lock), and only for a post that exists and a description with words.
      const found = await repo.findPostForEdit(db, input.unique_id);
      if (!found) throw new NotFoundError(NOT_FOUND);
      cleanDescription(input.description, "description", DEAL_MESSAGES.description);
      const folder = found.post_type === "g" ? "discussions" : "deals";
      return withCopiedImages(deps, input.description, folder, (copied) =>
        updateLocked(actor, input, copied),
      );
    },

    /**
     * One action on several posts in one transaction: every post is locked first, and one that
     * does not exist refuses the whole call (404, nothing changed). One audit entry per post the
     * action changed.
     */
    async bulk(user: CurrentUser | null, input: PostBulkInput): Promise<BulkOutcome> {
      if (input.action === "delete") return deletePosts(user, input);
      const action = input.action;
      const actor = requirePostAction(user, action);
      const at = now();
      const outcome = await db.transaction().execute(async (tx) => {
        const { found } = await lockNamed(tx, input.ids);
        if (action === "expire") {
          const discussions = input.ids.filter((id) => found.get(id)!.post_type === "g");
          if (discussions.length) {
            throw new ValidationError({
              ids: `Only deals expire; ${discussions.join(", ")} ${discussions.length === 1 ? "is a discussion" : "are discussions"}. Nothing was changed.`,
            });
          }
        }
        const changed: string[] = [];
        const unchanged: string[] = [];
        for (const id of input.ids) {
          const did = await applyAction(tx, actor, found.get(id)!, action, input.reason, at);
          (did ? changed : unchanged).push(id);
        }
        return { action, changed, unchanged };
      });
      if (outcome.changed.length) changes.emit("posts");
      return outcome;
    },

    /** `POST /api/admin/posts/delete`: posts deleted for good, by an administrator. */
    delete: deletePosts,
  };
}

export type ConsolePostsService = ReturnType<typeof createConsolePostsService>;
