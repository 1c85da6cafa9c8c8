import type { DealCard } from "../../cards/presenter.ts";
import type { EarnedBadge } from "../reputation/member-reputation.ts";
import type { Level } from "../reputation/rules.ts";
import { OWNER_ONLY_PROFILE_FIELDS, type OwnerOnlyProfileField } from "./policy.ts";
import type {
  FollowUserRow,
  ProfileUserRow,
  SubscriptionRow,
  WaitingPostRow,
} from "./repository.ts";
import { moderationState } from "../../moderation/policy.ts";
import { postPath } from "../../posts/paths.ts";
import { siteImage } from "../../media/media-path.ts";

/** Every field of a user's profile in the spec's field names (section 3), as its owner sees it. */
function ownerView(row: ProfileUserRow, isFollow: boolean) {
  return {
    user_id: row.id,
    user_name: row.name,
    user_image: siteImage(row.image_url),
    user_type: row.user_type,
    join_date: row.created_at.toISOString(),
    deal_count: Number(row.deal_count ?? 0),
    coupon_count: Number(row.coupon_count ?? 0),
    followers: Number(row.followers ?? 0),
    followings: Number(row.followings ?? 0),
    is_follow: isFollow ? 1 : 0,
    user_dob: row.dob ?? "",
    user_gender: row.gender ?? "",
    user_biography: row.biography,
    user_website: row.website,
    user_email: row.email,
    user_mobile: row.mobile,
    user_address: row.address,
    /** The "Verified educator" badge (docs/decisions/0041-verified-educators.md). */
    user_verified_educator: row.verified_educator,
  };
}

/** A user's own profile: every field, private ones included (/api/user, profile edit). */
export type UserProfile = ReturnType<typeof ownerView>;

/** A profile as someone sees it: the owner-only fields are there for the owner alone. */
export type ShownUserProfile = Omit<UserProfile, OwnerOnlyProfileField> &
  Partial<Pick<UserProfile, OwnerOnlyProfileField>>;

/**
 * A user's profile for a viewer. Date of birth, gender, email, mobile number and address
 * (OWNER_ONLY_PROFILE_FIELDS) are present only when `owner` is true, and absent (not null or
 * empty) otherwise, as the privacy policy says.
 */
export function presentUserProfile(
  row: ProfileUserRow,
  options: { owner: true; isFollow: boolean },
): UserProfile;
export function presentUserProfile(
  row: ProfileUserRow,
  options: { owner: boolean; isFollow: boolean },
): ShownUserProfile;
export function presentUserProfile(
  row: ProfileUserRow,
  options: { owner: boolean; isFollow: boolean },
): ShownUserProfile {
  const profile: ShownUserProfile = ownerView(row, options.isFollow);
  if (options.owner) return profile;
  const shown = { ...profile };
  for (const field of OWNER_ONLY_PROFILE_FIELDS) delete shown[field];
  return shown;
}

/** A follower / following entry: id, user_id, user_image, name. */
export function presentFollowEntry(row: FollowUserRow) {
  return { id: row.id, user_id: row.id, user_image: siteImage(row.image_url), name: row.name };
}

export type FollowEntry = ReturnType<typeof presentFollowEntry>;

export function presentSubscription(row: SubscriptionRow) {
  return {
    id: row.id,
    plan_name: row.plan_name,
    plan_description: row.plan_description,
    plan_price: (row.price_cents / 100).toFixed(2),
    plan_currency: row.currency,
    plan_interval: row.interval,
    sub_start_date: row.start_date ?? "",
    sub_end_date: row.end_date ?? "",
    sub_status: row.status,
  };
}

export type Subscription = ReturnType<typeof presentSubscription>;

/** One of the owner's posts held for review, as My Account lists it (user_dashboard). */
export function presentWaitingPost(row: WaitingPostRow) {
  return {
    unique_id: row.unique_id,
    slug: row.slug,
    title: row.title,
    type: row.post_type,
    kind: row.kind,
    url: postPath(row),
    created_at: row.created_at.toISOString(),
    review_status: "pending" as const,
    label: moderationState("pending")!.label,
  };
}

export type WaitingPost = ReturnType<typeof presentWaitingPost>;

export interface ProfilePage {
  user_data: ShownUserProfile;
  followings_data: FollowEntry[];
  followers_data: FollowEntry[];
  deal_data: DealCard[];
  deal_data_pagination: { total: number; current_page: number; last_page: number };
  /** Only for the owner: a subscription is nobody else's business. */
  user_subscriptions?: Subscription[];
  /** Only for the owner: their posts waiting for a moderator's review (record 0089). */
  waiting_for_review?: WaitingPost[];
  /** Points, level and earned badges (core/people/reputation). */
  reputation: { points: number; level: Level; badges: EarnedBadge[] };
}
