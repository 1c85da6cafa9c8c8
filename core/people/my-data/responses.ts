import { z } from "zod";
import { EarnedBadgeSchema } from "../reputation/responses.ts";
import { isoDateTime } from "../../responses.ts";
import { COLD_REASONS } from "../../posts/reactions/cold-reasons.ts";

/**
 * `GET /api/my_data`: the signed-in member's data, as one JSON file (record 0084). Not the API's
 * `status: 'true'` envelope: the file is for the member to keep, read and take elsewhere, so it
 * opens with what it is (`format`, `exported_at`). Every link is absolute, under PUBLIC_URL; no
 * token, token hash or password hash is ever in it.
 */

const nullableDateTime = isoDateTime.nullable();
const link = z.string().describe("an absolute URL under PUBLIC_URL, or '' where there is none");

/** A post a row names (a vote, a save, a comment's post). */
const PostRef = {
  post_unique_id: z.string(),
  post_title: z.string(),
  post_url: link,
};

const Profile = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  user_type: z.string(),
  avatar_url: link,
  dob: z.string().nullable().describe("YYYY-MM-DD"),
  gender: z.string().nullable(),
  biography: z.string(),
  mobile: z.string(),
  website: z.string(),
  address: z.string(),
  role: z.string(),
  verified_educator: z.boolean(),
  has_password: z.boolean().describe("signs in with a password (the password is never exported)"),
  email_verified_at: nullableDateTime,
  suspended_at: nullableDateTime,
  suspended_until: nullableDateTime,
  suspension_reason: z.string(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  profile_url: link,
  social_accounts: z.array(z.strictObject({ provider: z.string(), linked_at: isoDateTime })),
  subscriptions: z.array(
    z.strictObject({
      id: z.number().int(),
      plan: z.string(),
      status: z.string(),
      start_date: z.string().nullable(),
      end_date: z.string().nullable(),
      created_at: isoDateTime,
    }),
  ),
  mail_undeliverable: z
    .strictObject({ reason: z.string(), failed_at: isoDateTime })
    .nullable()
    .describe("set when mail to the address is held back because the address refused it"),
});

const Post = z.strictObject({
  id: z.number().int(),
  unique_id: z.string(),
  url: link,
  post_type: z.enum(["d", "g"]),
  kind: z.string(),
  title: z.string(),
  description: z.string().describe("HTML, as posted"),
  image_url: z.string().describe("absolute for an uploaded image; an outside address as given"),
  price: z.number().nullable(),
  list_price: z.number().nullable(),
  discount: z.number().nullable(),
  currency: z.string(),
  deal_badge: z.string(),
  link: z.string(),
  coupon_code: z.string(),
  store: z.string().nullable(),
  category: z.string().nullable(),
  forum_category: z.string().nullable(),
  expires_at: nullableDateTime,
  expired: z.boolean(),
  status: z.string(),
  moderation_reason: z.string(),
  views: z.number().int(),
  likes: z.number().int(),
  unlikes: z.number().int(),
  comments: z.number().int(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});

const Comment = z.strictObject({
  id: z.number().int(),
  ...PostRef,
  reply_to: z.number().int().nullable().describe("the comment this one replies to"),
  body: z.string().describe("HTML, as written"),
  status: z.string(),
  created_at: isoDateTime,
  deleted_at: nullableDateTime,
});

const Followed = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  url: link,
  followed_at: isoDateTime,
});

const Alert = z.strictObject({
  id: z.number().int(),
  keywords: z.string(),
  stores: z.array(z.string()),
  category: z.string().nullable(),
  max_price: z.number().nullable(),
  min_discount: z.number().nullable(),
  only_hot: z.boolean(),
  delivery: z.string(),
  digest_hour: z.number().int(),
  paused: z.boolean(),
  last_mailed_at: nullableDateTime,
  created_at: isoDateTime,
  updated_at: isoDateTime,
});

export const MyDataResponse = z.strictObject({
  format: z.literal("chalkboard-deals-my-data/1").describe("this file's layout and its version"),
  exported_at: isoDateTime,
  site: link,
  profile: Profile,
  posts: z.array(Post),
  comments: z.array(Comment),
  votes: z.strictObject({
    likes: z.array(
      z.strictObject({
        ...PostRef,
        reaction: z.enum(["like", "unlike"]),
        reason: z.enum(COLD_REASONS).nullable().describe("why a cold vote (record 0086)"),
        weight: z
          .number()
          .int()
          .describe(
            "how many votes it counts for in the temperature, by the level it was cast at (record 0090)",
          ),
        created_at: isoDateTime,
        network: z
          .string()
          .nullable()
          .describe("a label of the network the vote came from, not the address (record 0091)"),
      }),
    ),
    comment_likes: z
      .array(z.strictObject({ ...PostRef, comment_id: z.number().int(), created_at: isoDateTime }))
      .describe("the comments the member likes (record 0092)"),
    expired_marks: z.array(z.strictObject({ ...PostRef, created_at: isoDateTime })),
    coupon_answers: z.array(
      z.strictObject({ ...PostRef, worked: z.boolean(), answered_at: isoDateTime }),
    ),
  }),
  reports: z.array(
    z.strictObject({
      id: z.number().int(),
      item_type: z.string(),
      item_id: z.string(),
      reason: z.string(),
      note: z.string(),
      status: z.string(),
      created_at: isoDateTime,
      resolved_at: nullableDateTime,
    }),
  ),
  saved_deals: z.array(z.strictObject({ ...PostRef, saved_at: isoDateTime })),
  follows: z.strictObject({
    members: z.array(Followed),
    stores: z.array(Followed),
    categories: z.array(Followed),
  }),
  alerts: z.array(Alert),
  notifications: z.array(
    z.strictObject({
      id: z.number().int(),
      kind: z.string(),
      message: z.string(),
      link,
      read_at: nullableDateTime,
      mailed_at: nullableDateTime,
      created_at: isoDateTime,
    }),
  ),
  push_devices: z
    .array(
      z.strictObject({
        id: z.number().int(),
        device: z.string().describe("the browser and system its User-Agent named"),
        endpoint: z.string().describe("the push service's address for that browser"),
        created_at: isoDateTime,
        last_used_at: nullableDateTime,
      }),
    )
    .describe("the devices that get push notifications (record 0109)"),
  push_messages: z
    .array(
      z.strictObject({
        id: z.number().int(),
        kind: z.string(),
        title: z.string(),
        body: z.string(),
        link,
        delivered_to: z.number().int().describe("how many of the member's devices it reached"),
        created_at: isoDateTime,
      }),
    )
    .describe("push notifications of the last 30 days (record 0109)"),
  email_preferences: z.record(z.string(), z.boolean()),
  weekly_digests: z
    .array(
      z.strictObject({
        week: z.string().describe("YYYY-MM-DD: the day the digest was due"),
        mailed: z.boolean().describe("false: nothing new that week, so no mail"),
        created_at: isoDateTime,
        deals: z.array(z.strictObject(PostRef)),
      }),
    )
    .describe("the weekly digests, one per week it was due (record 0087)"),
  sessions: z.array(
    z.strictObject({
      id: z.number().int(),
      user_agent: z.string(),
      created_at: isoDateTime,
      last_seen_at: isoDateTime,
      expires_at: isoDateTime,
      current: z.boolean().describe("the session this file was downloaded with"),
    }),
  ),
  uploaded_images: z.array(
    z.strictObject({
      url: link,
      mime: z.string(),
      width: z.number().int(),
      height: z.number().int(),
      bytes: z.number().int(),
      uploaded_at: isoDateTime,
    }),
  ),
  educator_requests: z.array(
    z.strictObject({
      id: z.number().int(),
      method: z.string(),
      school_email: z.string(),
      note: z.string(),
      status: z.string(),
      reason: z.string(),
      created_at: isoDateTime,
      decided_at: nullableDateTime,
    }),
  ),
  wishlist_submissions: z.array(
    z.strictObject({
      id: z.number().int(),
      first_name: z.string(),
      last_name: z.string(),
      school_location: z.string(),
      amazon_wishlist: z.string(),
      status: z.string(),
      review_reason: z.string(),
      created_at: isoDateTime,
    }),
  ),
  contact_messages: z.array(
    z.strictObject({
      id: z.number().int(),
      name: z.string(),
      email: z.string(),
      mobile: z.string(),
      website: z.string(),
      category: z.string(),
      subject: z.string(),
      message: z.string(),
      item_link: z.string(),
      status: z.string(),
      created_at: isoDateTime,
      resolved_at: nullableDateTime,
      replies: z.array(z.strictObject({ body: z.string(), created_at: isoDateTime })),
    }),
  ),
  reputation: z
    .strictObject({
      points: z.number().int(),
      level: z.string(),
      computed_at: nullableDateTime.describe("when the reputation job last counted them"),
      badges: z.array(EarnedBadgeSchema),
      ledger: z.array(
        z.strictObject({
          kind: z.string(),
          points: z.number().int(),
          detail: z.string(),
          rule: z.string(),
          post_unique_id: z.string().nullable(),
          occurred_at: isoDateTime,
        }),
      ),
    })
    .describe("points, level, badges and what earned or cost points"),
  voting_restrictions: z
    .array(
      z.strictObject({
        kind: z.enum(["warning", "block"]),
        reason: z.string(),
        created_at: isoDateTime,
        ends_at: nullableDateTime.describe("a block's end; null on a warning"),
        lifted_at: nullableDateTime,
      }),
    )
    .describe("moderators' warnings about the member's votes, and voting blocks (record 0091)"),
});

export type MyData = z.input<typeof MyDataResponse>;
