import { z } from "zod";
import { DealCardSchema } from "../../cards/responses.ts";
import { TRUE, isoDateTime, message } from "../../responses.ts";
import { ReputationSchema } from "../reputation/responses.ts";

/**
 * A member's profile. Email, mobile and address are the owner's alone: they are present when the
 * owner asks (`/user`, `/user_dashboard`, `/profile_update`, their own `/user_profile`) and never
 * for anyone else; the privacy policy decides the same for date of birth and gender.
 */
const UserProfile = z.strictObject({
  user_id: z.number(),
  user_name: z.string(),
  user_image: z.string(),
  user_type: z.string(),
  join_date: isoDateTime,
  deal_count: z.number().int(),
  coupon_count: z.number().int(),
  followers: z.number().int(),
  followings: z.number().int(),
  is_follow: z.union([z.literal(0), z.literal(1)]).describe("1: the viewer follows this user"),
  user_biography: z.string(),
  user_website: z.string(),
  user_dob: z.string().optional(),
  user_gender: z.string().optional(),
  user_email: z.string().optional().describe("owner only"),
  user_mobile: z.string().optional().describe("owner only"),
  user_address: z.string().optional().describe("owner only"),
  user_verified_educator: z.boolean().describe("shows the Verified educator badge"),
});

const FollowEntry = z.strictObject({
  id: z.number(),
  user_id: z.number(),
  user_image: z.string(),
  name: z.string(),
});

const Subscription = z.strictObject({
  id: z.number(),
  plan_name: z.string(),
  plan_description: z.string(),
  plan_price: z.string().describe("e.g. '10.99'"),
  plan_currency: z.string(),
  plan_interval: z.string(),
  sub_start_date: z.string(),
  sub_end_date: z.string(),
  sub_status: z.string(),
});

const ProfilePage = z.strictObject({
  user_data: UserProfile,
  followings_data: z.array(FollowEntry),
  followers_data: z.array(FollowEntry),
  deal_data: z.array(DealCardSchema),
  deal_data_pagination: z.strictObject({
    total: z.number().int(),
    current_page: z.number().int(),
    last_page: z.number().int(),
  }),
  user_subscriptions: z.array(Subscription).optional().describe("the owner's own page only"),
  waiting_for_review: z
    .array(
      z.strictObject({
        unique_id: z.string(),
        slug: z.string(),
        title: z.string(),
        type: z.enum(["d", "g"]),
        kind: z.enum(["deal", "coupon", "discussion"]),
        url: z.string(),
        created_at: isoDateTime,
        review_status: z.literal("pending"),
        label: z.string().describe("'Waiting for review'"),
      }),
    )
    .optional()
    .describe("the owner's own page only: their posts held for a moderator's review"),
  reputation: ReputationSchema.describe(
    "points, level and earned badges, as the reputation job last counted them",
  ),
});

export const DashboardResponse = z.strictObject({ status: TRUE, response: ProfilePage });

export const OwnProfileResponse = z.strictObject({ status: TRUE, data: UserProfile });

export const PublicProfileResponse = z.strictObject({ status: TRUE, response: ProfilePage });

export const FollowResponse = z.strictObject({
  ...message,
  is_follow: z.union([z.literal(0), z.literal(1)]),
  followers: z.number().int(),
});

export const ProfileUpdatedResponse = z.strictObject({ ...message, data: UserProfile });
