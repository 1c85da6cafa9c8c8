import type { CurrentUser } from "../../auth/sessions.ts";
import { SUBMIT_MESSAGES } from "../../constants.ts";
import type { Deps } from "../../deps.ts";
import { queueAlertMatching } from "../../member/alerts/jobs.ts";
import { ConflictError, ValidationError } from "../../errors.ts";
import { withStoredImage } from "../../media/images.ts";
import { insertMediaRecord } from "../../media/image-records.ts";
import { recordCopiedImages, withCopiedImages } from "../../media/outside-images.ts";
import { assertNewcomerLinkCap, reviewReasonOfNewPost } from "../../moderation/holding.ts";
import { countLinks } from "../../moderation/newcomer-links.ts";
import { assertLinksAllowed, linksInHtml } from "../../settings/blocked-domains.ts";
import { cleanDescription, derivedDealFields, derivedDiscussionFields } from "../derived-fields.ts";
import { newUniqueId } from "../identity.ts";
import { productForLink } from "../prices/product-of-link.ts";
import { requirePoster } from "./policy.ts";
import { presentDuplicate, toSubmitOptions, type CreatedPost } from "./presenter.ts";
import * as repo from "./repository.ts";
import {
  DEAL_MESSAGES,
  DISCUSSION_MESSAGES,
  expiryEndsAt,
  type DealSubmission,
  type DiscussionSubmission,
} from "./schema.ts";

/** A submission: the form's checked fields and, when one was chosen, the image's bytes. */
export interface SubmissionInput<Fields> {
  fields: Fields;
  image?: Buffer;
}

/** The new post with what its author is told when it waits for review. */
function withReview<P extends CreatedPost>(post: P, review: string | null): CreatedPost {
  return review === null ? post : { ...post, review_message: review };
}

/** Submit Deals: the form's choices, new deals and coupons, new discussions. */
export function createSubmissionsService(deps: Deps) {
  const { db, now, changes } = deps;
  return {
    async options() {
      return toSubmitOptions(await repo.findSubmitOptions(db));
    },

    async createDeal(
      user: CurrentUser | null,
      { fields: deal, image }: SubmissionInput<DealSubmission>,
    ): Promise<CreatedPost> {
      const poster = requirePoster(user, deal.user_id);
      const at = now();

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
      await assertLinksAllowed(db, {
        link: [deal.link],
        deal_image: [deal.deal_image],
        deal_description: linksInHtml(content.description),
      });
      // A newcomer's description carries few links (docs/decisions/0089-newcomer-links.md).
      await assertNewcomerLinkCap(db, poster, {
        field: "deal_description",
        html: content.description,
        place: "description",
      });
      const derived = derivedDealFields({
        title: deal.title,
        link: deal.link ?? "",
        coupon_code: deal.coupon_code ?? "",
        type: deal.type === "coupon" ? "coupon" : "deal",
        price: deal.price ?? null,
        list_price: null,
        discount: deal.discount ?? null,
      });
      const key = derived.link_key;
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

      // Deal images are shown on cards and the deal page in responsive sizes.
      const upload = { bytes: image, folder: "deals", variants: true } as const;
      // Outside images in the description, and the image link when no file was chosen, are
      // copied first, outside the transaction: viewers load only the site's copies
      // (docs/decisions/0074-images-in-user-html.md). A link that cannot be copied is dropped
      // and logged, and the deal is posted without a picture.
      const html = deal.deal_description;
      const picture = image ? null : deal.deal_image;
      const copyOptions = { picture, pictureVariants: true };
      const created = await withCopiedImages(
        deps,
        html,
        "deals",
        (copied) => {
          const description = cleanDescription(
            html,
            "deal_description",
            DEAL_MESSAGES.description,
            copied.sources,
          );
          return withStoredImage(deps, upload, (stored) =>
            db.transaction().execute(async (tx) => {
              if (key) {
                await repo.lockLinkKey(tx, key);
                await refuseDuplicate(await repo.findLiveDealByLinkKey(tx, key, at));
              }
              // A newcomer's post with a link, or a new account's first post, may wait for a
              // moderator (core/moderation/holding.ts).
              const review = await reviewReasonOfNewPost(
                tx,
                {
                  author: poster,
                  hasLink: Boolean(deal.link) || countLinks(description.description) > 0,
                },
                at,
              );
              const held = review !== null;
              const post = await repo.insertPost(tx, {
                unique_id: newUniqueId(),
                slug: derived.slug,
                post_type: "d",
                kind: derived.kind,
                status: held ? "pending" : "active",
                user_id: poster.id,
                forum_category_id: deal.deal_category,
                store_id: deal.store_id,
                category_id: deal.category_id,
                title: deal.title,
                ...description,
                image_url: stored?.url ?? copied.picture ?? "",
                price: deal.price ?? null,
                discount: derived.discount,
                link: deal.link ?? "",
                link_key: key,
                // Grouped with the other deals of its link, for price history (core/posts/prices).
                product_id: await productForLink(tx, key, at),
                coupon_code: deal.coupon_code ?? "",
                expires_at: deal.expiry ? expiryEndsAt(deal.expiry) : null,
                created_at: at,
                updated_at: at,
              });
              if (stored) await insertMediaRecord(tx, poster.id, stored);
              await recordCopiedImages(tx, poster.id, copied);
              // Keyword alerts (docs/decisions/0045-alert-matching.md): a public deal is
              // matched now, a held one on approval.
              if (!held) {
                await queueAlertMatching(deps.jobs, tx, { postId: post.id, trigger: "publish" });
              }
              return withReview(post, review);
            }),
          );
        },
        copyOptions,
      );
      changes.emit("posts");
      return created;
    },

    async createDiscussion(
      user: CurrentUser | null,
      { fields: discussion, image }: SubmissionInput<DiscussionSubmission>,
    ): Promise<CreatedPost> {
      const poster = requirePoster(user, discussion.user_id);
      const at = now();
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
      await assertLinksAllowed(db, { detail: linksInHtml(content.description) });
      await assertNewcomerLinkCap(db, poster, {
        field: "detail",
        html: content.description,
        place: "description",
      });

      const html = discussion.detail;
      const created = await withCopiedImages(deps, html, "discussions", (copied) => {
        const detail = cleanDescription(
          html,
          "detail",
          DISCUSSION_MESSAGES.description,
          copied.sources,
        );
        return withStoredImage(
          deps,
          { bytes: image, folder: "discussions", variants: true },
          (stored) =>
            db.transaction().execute(async (tx) => {
              const review = await reviewReasonOfNewPost(
                tx,
                { author: poster, hasLink: countLinks(detail.description) > 0 },
                at,
              );
              const held = review !== null;
              const post = await repo.insertPost(tx, {
                unique_id: newUniqueId(),
                ...derivedDiscussionFields(discussion),
                post_type: "g",
                kind: "discussion",
                status: held ? "pending" : "active",
                user_id: poster.id,
                forum_category_id: discussion.forum_category_id,
                title: discussion.title,
                ...detail,
                image_url: stored?.url ?? "",
                created_at: at,
                updated_at: at,
              });
              if (stored) await insertMediaRecord(tx, poster.id, stored);
              await recordCopiedImages(tx, poster.id, copied);
              return withReview(post, review);
            }),
        );
      });
      changes.emit("posts");
      return created;
    },
  };
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>;
