import { requireActingUser, requireUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import {
  FOLLOW_PREVIEW_LIMIT,
  PAGE_SIZE,
  PROFILE_SUBSCRIPTIONS_LIMIT,
  lastPage,
} from "../../constants.ts";
import { presentDealCard } from "../../cards/presenter.ts";
import type { Deps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import { releaseUserImage, withStoredImage, type StoredImage } from "../../media/images.ts";
import { insertMediaRecord } from "../../media/image-records.ts";
import { findUndeliverable } from "../../mail/delivery-repository.ts";
import { isProfileOwner } from "./policy.ts";
import {
  presentFollowEntry,
  presentSubscription,
  presentUserProfile,
  presentWaitingPost,
  type ProfilePage,
} from "./presenter.ts";
import { isFollowingMember } from "../../member/follows/member-follow-query.ts";
import { memberReputation } from "../reputation/member-reputation.ts";
import * as repo from "./repository.ts";
import {
  PROFILE_UPDATED,
  type OwnProfileInput,
  type ProfileUpdateInput,
  type PublicProfileInput,
} from "./schema.ts";

/** The most held posts My Account lists: a newcomer has a few at most (record 0089). */
const WAITING_LIMIT = 50;

/** My Account, public profiles and profile edits. */
export function createProfilesService(deps: Deps) {
  const { db, now, changes } = deps;
  async function loadProfilePage(
    userId: number,
    viewer: CurrentUser | null,
    page: number,
  ): Promise<ProfilePage> {
    const user = await repo.findProfileUser(db, userId);
    if (!user) throw new NotFoundError();
    const owner = isProfileOwner(viewer, userId);
    const [followers, followings, deals, isFollow, subscriptions, reputation, waiting] =
      await Promise.all([
        repo.findFollowers(db, userId, FOLLOW_PREVIEW_LIMIT),
        repo.findFollowings(db, userId, FOLLOW_PREVIEW_LIMIT),
        repo.findUserDeals(db, userId, page, PAGE_SIZE.listing),
        viewer && !owner ? isFollowingMember(db, viewer.id, userId) : false,
        owner ? repo.findSubscriptions(db, userId, PROFILE_SUBSCRIPTIONS_LIMIT) : null,
        memberReputation(db, userId),
        owner ? repo.findPostsWaitingForReview(db, userId, WAITING_LIMIT) : null,
      ]);
    const at = now();
    const userData = presentUserProfile(user, { owner, isFollow });
    const total = userData.deal_count + userData.coupon_count;
    return {
      user_data: userData,
      followings_data: followings.map(presentFollowEntry),
      followers_data: followers.map(presentFollowEntry),
      deal_data: deals.map((row) => presentDealCard(row, at)),
      deal_data_pagination: {
        total,
        current_page: page,
        last_page: lastPage(total, PAGE_SIZE.listing),
      },
      ...(subscriptions ? { user_subscriptions: subscriptions.map(presentSubscription) } : {}),
      ...(waiting ? { waiting_for_review: waiting.map(presentWaitingPost) } : {}),
      reputation: {
        points: reputation.points,
        level: reputation.level,
        badges: reputation.badges,
      },
    };
  }

  async function ownProfile(
    user: CurrentUser | null,
    { user_id }: Pick<OwnProfileInput, "user_id">,
  ) {
    const actor = requireActingUser(user, user_id);
    const row = await repo.findProfileUser(db, actor.id);
    if (!row) throw new NotFoundError();
    return presentUserProfile(row, { owner: true, isFollow: false });
  }

  /** Stores the changes and the new avatar's record; returns the avatar it replaced, if any. */
  async function saveProfile(
    userId: number,
    changes: repo.ProfileChanges,
    avatar: StoredImage | null,
  ): Promise<string | null> {
    return db.transaction().execute(async (trx) => {
      const previousUrl = avatar ? await repo.findAvatarUrl(trx, userId) : null;
      await repo.updateProfile(trx, userId, { ...changes, image_url: avatar?.url }, now());
      if (avatar) await insertMediaRecord(trx, userId, avatar);
      return previousUrl;
    });
  }

  return {
    /** `POST /api/user_dashboard`: the signed-in user's own page, subscriptions included. */
    async dashboard(user: CurrentUser | null, { user_id, page }: OwnProfileInput) {
      const actor = requireActingUser(user, user_id);
      return loadProfilePage(actor.id, actor, page);
    },

    /** `POST /api/user`: the signed-in user's own profile, private fields included. */
    ownProfile,

    /**
     * My Account's banner: the signed-in member's address when mail to it cannot be delivered
     * (docs/decisions/0083-mail-delivery.md); null when it can.
     */
    async undeliverableAddress(user: CurrentUser | null): Promise<string | null> {
      const actor = requireUser(user);
      return (await findUndeliverable(db, actor.email)) ? actor.email : null;
    },

    /** `POST /api/user_profile`: anyone's public page; `is_follow` says whether the viewer follows. */
    async publicProfile(
      viewer: CurrentUser | null,
      { loggedin_user_id, user_id, page }: PublicProfileInput,
    ) {
      if (loggedin_user_id !== undefined) requireActingUser(viewer, loggedin_user_id);
      return loadProfilePage(user_id, viewer, page);
    },

    /**
     * `POST /api/profile_update`. The fields are checked before the image is stored; a stored image
     * whose database write fails is removed, and a replaced avatar the user uploaded is deleted.
     */
    async updateProfile(
      user: CurrentUser | null,
      fields: ProfileUpdateInput,
      image: Buffer | null,
    ) {
      const actor = requireActingUser(user, fields.user_id);
      const replacedUrl = await withStoredImage(
        deps,
        { bytes: image, folder: "avatars", maxSize: 512 },
        (avatar) =>
          saveProfile(
            actor.id,
            {
              name: fields.name,
              mobile: fields.mobile,
              website: fields.website,
              dob: fields.dob || null,
              gender: fields.gender || null,
              biography: fields.brief,
              address: fields.address,
            },
            avatar,
          ),
      );
      changes.emit("users"); // cards show the name and picture
      await releaseUserImage(deps, actor.id, replacedUrl);
      return { message: PROFILE_UPDATED, data: await ownProfile(actor, { user_id: actor.id }) };
    },
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;
