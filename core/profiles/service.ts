import { requireActingUser, requireUser } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import {
  FOLLOW_PREVIEW_LIMIT,
  PAGE_SIZE,
  PROFILE_SUBSCRIPTIONS_LIMIT,
  lastPage,
} from "../constants.ts";
import { presentDealCard } from "../deals/presenter.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError, ValidationError } from "../http/errors.ts";
import { fieldErrors, parseInput } from "../http/validate.ts";
import { removeStoredImage, storeUploadedImage, type StoredImage } from "../media/images.ts";
import { assertCanFollow, isProfileOwner } from "./policy.ts";
import {
  presentFollowEntry,
  presentSubscription,
  presentUserProfile,
  type ProfilePage,
} from "./presenter.ts";
import * as repo from "./repository.ts";
import {
  FOLLOW,
  FollowSchema,
  OwnProfileSchema,
  PROFILE_UPDATED,
  ProfileUpdateSchema,
  PublicProfileSchema,
  profileUpdateMessage,
} from "./schema.ts";

const MEDIA_URL_PREFIX = "/media/";

/** My Account, public profiles, follows and profile edits. */
export function createProfilesService({ db, now, mediaDir, log, changes: changeFeed }: Deps) {
  async function loadProfilePage(
    userId: number,
    viewer: CurrentUser | null,
    page: number,
  ): Promise<ProfilePage> {
    const user = await repo.findProfileUser(db, userId);
    if (!user) throw new NotFoundError();
    const owner = isProfileOwner(viewer, userId);
    const [followers, followings, deals, isFollow, subscriptions] = await Promise.all([
      repo.findFollowers(db, userId, FOLLOW_PREVIEW_LIMIT),
      repo.findFollowings(db, userId, FOLLOW_PREVIEW_LIMIT),
      repo.findUserDeals(db, userId, page, PAGE_SIZE.listing),
      viewer && !owner ? repo.isFollowing(db, viewer.id, userId) : false,
      owner ? repo.findSubscriptions(db, userId, PROFILE_SUBSCRIPTIONS_LIMIT) : null,
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
    };
  }

  async function ownProfile(user: CurrentUser | null, input: unknown) {
    requireUser(user);
    const { user_id } = parseInput(OwnProfileSchema, input);
    const actor = requireActingUser(user, user_id);
    const row = await repo.findProfileUser(db, actor.id);
    if (!row) throw new NotFoundError();
    return presentUserProfile(row, { owner: true, isFollow: false });
  }

  /** Stores the new avatar's row and drops the old one's; returns the old file to delete. */
  async function saveProfile(
    userId: number,
    changes: repo.ProfileChanges,
    avatar: StoredImage | null,
  ): Promise<string | null> {
    return db.transaction().execute(async (trx) => {
      const previousUrl = avatar ? await repo.findAvatarUrl(trx, userId) : null;
      await repo.updateProfile(trx, userId, { ...changes, image_url: avatar?.url }, now());
      if (!avatar) return null;
      await repo.insertMedia(trx, {
        user_id: userId,
        path: avatar.path,
        mime: "image/webp",
        width: avatar.width,
        height: avatar.height,
        bytes: avatar.bytes,
      });
      if (!previousUrl?.startsWith(MEDIA_URL_PREFIX)) return null;
      const previousPath = previousUrl.slice(MEDIA_URL_PREFIX.length);
      return (await repo.deleteUserMedia(trx, userId, previousPath)) ? previousPath : null;
    });
  }

  return {
    /** `POST /api/user_dashboard`: the signed-in user's own page, subscriptions included. */
    async dashboard(user: CurrentUser | null, input: unknown) {
      requireUser(user);
      const { user_id, page } = parseInput(OwnProfileSchema, input);
      const actor = requireActingUser(user, user_id);
      return loadProfilePage(actor.id, actor, page ?? 1);
    },

    /** `POST /api/user`: the signed-in user's own profile, private fields included. */
    ownProfile,

    /** `POST /api/user_profile`: anyone's public page; `is_follow` says whether the viewer follows. */
    async publicProfile(viewer: CurrentUser | null, input: unknown) {
      const { loggedin_user_id, user_id, page } = parseInput(PublicProfileSchema, input);
      if (loggedin_user_id !== undefined) requireActingUser(viewer, loggedin_user_id);
      return loadProfilePage(user_id, viewer, page ?? 1);
    },

    /** `POST /api/profile_follow`: 'Follow' or 'UN FOLLOW'; repeating either changes nothing. */
    async follow(user: CurrentUser | null, input: unknown) {
      requireUser(user);
      const { loggedin_user_id, user_id: followeeId, status } = parseInput(FollowSchema, input);
      const actor = requireActingUser(user, loggedin_user_id);
      assertCanFollow(actor, followeeId);
      const followee = await db.transaction().execute(async (trx) => {
        if (!(await repo.userExists(trx, followeeId))) throw new NotFoundError();
        if (status === FOLLOW) await repo.follow(trx, actor.id, followeeId);
        else await repo.unfollow(trx, actor.id, followeeId);
        return repo.findProfileUser(trx, followeeId);
      });
      if (!followee) throw new NotFoundError();
      const following = status === FOLLOW;
      return {
        message: following
          ? `You are now following ${followee.name}.`
          : `You have unfollowed ${followee.name}.`,
        is_follow: following ? 1 : 0,
        followers: Number(followee.followers ?? 0),
      };
    },

    /**
     * `POST /api/profile_update`. The fields are checked before the image is stored; a stored image
     * whose database write fails is removed, and a replaced avatar the user uploaded is deleted.
     */
    async updateProfile(user: CurrentUser | null, input: unknown, image: Buffer | null) {
      requireUser(user);
      const errors = fieldErrors(ProfileUpdateSchema, input);
      if (errors) throw new ValidationError(errors, profileUpdateMessage(errors));
      const fields = ProfileUpdateSchema.parse(input);
      const actor = requireActingUser(user, fields.user_id);
      const avatar = image
        ? await storeUploadedImage(mediaDir, "avatars", image, { maxSize: 512 })
        : null;
      let replacedPath: string | null;
      try {
        replacedPath = await saveProfile(
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
        );
      } catch (error) {
        if (avatar) await removeStoredImage(mediaDir, avatar.path);
        throw error;
      }
      changeFeed.emit("users"); // cards show the name and picture
      if (replacedPath) {
        await removeStoredImage(mediaDir, replacedPath).catch((error: unknown) =>
          log.warn(`could not remove replaced avatar ${replacedPath}: ${String(error)}`),
        );
      }
      return { message: PROFILE_UPDATED, data: await ownProfile(actor, { user_id: actor.id }) };
    },
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;
