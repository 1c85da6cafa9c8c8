import type { CurrentUser } from "../auth/sessions.ts";
import { SUBMIT_MESSAGES } from "../constants.ts";
import { htmlToText, sanitizeRichHtml } from "../content/sanitize.ts";
import type { Deps } from "../deps.ts";
import { ConflictError, ValidationError } from "../http/errors.ts";
import { parseInput } from "../http/validate.ts";
import { removeStoredImage, storeUploadedImage, type StoredImage } from "../media/images.ts";
import { linkKey, newUniqueId, slugify } from "../posts/identity.ts";
import { requirePoster } from "./policy.ts";
import { presentDuplicate, toSubmitOptions, type CreatedPost } from "./presenter.ts";
import * as repo from "./repository.ts";
import {
  DEAL_MESSAGES,
  DISCUSSION_MESSAGES,
  DiscussionSchema,
  createDealSchema,
  earliestExpiryDate,
  expiryEndsAt,
} from "./schema.ts";

/** A submission as it arrives: the form's text fields and, when one was chosen, the image bytes. */
export interface SubmissionInput {
  fields: Record<string, unknown>;
  image?: Buffer;
}

/** Sanitised HTML and its plain text; an editor left with markup but no words counts as empty. */
function cleanDescription(html: string, field: string, message: string) {
  const description = sanitizeRichHtml(html);
  const descriptionText = htmlToText(description);
  if (!descriptionText) throw new ValidationError({ [field]: message });
  return { description, description_text: descriptionText };
}

/** Submit Deals: the form's choices, new deals and coupons, new discussions. */
export function createSubmissionsService({ db, mediaDir, now, changes }: Deps) {
  /**
   * Stores the image (if any) before the transaction and removes it again if the transaction
   * fails, so a refused or failed submission leaves neither a row nor a file behind.
   */
  async function withStoredImage<T>(
    image: Buffer | undefined,
    folder: "deals" | "discussions",
    write: (stored: StoredImage | null) => Promise<T>,
  ): Promise<T> {
    const stored = image ? await storeUploadedImage(mediaDir, folder, image) : null;
    try {
      return await write(stored);
    } catch (error) {
      if (stored) await removeStoredImage(mediaDir, stored.path);
      throw error;
    }
  }

  return {
    async options() {
      return toSubmitOptions(await repo.findSubmitOptions(db));
    },

    async createDeal(user: CurrentUser | null, input: SubmissionInput): Promise<CreatedPost> {
      const poster = requirePoster(user, input.fields.user_id);
      const at = now();
      const deal = parseInput(createDealSchema(earliestExpiryDate(at)), input.fields);

      const [forumCategory, store, category] = await Promise.all([
        repo.findForumCategory(db, deal.deal_category, "deal"),
        repo.findStore(db, deal.store_id),
        repo.findCategory(db, deal.category_id),
      ]);
      const unknown: Record<string, string> = {};
      if (!forumCategory) unknown.deal_category = DEAL_MESSAGES.dealCategory;
      if (!store) unknown.store_id = DEAL_MESSAGES.store;
      if (!category) unknown.category_id = DEAL_MESSAGES.category;
      if (Object.keys(unknown).length) throw new ValidationError(unknown);

      const content = cleanDescription(
        deal.deal_description,
        "deal_description",
        DEAL_MESSAGES.description,
      );
      const key = deal.link ? linkKey(deal.link) : "";
      const refuseDuplicate = async (
        existing: { unique_id: string; slug: string; title: string } | undefined,
      ) => {
        if (existing) {
          throw new ConflictError(SUBMIT_MESSAGES.duplicateDeal, {
            duplicate: presentDuplicate(existing),
          });
        }
      };
      // Checked before the image is processed (cheap refusal), and again under the link's lock.
      if (key) await refuseDuplicate(await repo.findLiveDealByLinkKey(db, key, at));

      const created = await withStoredImage(input.image, "deals", (stored) =>
        db.transaction().execute(async (tx) => {
          if (key) {
            await repo.lockLinkKey(tx, key);
            await refuseDuplicate(await repo.findLiveDealByLinkKey(tx, key, at));
          }
          const post = await repo.insertPost(tx, {
            unique_id: newUniqueId(),
            slug: slugify(deal.title),
            post_type: "d",
            kind: deal.type === "coupon" || deal.coupon_code ? "coupon" : "deal",
            status: "active",
            user_id: poster.id,
            forum_category_id: deal.deal_category,
            store_id: deal.store_id,
            category_id: deal.category_id,
            title: deal.title,
            ...content,
            image_url: stored?.url ?? deal.deal_image ?? "",
            price: deal.price ?? null,
            discount: deal.discount ?? null,
            link: deal.link ?? "",
            link_key: key,
            coupon_code: deal.coupon_code ?? "",
            expires_at: deal.expiry ? expiryEndsAt(deal.expiry) : null,
            created_at: at,
            updated_at: at,
          });
          if (stored) await repo.insertMedia(tx, poster.id, stored);
          return post;
        }),
      );
      changes.emit("posts");
      return created;
    },

    async createDiscussion(user: CurrentUser | null, input: SubmissionInput): Promise<CreatedPost> {
      const poster = requirePoster(user, input.fields.user_id);
      const at = now();
      const discussion = parseInput(DiscussionSchema, input.fields);
      const forumCategory = await repo.findForumCategory(
        db,
        discussion.forum_category_id,
        "discussion",
      );
      if (!forumCategory) {
        throw new ValidationError({ forum_category_id: DISCUSSION_MESSAGES.category });
      }
      const content = cleanDescription(
        discussion.detail,
        "detail",
        DISCUSSION_MESSAGES.description,
      );

      const created = await withStoredImage(input.image, "discussions", (stored) =>
        db.transaction().execute(async (tx) => {
          const post = await repo.insertPost(tx, {
            unique_id: newUniqueId(),
            slug: slugify(discussion.title),
            post_type: "g",
            kind: "discussion",
            status: "active",
            user_id: poster.id,
            forum_category_id: discussion.forum_category_id,
            title: discussion.title,
            ...content,
            image_url: stored?.url ?? "",
            created_at: at,
            updated_at: at,
          });
          if (stored) await repo.insertMedia(tx, poster.id, stored);
          return post;
        }),
      );
      changes.emit("posts");
      return created;
    },
  };
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>;
