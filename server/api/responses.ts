import { z } from "zod";
import { FreshnessSchema } from "./freshness-responses.ts";

/**
 * What each call of the JSON API answers on success, in the spec's field names and spellings
 * (section 7: `froum_list`, `recent_arr`, `deals_arr`, `selected_data`, `deal_data_pagination` …).
 * Objects are strict: a field a presenter sends that is not listed here fails the contract test
 * (tests/integration/api-contract.test.ts), and a listed field it misses fails the type check of
 * the route's handler. /api/docs shows these schemas.
 */

const TRUE = z.literal("true");
const isoDateTime = z.string().describe("ISO 8601 date and time");
const postType = z.enum(["d", "g"]).describe("d: deal, g: educator post");

const heat = z
  .enum(["cold", "mild", "warm", "hot"])
  .describe("cold below 0°, warm from 50°, hot from 100°");

/** The spec's "Deal card" (section 3), plus what a card needs to show its state. */
const dealCardFields = {
  id: z.number(),
  product_id: z.number(),
  unique_id: z.string(),
  slug: z.string(),
  post_type: postType,
  type: z.enum(["deal", "coupon", "discussion"]),
  title: z.string(),
  image_url: z.string(),
  price: z.number().nullable(),
  list_price: z.number().nullable(),
  discount: z.number().int().nullable(),
  currency: z.string(),
  deal_badge: z.string(),
  grab_deal_link: z.string(),
  coupon_id: z.number().nullable(),
  coupon_code: z.string(),
  expiry: isoDateTime.nullable(),
  is_expired: z.boolean(),
  is_featured: z.enum(["Featured", ""]),
  store_id: z.number().nullable(),
  store_title: z.string(),
  merchant_title: z.string(),
  store_slug: z.string(),
  category_id: z.number().nullable(),
  rating: z.number().int(),
  likes: z.number().int(),
  comments: z.number().int(),
  views: z.number().int(),
  user_id: z.number().nullable(),
  user_name: z.string(),
  user_by: z.string(),
  user_image: z.string(),
  created_at: isoDateTime,
  temperature: z
    .number()
    .int()
    .describe("degrees: 10 per like, -10 per unlike, damped votes left out (decision 0008)"),
  heat: heat,
  last_verified_at: isoDateTime.describe(
    "Not in the spec: when the deal was last seen to work: posted, confirmed by a member, a coupon that worked, or a link check",
  ),
  lowest_in_90d: z
    .boolean()
    .describe(
      "Not in the spec: the deal's price is the lowest of its product in the 90 days before it was posted, and no later deal of the product is cheaper (decision 0040)",
    ),
};

export const DealCardSchema = z.strictObject(dealCardFields);

const WishlistEntry = z.strictObject({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  school_location: z.string(),
  amazon_wishlist: z.string(),
});

const HomePagination = z.strictObject({
  current_page: z.number().int(),
  last_page: z.number().int(),
  total: z.number().int(),
  per_page: z.number().int(),
});

const ListPagination = z.strictObject({
  total: z.number().int(),
  per_page: z.number().int(),
  current_page: z.number().int(),
  last_page: z.number().int(),
});

const message = { status: TRUE, message: z.string() };

/** `{ status: 'true', message }`: calls whose success is a sentence. */
export const MessageResponse = z.strictObject(message);

/** `/change_password`: the spec's message, and the new session token for a bearer-token caller. */
export const ChangePasswordResponse = z.strictObject({
  ...message,
  token: z
    .string()
    .optional()
    .describe("the new session token (bearer-token callers; browsers get a new cookie)"),
});

// Site ------------------------------------------------------------------------------------------

export const HealthResponse = z
  .strictObject({ status: z.enum(["ok", "unavailable"]), database: z.enum(["up", "down"]) })
  .describe("Liveness; more fields describe the parts the server depends on");

export const GeneralSettingsResponse = z.strictObject({
  status: TRUE,
  general_setting: z.strictObject({
    Website_Name: z.string(),
    Website_Keywords: z.string(),
    Website_Description: z.string(),
  }),
  site_setting: z.array(z.strictObject({ Website_Logo: z.string(), Website_Name: z.string() })),
  footer_setting: z.array(
    z.strictObject({
      Playstore_URL: z.string(),
      App_Store_URL: z.string(),
      play_store_image: z.string(),
      app_store_image: z.string(),
      Copyright_Text: z.string(),
    }),
  ),
  educator_link: z.string(),
});

export const SocialResponse = z.strictObject({
  status: TRUE,
  data: z.array(
    z.strictObject({
      id: z.number(),
      name: z.string(),
      social_url: z.string(),
      social_image: z.string(),
    }),
  ),
});

export const CmsPageResponse = z.strictObject({
  status: TRUE,
  cms_page: z.array(
    z.strictObject({
      id: z.number(),
      slug: z.string(),
      title: z.string(),
      detail: z.string().describe("HTML written by the site owner"),
      updated_at: isoDateTime,
    }),
  ),
});

export const FeaturedStoresResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    featured_data_arr: z.array(
      z.strictObject({
        id: z.number(),
        slug: z.string(),
        title: z.string(),
        image_url: z.string(),
      }),
    ),
  }),
});

export const ForumsResponse = z.strictObject({
  status: TRUE,
  froum_list: z.array(
    z.strictObject({
      id: z.number(),
      title: z.string(),
      slug: z.string(),
      posts: z.number().int(),
      detail: z.string(),
      type: postType,
      path: z.string(),
    }),
  ),
});

// Home ------------------------------------------------------------------------------------------

export const HomeResponse = z.strictObject({
  status: TRUE,
  teachers_wishlist: z.array(WishlistEntry),
  trending_deals: z.strictObject({ deals_arr: z.array(DealCardSchema) }),
  recent_deals: z.strictObject({
    recent_arr: z.array(DealCardSchema),
    current_page: z.number().int(),
    last_page: z.number().int(),
    total: z.number().int(),
  }),
});

export const RecentPageResponse = z.strictObject({
  status: TRUE,
  recent_deals: z.array(DealCardSchema),
  recent_deals_pagination: HomePagination,
});

export const HomeFilterResponse = z.strictObject({
  status: TRUE,
  recent_deals_data: z.array(DealCardSchema),
  trending_deals_arr: z.array(DealCardSchema),
  pagination: HomePagination,
});

// Stores, categories and listings ---------------------------------------------------------------

const storeFields = {
  store_id: z.number(),
  id: z.number(),
  title: z.string(),
  slug: z.string(),
  link: z.string(),
  image_url: z.string(),
};
const categoryFields = {
  category_id: z.number(),
  id: z.number(),
  title: z.string(),
  slug: z.string(),
  image_url: z.string(),
};
const Store = z.strictObject(storeFields);
const Category = z.strictObject(categoryFields);

export const StoresResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ selected_data: z.array(Store) }),
});
export const CategoriesResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ selected_data: z.array(Category) }),
});
export const StoresPageResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ selected_data: z.array(Store), deal_data_pagination: ListPagination }),
});
export const CategoriesPageResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    selected_data: z.array(Category),
    deal_data_pagination: ListPagination,
  }),
});

const EducatorPost = z.strictObject({
  unique_id: z.string(),
  slug: z.string(),
  title: z.string(),
  image_url: z.string(),
  created_at: isoDateTime,
  is_featured: z.enum(["Featured", ""]),
  rating: z.number().int(),
  views: z.number().int(),
  comments: z.number().int(),
  user_id: z.number().nullable(),
  user_name: z.string(),
});

const priceFilter = z.array(z.strictObject({ min_price: z.number(), max_price: z.number() }));
const discountFilter = z.array(
  z.strictObject({ min_discount: z.number(), max_discount: z.number() }),
);

const listing = z.strictObject({
  deal_data: z.union([z.array(DealCardSchema), z.array(EducatorPost)]),
  deal_data_pagination: ListPagination,
  selected: z.array(
    z.union([
      z.strictObject({ ...storeFields, description: z.string() }),
      z.strictObject({ ...categoryFields, description: z.string() }),
    ]),
  ),
  price_filter: priceFilter,
  discount_filter: discountFilter,
  store_filter: z.array(
    z.strictObject({
      id: z.number(),
      title: z.string(),
      slug: z.string(),
      deal_count: z.number().int().nullable(),
    }),
  ),
});

export const ListingResponse = z.strictObject({ status: TRUE, response: listing });

/** `/filter`: the listing, with the slider bounds beside `response` too, as the spec lists them. */
export const FilterResponse = z.strictObject({
  status: TRUE,
  response: listing,
  price_filter: priceFilter,
  discount_filter: discountFilter,
});

// Posts and community ---------------------------------------------------------------------------

/** The state of an item that is not public, for the author and moderators who still see it. */
const ModerationBanner = z
  .strictObject({
    status: z.enum(["pending", "hidden", "removed"]),
    label: z
      .string()
      .describe("Waiting for review, Hidden pending review, Removed by a moderator…"),
    reason: z.string(),
  })
  .describe("only on an item that is not public, shown to its author and moderators");

const Comment = z.strictObject({
  id: z.number(),
  user_id: z.number().nullable(),
  user_name: z.string(),
  user_image: z.string(),
  user_verified_educator: z.boolean().describe("shows the Verified educator badge"),
  message: z.string().describe("sanitised HTML"),
  created_at: isoDateTime,
  comment_id: z.union([z.number(), z.literal("")]).describe("the parent comment, '' at the top"),
  product_id: z.number(),
  product_type: postType,
  is_deleted: z.boolean(),
  get comments_replies(): z.ZodArray<typeof Comment> {
    return z.array(Comment);
  },
  moderation: ModerationBanner.optional(),
});

const isLiked = z
  .union([z.literal(1), z.literal(2), z.literal(-1)])
  .describe("1 liked, 2 unliked, -1 neither");

/** One price of a product (record 0040): `POST /api/price_history` and the deal page. */
export const PricePoint = z.strictObject({
  price: z.number(),
  date: isoDateTime.describe("when the deal with this price was posted"),
  unique_id: z.string().describe("the deal that posted this price"),
});

const PriceHistory = z
  .strictObject({
    points: z.array(PricePoint).describe("every price of the deal's product, oldest first"),
    previous: PricePoint.nullable().describe("the product's price posted just before this deal"),
    lowest_in_90d: z.boolean(),
  })
  .describe("Not in the spec: the product's price history (decision 0040)");

const ProductDetails = z.strictObject({
  ...dealCardFields,
  user_verified_educator: z.boolean().describe("the author shows the Verified educator badge"),
  post_id: z.number(),
  description: z.string().describe("sanitised HTML"),
  description_text: z.string(),
  is_liked: isLiked,
  unlikes: z.number().int(),
  comments_count: z.number().int(),
  store: z.strictObject({ id: z.number(), title: z.string(), slug: z.string() }).nullable(),
  category: z.strictObject({ id: z.number(), title: z.string(), slug: z.string() }).nullable(),
  user: z.strictObject({ id: z.number(), name: z.string(), image: z.string() }).nullable(),
  path: z.string(),
  updated_at: isoDateTime,
  go_url: z
    .string()
    .describe(
      "Not in the spec: where GRAB DEAL leads, /go/{unique_id} (counts the click, then 302 to the link); '' when there is no link to follow",
    ),
  is_affiliate: z
    .boolean()
    .describe(
      "Not in the spec: the link is an affiliate link (its store has an affiliate template, or it carries a known affiliate parameter)",
    ),
  clean_link: z
    .string()
    .describe("Not in the spec: the link without tracking and affiliate parameters ('' if none)"),
});

export const ProductDetailsResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    product_details: ProductDetails,
    comments: z.array(Comment),
    comments_user_image: z.string(),
    moderation: ModerationBanner.optional(),
    related_deals: z
      .array(DealCardSchema)
      .describe(
        "Not in the spec: up to 6 live deals of the same store or category, newest hot first (empty for educator posts)",
      ),
    freshness: FreshnessSchema.nullable().describe("null for educator posts"),
    price_history: PriceHistory,
  }),
});

export const ReactionResponse = z.strictObject({
  ...message,
  is_liked: isLiked,
  likes: z.number().int(),
  unlikes: z.number().int(),
  temperature: z.number().int().describe("the post's temperature after the vote (degrees)"),
  heat,
});

/** `POST /api/my_reactions` (record 0009): the member's reactions to the cards on screen. */
export const MyReactionsResponse = z.strictObject({
  status: TRUE,
  reactions: z.array(
    z.strictObject({
      post_id: z.number(),
      is_liked: z.union([z.literal(1), z.literal(2)]).describe("1 liked, 2 unliked"),
    }),
  ),
  saved: z
    .array(z.number())
    .describe("Not in the spec: the post_ids asked about that the member has saved"),
});

export const CommentAddedResponse = z.strictObject({ ...message, comment: Comment });

// Submit Deals ----------------------------------------------------------------------------------

const Choice = z.strictObject({ id: z.number(), title: z.string() });

export const SubmitOptionsResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    forum_category_deal: z.array(Choice),
    store: z.array(Choice),
    category: z.array(Choice),
    forum_category_discussion: z.array(Choice),
  }),
});

export const CreatedPostResponse = z.strictObject({
  ...message,
  review_message: z
    .string()
    .optional()
    .describe("only when the post is held for review: what to tell its author"),
  response: z.strictObject({
    unique_id: z.string(),
    slug: z.string(),
    title: z.string(),
    type: postType,
    kind: z.enum(["deal", "coupon", "discussion"]),
    url: z.string(),
  }),
});

// Accounts --------------------------------------------------------------------------------------

const Account = z.strictObject({
  user_id: z.number(),
  name: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  token: z.string().optional().describe("the session token, for Authorization: Bearer"),
});

export const SignupResponse = z.strictObject({
  ...message,
  response: Account,
  confirmation_mail_sent: z.boolean(),
});

export const AccountResponse = z.strictObject({ ...message, response: Account });

/** The sign-in answer; `next` (the checked return path) only when the call sent one. */
export const SigninResponse = AccountResponse.extend({
  next: z.string().optional().describe("The return path, checked: a path on this site, else /"),
});

export const SocialSigninResponse = z.strictObject({
  ...message,
  data: Account,
  response: Account,
});

export const AccountDeletedResponse = z.strictObject({
  ...message,
  data: z.strictObject({ response: z.strictObject({ user_id: z.number() }) }),
});

// Profiles --------------------------------------------------------------------------------------

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

// Payments --------------------------------------------------------------------------------------

export const ClientSecretResponse = z.strictObject({ status: TRUE, client_secret: z.string() });

// Console: users (core/people/roles) -------------------------------------------------------------------

const ConsoleUser = z.strictObject({
  id: z.number(),
  name: z.string(),
  email: z.string().describe("'' for a deleted account"),
  role: z.enum(["member", "moderator", "admin"]),
  joined: isoDateTime,
  posts_count: z.number().int(),
  status: z.enum(["active", "suspended", "deleted"]),
  suspended_until: isoDateTime.nullable().describe("null: until lifted, or not suspended"),
  suspension_reason: z.string(),
  verified_educator: z.boolean(),
});

export const ConsoleUsersResponse = z.strictObject({
  status: TRUE,
  users: z.array(ConsoleUser),
  page: z.number().int(),
  last_page: z.number().int(),
  total: z.number().int(),
});

export const ConsoleUserResponse = z.strictObject({ ...message, user: ConsoleUser });

export const ConsoleUserDeletedResponse = z.strictObject({ ...message, user_id: z.number() });

// Console: settings and blocked link domains (core/settings) -----------------------------------

const ConsoleSettings = z.strictObject({
  settings: z.strictObject({
    website_name: z.string(),
    website_logo: z.string(),
    website_keywords: z.string(),
    website_description: z.string().describe("the default meta description"),
    educator_post_unique_id: z.string().describe("the navigation bar's Educators post"),
    copyright_text: z.string(),
    playstore_url: z.string(),
    app_store_url: z.string(),
    play_store_image: z.string(),
    app_store_image: z.string(),
    report_hide_threshold: z.number().int(),
    hold_new_user_posts: z.boolean(),
    hold_new_user_days: z.number().int(),
    expiry_mark_threshold: z
      .number()
      .int()
      .describe("distinct members whose Expired? marks expire a deal"),
  }),
  blocked_domains: z.array(
    z.strictObject({ domain: z.string(), added_at: isoDateTime, added_by: z.string() }),
  ),
});

export const ConsoleSettingsResponse = ConsoleSettings.extend({ status: TRUE });

export const ConsoleSettingsSavedResponse = ConsoleSettings.extend(message);

export const ConsoleSiteImageResponse = z.strictObject({
  ...message,
  field: z.enum(["website_logo", "play_store_image", "app_store_image"]),
  url: z.string().describe("'' when removed"),
});

export const ConsoleBlockedDomainResponse = ConsoleSettings.extend({
  ...message,
  domain: z.string(),
});

// Moderation and notifications (record 0031) ---------------------------------------------------

export const ReportSentResponse = MessageResponse;

const ReportedItemType = z.enum(["d", "g", "comment", "user"]);

const ReportGroup = z.strictObject({
  item_type: ReportedItemType,
  item_id: z.string().describe("the post's unique_id, the comment's id or the user's id"),
  title: z.string(),
  excerpt: z.string(),
  link: z.string().describe("the item's public address ('' when it no longer exists)"),
  item_status: z.enum([
    "active",
    "pending",
    "hidden",
    "removed",
    "deleted",
    "suspended",
    "missing",
  ]),
  author: z.strictObject({ id: z.number(), name: z.string() }).nullable(),
  reports: z.number().int().describe("open reports, one per member"),
  reasons: z.array(z.strictObject({ reason: z.string(), count: z.number().int() })),
  notes: z
    .array(
      z.strictObject({
        note: z.string(),
        reason: z.string(),
        reporter_name: z.string(),
        created_at: isoDateTime,
      }),
    )
    .describe("the newest notes, at most 3"),
  first_reported_at: isoDateTime,
  last_reported_at: isoDateTime,
});

const HeldPost = z.strictObject({
  unique_id: z.string(),
  post_type: postType,
  title: z.string(),
  excerpt: z.string(),
  link: z.string(),
  author: z.strictObject({ id: z.number(), name: z.string(), joined_at: z.string() }).nullable(),
  created_at: isoDateTime,
});

export const ReportQueueResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    items: z.array(ReportGroup),
    pagination: ListPagination,
    held_posts: z.array(HeldPost).describe("posts held for review, oldest first (at most 50)"),
    held_total: z.number().int(),
  }),
});

export const ModerateResponse = z.strictObject({
  ...message,
  response: z.strictObject({
    item_type: ReportedItemType,
    item_id: z.string(),
    status: z.enum(["active", "pending", "hidden", "removed"]),
  }),
});

const Notification = z.strictObject({
  id: z.number(),
  kind: z.string().describe("report_resolved, moderation…"),
  message: z.string(),
  link: z.string().describe("a site path, or ''"),
  is_read: z.boolean(),
  created_at: isoDateTime,
});

export const NotificationsResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    notifications: z.array(Notification),
    unread: z.number().int(),
    pagination: ListPagination,
  }),
});

export const NotificationsReadResponse = z.strictObject({
  ...message,
  unread: z.number().int(),
});

// Notifications, mail preferences (record 0044) ------------------------------------------------

const EmailKindEntry = z.strictObject({
  kind: z.enum([
    "comment_reply",
    "post_comment",
    "post_like",
    "new_follower",
    "moderation",
    "alert",
  ]),
  label: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  default_enabled: z.boolean(),
});

export const EmailPreferencesResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    kinds: z.array(EmailKindEntry).describe("every kind of member mail, on or off"),
  }),
});

export const EmailPreferencesSaveResponse = z.strictObject({
  ...message,
  response: z.strictObject({ kinds: z.array(EmailKindEntry) }),
});
