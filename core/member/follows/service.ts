import { requireActingUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { PAGE_SIZE, lastPage } from "../../constants.ts";
import { findCardsByIds } from "../../cards/deal-card-query.ts";
import { NO_BOUNDS } from "../../cards/deal-filter-query.ts";
import { presentDealCard } from "../../cards/presenter.ts";
import type { Deps } from "../../deps.ts";
import { ConflictError, NotFoundError } from "../../errors.ts";
import type { Listing } from "../../listings/presenter.ts";
import { notifyNewFollower } from "../notifications/events.ts";
import { isFollowingMember } from "./member-follow-query.ts";
import { assertCanFollow } from "./policy.ts";
import * as repo from "./repository.ts";
import {
  FEED_MAX_DEALS,
  FOLLOW,
  FOLLOW_MESSAGES as M,
  MAX_FOLLOWS,
  SUGGESTED_STORES,
  type FollowScope,
  type FollowToggleInput,
  type MemberFollowInput,
  type MyFeedInput,
} from "./schema.ts";

/** A store suggested on an empty feed. */
export type SuggestedStore = Awaited<ReturnType<typeof repo.findPopularStores>>[number];

/**
 * Followed members, stores and categories, and the personal feed
 * (docs/decisions/0043-saved-deals-and-feed.md): new public deals from the stores and categories a
 * member follows and from the members they follow (the spec's `profile_follow`), newest first,
 * paged like the listings and at most FEED_MAX_PAGES deep.
 */
export function createFollowingService({ db, now, changes }: Deps) {
  async function feedListing(userId: number, page: number): Promise<Listing> {
    const size = PAGE_SIZE.listing;
    const ids = await repo.findFeedIds(db, userId, FEED_MAX_DEALS);
    const pageIds = ids.slice((page - 1) * size, page * size);
    const at = now();
    // Only deals carry a store or a category; the card query keeps public posts only.
    const rows = (await findCardsByIds(db, pageIds)).filter((row) => row.post_type === "d");
    return {
      items: rows.map((row) => presentDealCard(row, at)),
      total: ids.length,
      currentPage: page,
      lastPage: lastPage(ids.length, size),
      perPage: size,
      selected: null,
      bounds: NO_BOUNDS,
      stores: [],
    };
  }

  return {
    /** `POST /api/follow_toggle`: follows a store or a category, or stops following it. */
    async toggle(user: CurrentUser | null, input: FollowToggleInput) {
      const actor = requireActingUser(user, input.user_id);
      const scope: FollowScope = input.type;
      const result = await db.transaction().execute(async (tx) => {
        const target =
          scope === "store"
            ? await repo.findStore(tx, input.id)
            : await repo.findCategory(tx, input.id);
        if (!target) {
          throw new NotFoundError(scope === "store" ? M.storeNotFound : M.categoryNotFound);
        }
        if (await repo.deleteFollow(tx, scope, actor.id, target.id)) {
          return { following: false, title: target.title };
        }
        if ((await repo.countFollows(tx, scope, actor.id)) >= MAX_FOLLOWS[scope]) {
          throw new ConflictError(M.tooMany(scope));
        }
        await repo.insertFollow(tx, scope, actor.id, target.id, now());
        return { following: true, title: target.title };
      });
      return {
        message: result.following
          ? scope === "store"
            ? M.followingStore(result.title)
            : M.followingCategory(result.title)
          : M.unfollowed(result.title),
        type: scope,
        id: input.id,
        following: result.following,
      };
    },

    /** Whether the viewer follows a store or a category (its page's button); false for a visitor. */
    async isFollowing(user: CurrentUser | null, scope: FollowScope, id: number) {
      if (!user) return false;
      return repo.isFollowing(db, scope, user.id, id);
    },

    /** `POST /api/my_feed`: one page of the member's feed. */
    async feed(user: CurrentUser | null, input: MyFeedInput): Promise<Listing> {
      const actor = requireActingUser(user, input.user_id);
      return feedListing(actor.id, input.page);
    },

    /**
     * /user/feed: a page of the feed, what the member follows, and, when the feed is empty,
     * popular stores to follow (with whether the member already follows each).
     */
    async feedPage(user: CurrentUser, page: number) {
      const [listing, followed, followsAnything] = await Promise.all([
        feedListing(user.id, page),
        repo.findFollowedScopes(db, user.id),
        repo.followsAnything(db, user.id),
      ]);
      const suggestions =
        listing.total === 0 ? await repo.findPopularStores(db, user.id, SUGGESTED_STORES) : [];
      return { listing, followed, followsAnything, suggestions };
    },

    /** `POST /api/profile_follow`: 'Follow' or 'UN FOLLOW'; repeating either changes nothing. */
    async followMember(
      user: CurrentUser | null,
      { loggedin_user_id, user_id: followeeId, status }: MemberFollowInput,
    ) {
      const actor = requireActingUser(user, loggedin_user_id);
      assertCanFollow(actor, followeeId);
      const followee = await db.transaction().execute(async (trx) => {
        if (!(await repo.findFollowee(trx, followeeId))) throw new NotFoundError();
        if (status !== FOLLOW) await repo.unfollowMember(trx, actor.id, followeeId);
        else if (!(await isFollowingMember(trx, actor.id, followeeId))) {
          await repo.followMember(trx, actor.id, followeeId);
          await notifyNewFollower(trx, { followeeId, actor });
        }
        return repo.findFollowee(trx, followeeId);
      });
      if (!followee) throw new NotFoundError();
      changes.emit("users"); // profile pages show followers and their counts
      const following = status === FOLLOW;
      return {
        message: following
          ? `You are now following ${followee.name}.`
          : `You have unfollowed ${followee.name}.`,
        is_follow: following ? 1 : 0,
        followers: Number(followee.followers ?? 0),
      };
    },
  };
}

export type FollowingService = ReturnType<typeof createFollowingService>;
