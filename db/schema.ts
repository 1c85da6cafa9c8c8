import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/** Kysely's view of db/migrations/*.sql. Keep in step with the migrations. */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;
/** numeric and int8 columns are parsed to numbers by db/index.ts. */
type Numeric = ColumnType<number | null, number | null | undefined, number | null>;
type DateOnly = ColumnType<string | null, string | null | undefined, string | null>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** jsonb: read parsed, written as JSON text (both drivers cast text to jsonb alike). */
type Json = ColumnType<unknown, string | null | undefined, never>;

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string | null;
  user_type: Defaulted<string>;
  image_url: string | null;
  dob: DateOnly;
  gender: "male" | "female" | null;
  biography: Defaulted<string>;
  mobile: Defaulted<string>;
  website: Defaulted<string>;
  address: Defaulted<string>;
  email_verified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  role: Defaulted<UserRole>;
  suspended_at: NullableTimestamp;
  /** Null with suspended_at set: suspended until lifted. */
  suspended_until: NullableTimestamp;
  suspension_reason: Defaulted<string>;
  verified_educator: Defaulted<boolean>;
}

export interface OauthAccountsTable {
  id: Generated<number>;
  user_id: number;
  provider: "google" | "facebook";
  provider_user_id: string;
  created_at: Generated<Date>;
}

/** Pending links of a provider identity to an existing account (migration 012). */
export interface OauthLinkRequestsTable {
  id: Generated<number>;
  user_id: number;
  provider: "google" | "facebook";
  provider_user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  user_agent: Defaulted<string>;
  created_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  expires_at: Timestamp;
}

/**
 * Failed sign-ins per normalised address, known or not (migration 029,
 * docs/decisions/0073-sign-in-guessing-limits.md).
 */
export interface SignInAttemptsTable {
  /** SHA-256 of the trimmed, lower-cased address. */
  address_hash: string;
  failures: number;
  last_failure_at: Timestamp;
  /** No attempt is checked before this (the delay after a few failures, or the lock). */
  retry_at: NullableTimestamp;
  /** When the member was told of the current lock by mail. */
  lock_mailed_at: NullableTimestamp;
}

export interface EmailTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: "confirm" | "reset" | "email_change";
  token_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Generated<Date>;
  /** The address an `email_change` code confirms (migration 032); null for the other purposes. */
  new_email: Generated<string | null>;
}

export interface FollowsTable {
  follower_id: number;
  followee_id: number;
  created_at: Generated<Date>;
}

export interface StoresTable {
  id: Generated<number>;
  title: string;
  slug: string;
  link: Defaulted<string>;
  image_url: Defaulted<string>;
  description: Defaulted<string>;
  created_at: Generated<Date>;
  /** "" or an http(s) address with {url}, where /go sends a store's deals (migration 019). */
  affiliate_template: Defaulted<string>;
}

export interface FeaturedStoresTable {
  id: Generated<number>;
  store_id: number;
  position: Defaulted<number>;
}

export interface CategoriesTable {
  id: Generated<number>;
  title: string;
  slug: string;
  image_url: Defaulted<string>;
  description: Defaulted<string>;
  created_at: Generated<Date>;
}

export interface ForumsTable {
  id: Generated<number>;
  title: string;
  slug: string;
  detail: Defaulted<string>;
  type: "g" | "d";
  position: Defaulted<number>;
}

export interface ForumCategoriesTable {
  id: Generated<number>;
  forum_id: number;
  kind: "deal" | "discussion";
  title: string;
  position: Defaulted<number>;
}

export type PostType = "d" | "g";
export type PostKind = "deal" | "coupon" | "discussion";
/** Only "active" is public; "pending" is held for review, "hidden" awaits a moderator (migration 013). */
export type PostStatus = "active" | "pending" | "hidden" | "removed";
export type UserRole = "member" | "moderator" | "admin";
export type CommentStatus = "active" | "hidden" | "removed";
export type ReportItemType = "d" | "g" | "comment" | "user";
/** Why a cold vote (migration 034's CHECK); the list and its labels: core/posts/reactions/cold-reasons.ts. */
export type ColdReason =
  "expired" | "not_a_deal" | "cheaper_elsewhere" | "repost" | "spam" | "wrong_price";
export type ReportReason =
  | "spam"
  | "expired"
  | "wrong price"
  | "offensive"
  | "duplicate"
  | "other"
  /** Filed by the site's serial-voting job only (migration 038). */
  | "serial voting";

export interface PostsTable {
  id: Generated<number>;
  unique_id: string;
  slug: string;
  post_type: PostType;
  kind: PostKind;
  user_id: number | null;
  forum_category_id: number | null;
  store_id: number | null;
  category_id: number | null;
  title: string;
  description: Defaulted<string>;
  description_text: Defaulted<string>;
  image_url: Defaulted<string>;
  price: Numeric;
  list_price: Numeric;
  discount: number | null;
  currency: Defaulted<string>;
  deal_badge: Defaulted<string>;
  link: Defaulted<string>;
  link_key: Defaulted<string>;
  coupon_code: Defaulted<string>;
  expires_at: NullableTimestamp;
  is_featured: Defaulted<boolean>;
  status: Defaulted<PostStatus>;
  views: Defaulted<number>;
  likes_count: Defaulted<number>;
  unlikes_count: Defaulted<number>;
  comments_count: Defaulted<number>;
  hot_score: Defaulted<number>;
  moderation_reason: Defaulted<string>;
  /** Reactions that do not count in hot_score: beyond 2 per voter address (migration 011). */
  damped_likes: Defaulted<number>;
  damped_unlikes: Defaulted<number>;
  /** Of the unlikes that count (not damped), those without a reason (migration 034's trigger). */
  unreasoned_unlikes: Defaulted<number>;
  /**
   * What the votes' weights add to the temperature beyond one vote each, in half votes, counting
   * only votes that are not damped (migration 037's trigger).
   */
  weight_bonus: Defaulted<number>;
  search: ColumnType<string | null, never, never>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the deal was last seen to work, and by what (migration 018): set at posting by a trigger. */
  last_verified_at: Timestamp;
  last_verified_by: Defaulted<VerifiedBy>;
  /** The product the deal is grouped in (migration 020); null: a product of its own. */
  product_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** "Lowest price in 90 days" holds (set by migration 020's trigger at write time). */
  lowest_in_90d: Defaulted<boolean>;
  /** The deal has ended: kept from expires_at by the minute sweep, or set by marks (migration 017). */
  expired: Defaulted<boolean>;
}

export interface PostViewsTable {
  post_id: number;
  visitor_key: string;
  day: string;
}

export interface LikesTable {
  user_id: number;
  post_id: number;
  reaction: "like" | "unlike";
  /** HMAC of the voter's address with the day's salt; null for older likes (migration 011). */
  voter_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** Why a cold vote: one of COLD_REASONS (core/posts/reactions/cold-reasons.ts); null on a like. */
  reason: ColumnType<ColdReason | null, ColdReason | null | undefined, ColdReason | null>;
  /** The weight the vote was cast with, by the voter's level then (migration 037): 1 to 3. */
  weight: Defaulted<number>;
  created_at: Generated<Date>;
  /** A label of the voter's network, not the address (migration 038); null for older votes. */
  voter_network: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Staff's warnings and voting blocks (migration 038, docs/decisions/0091-vote-integrity.md). */
export interface VotingRestrictionsTable {
  id: Generated<number>;
  user_id: number;
  kind: "warning" | "block";
  reason: string;
  created_at: Generated<Date>;
  /** A block's end; null on a warning. */
  ends_at: NullableTimestamp;
  lifted_at: NullableTimestamp;
}

/** One random salt per UTC day for likes.voter_key; older days' salts are deleted. */
export interface VoteSaltsTable {
  day: string;
  salt: string;
}

export interface CommentsTable {
  id: Generated<number>;
  post_id: number;
  user_id: number | null;
  parent_id: number | null;
  body: string;
  created_at: Timestamp;
  deleted_at: NullableTimestamp;
  status: Defaulted<CommentStatus>;
  /** Likes on the comment, kept exact by migration 039's trigger. */
  likes_count: Defaulted<number>;
  /** When a like on it was last given or taken back (the reputation job's changed members). */
  likes_changed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** A member's like on a comment (migration 039): one per member and comment. */
export interface CommentLikesTable {
  comment_id: number;
  user_id: number;
  created_at: Generated<Date>;
}

export interface TeachersWishlistTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  school_location: string;
  amazon_wishlist: string;
  position: Defaulted<number>;
  created_at: Generated<Date>;
  /** Only approved entries are public; a verified educator's own entry waits (migration 021). */
  status: Defaulted<WishlistStatus>;
  /** The verified educator who submitted the entry; null for the console's own entries. */
  user_id: ColumnType<number | null, number | null | undefined, number | null>;
  review_reason: Defaulted<string>;
}

export interface GeneralSettingsTable {
  id: Defaulted<number>;
  website_name: Defaulted<string>;
  website_logo: Defaulted<string>;
  website_keywords: Defaulted<string>;
  website_description: Defaulted<string>;
  educator_post_unique_id: Defaulted<string>;
  updated_at: Generated<Date>;
  report_hide_threshold: Defaulted<number>;
  hold_new_user_posts: Defaulted<boolean>;
  hold_new_user_days: Defaulted<number>;
  /** Distinct members whose "Expired?" marks expire a deal (migration 017). */
  expiry_mark_threshold: Defaulted<number>;
  /** When the weekly digest goes out: 0 Sunday … 6 Saturday, and the hour, UTC (migration 035). */
  digest_weekday: Defaulted<number>;
  digest_hour: Defaulted<number>;
  /** Newcomers' links (migration 036, docs/decisions/0089-newcomer-links.md). */
  newcomer_link_posts: Defaulted<number>;
  newcomer_until_level: Defaulted<string>;
  newcomer_link_cap: Defaulted<number>;
  /** The installed app's colours, lower-case #rrggbb (migration 041, record 0108). */
  app_theme_color: Defaulted<string>;
  app_background_color: Defaulted<string>;
}

export interface FooterSettingsTable {
  id: Generated<number>;
  playstore_url: Defaulted<string>;
  app_store_url: Defaulted<string>;
  play_store_image: Defaulted<string>;
  app_store_image: Defaulted<string>;
  copyright_text: Defaulted<string>;
  updated_at: Generated<Date>;
}

export interface SocialLinksTable {
  id: Generated<number>;
  name: string;
  social_url: string;
  social_image: string;
  position: Defaulted<number>;
}

export interface CmsPagesTable {
  id: Generated<number>;
  slug: string;
  title: string;
  detail: string;
  updated_at: Generated<Date>;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  category: string;
  subject: string;
  email: string;
  mobile: string;
  website: Defaulted<string>;
  message: Defaulted<string>;
  user_id: number | null;
  created_at: Generated<Date>;
  status: Defaulted<"open" | "resolved">;
  resolved_at: NullableTimestamp;
  /** A link to the reported item, where the message names one. */
  item_link: Defaulted<string>;
}

export interface ReportsTable {
  id: Generated<number>;
  item_type: ReportItemType;
  /** The post's unique_id, the comment's id or the user's id, as text. */
  item_id: string;
  /** null: the site itself reported it (the link check, migration 018). */
  reporter_id: number | null;
  reason: ReportReason;
  note: Defaulted<string>;
  status: Defaulted<"open" | "resolved">;
  resolution: Defaulted<string>;
  resolved_by: number | null;
  resolved_at: NullableTimestamp;
  created_at: Generated<Date>;
  /** What the site found (migration 038): one open report of the site's per item, reason and finding. */
  finding: Defaulted<string>;
}

/** Append-only (a trigger refuses updates and deletes). */
export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  actor_name: Defaulted<string>;
  action: string;
  item_type: Defaulted<string>;
  item_id: Defaulted<string>;
  reason: Defaulted<string>;
  before: Json;
  after: Json;
  created_at: Generated<Date>;
}

export interface BlockedDomainsTable {
  domain: string;
  created_by: number | null;
  created_at: Generated<Date>;
}

export interface SlugRedirectsTable {
  /** "page": a CMS page (migration 014). */
  kind: "store" | "category" | "page";
  old_slug: string;
  target_id: number;
  created_at: Generated<Date>;
}

/** A reply mailed from the console to a contact message's sender (migration 014). */
export interface ContactRepliesTable {
  id: Generated<number>;
  message_id: number;
  author_id: number | null;
  author_name: Defaulted<string>;
  body: string;
  created_at: Generated<Date>;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  message: string;
  link: Defaulted<string>;
  read_at: NullableTimestamp;
  created_at: Generated<Date>;
  /** Migration 024: the group a notification collapses into (likes of one post), or null. */
  group_key: string | null;
  /** Migration 024: who acted, newest first (bigint[]: read as numbers or strings). */
  actor_ids: ColumnType<(number | string)[], number[] | undefined, number[]>;
  /** Migration 024: the mail job has dealt with it (mailed, or its kind is off). */
  mailed_at: NullableTimestamp;
}

export interface SubscriptionPlansTable {
  id: Generated<number>;
  name: string;
  description: Defaulted<string>;
  price_cents: number;
  currency: Defaulted<string>;
  interval: Defaulted<string>;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  plan_id: number;
  status: Defaulted<string>;
  start_date: DateOnly;
  end_date: DateOnly;
  stripe_customer_id: Defaulted<string>;
  stripe_subscription_id: Defaulted<string>;
  created_at: Generated<Date>;
}

export interface MediaTable {
  id: Generated<number>;
  user_id: number | null;
  path: string;
  mime: string;
  width: number;
  height: number;
  bytes: number;
  created_at: Generated<Date>;
}

/** Words of deal, store and category titles, for correcting misspelt searches (migration 003). */
export interface SearchTermsTable {
  term: string;
}

/** Clicks through /go of one post on one UTC day; nothing about who clicked (migration 019). */
export interface PostLinkClicksTable {
  post_id: number;
  day: string;
  clicks: Defaulted<number>;
}

/** Clicks through /go on one store's deals on one UTC day (migration 019). */
export interface StoreLinkClicksTable {
  store_id: number;
  day: string;
  clicks: Defaulted<number>;
}

/** Who last saw a deal work (migration 018). */
export type VerifiedBy = "posted" | "member" | "coupon" | "link_check";
export type LinkCheckOutcome = "ok" | "not_found" | "redirected_home" | "blocked" | "failed";

/** Worked / Didn't work on a coupon deal: one answer per member and deal (migration 018). */
export interface CouponFeedbackTable {
  post_id: number;
  user_id: number;
  worked: boolean;
  answered_at: Date;
}

/** How many active posts each listing scope holds, kept by triggers (migration 022). */
export interface PostScopeCountsTable {
  /** core/cards/deal-scope.ts scopeKey: 'type:d', 'store:12:live', … */
  scope: string;
  total: number;
}

/** The link check's last result per deal (migration 018). */
export interface LinkChecksTable {
  post_id: number;
  checked_at: Date;
  http_status: number | null;
  outcome: LinkCheckOutcome;
  final_url: Defaulted<string>;
  detail: Defaulted<string>;
}

export type WishlistStatus = "pending" | "approved" | "rejected";
export type EducatorRequestMethod = "school_email" | "review";
export type EducatorRequestStatus = "pending" | "approved" | "rejected" | "expired" | "withdrawn";

/** Domains counted as school or district addresses besides .edu and k12.<state>.us (migration 021). */
export interface SchoolDomainsTable {
  domain: string;
  created_by: number | null;
  created_at: Generated<Date>;
}

/** A member's request to be marked a verified educator (migration 021). */
export interface EducatorRequestsTable {
  id: Generated<number>;
  user_id: number;
  method: EducatorRequestMethod;
  school_email: Defaulted<string>;
  note: Defaulted<string>;
  status: Defaulted<EducatorRequestStatus>;
  token_hash: string | null;
  token_expires_at: NullableTimestamp;
  decided_by: number | null;
  decided_at: NullableTimestamp;
  reason: Defaulted<string>;
  created_at: Generated<Date>;
}

/** Deals of one product, for price history (migration 020). */
export interface ProductsTable {
  id: Generated<number>;
  link_key: string | null;
  merged_into: number | null;
  created_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  oauth_accounts: OauthAccountsTable;
  oauth_link_requests: OauthLinkRequestsTable;
  sessions: SessionsTable;
  email_tokens: EmailTokensTable;
  sign_in_attempts: SignInAttemptsTable;
  follows: FollowsTable;
  stores: StoresTable;
  featured_stores: FeaturedStoresTable;
  categories: CategoriesTable;
  forums: ForumsTable;
  forum_categories: ForumCategoriesTable;
  posts: PostsTable;
  post_views: PostViewsTable;
  likes: LikesTable;
  vote_salts: VoteSaltsTable;
  comments: CommentsTable;
  comment_likes: CommentLikesTable;
  teachers_wishlist: TeachersWishlistTable;
  general_settings: GeneralSettingsTable;
  footer_settings: FooterSettingsTable;
  social_links: SocialLinksTable;
  cms_pages: CmsPagesTable;
  contact_messages: ContactMessagesTable;
  subscription_plans: SubscriptionPlansTable;
  subscriptions: SubscriptionsTable;
  media: MediaTable;
  search_terms: SearchTermsTable;
  reports: ReportsTable;
  audit_log: AuditLogTable;
  blocked_domains: BlockedDomainsTable;
  slug_redirects: SlugRedirectsTable;
  notifications: NotificationsTable;
  contact_replies: ContactRepliesTable;
  post_link_clicks: PostLinkClicksTable;
  store_link_clicks: StoreLinkClicksTable;
  coupon_feedback: CouponFeedbackTable;
  link_checks: LinkChecksTable;
  school_domains: SchoolDomainsTable;
  educator_requests: EducatorRequestsTable;
  products: ProductsTable;
  expiry_marks: ExpiryMarksTable;
  post_scope_counts: PostScopeCountsTable;
  saved_deals: SavedDealsTable;
  store_follows: StoreFollowsTable;
  category_follows: CategoryFollowsTable;
  email_preferences: EmailPreferencesTable;
  notification_mail_log: NotificationMailLogTable;
  site_secrets: SiteSecretsTable;
  alerts: AlertsTable;
  alert_matches: AlertMatchesTable;
  undeliverable_addresses: UndeliverableAddressesTable;
  mail_daily_counts: MailDailyCountsTable;
  weekly_digests: WeeklyDigestsTable;
  reputation_post_peaks: ReputationPostPeaksTable;
  member_reputation: MemberReputationTable;
  reputation_ledger: ReputationLedgerTable;
  member_badges: MemberBadgesTable;
  voting_restrictions: VotingRestrictionsTable;
  reputation_settings: ReputationSettingsTable;
  reputation_runs: ReputationRunsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_messages: PushMessagesTable;
  push_deliveries: PushDeliveriesTable;
  push_timings: PushTimingsTable;
}

/** A member's browser that agreed to push (migration 040, docs/decisions/0109-push-alerts.md). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  device_label: Defaulted<string>;
  created_at: Generated<Date>;
  last_used_at: NullableTimestamp;
}

export type PushUrgency = "very-low" | "low" | "normal" | "high";

/** One push for one member, sent to each of their subscriptions by the push.send job. */
export interface PushMessagesTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  title: string;
  body: string;
  url: string;
  tag: string;
  urgency: PushUrgency;
  ttl_seconds: number;
  public_at: NullableTimestamp;
  created_at: Generated<Date>;
}

/** Which subscriptions a push message reached. */
export interface PushDeliveriesTable {
  message_id: number;
  subscription_id: number;
  sent_at: Generated<Date>;
}

/** How long after its deal became public each alert push left (the alerts page's figure). */
export interface PushTimingsTable {
  sent_at: Generated<Date>;
  seconds: number;
}

/** The highest temperature the reputation job has seen a post at (migration 033). */
export interface ReputationPostPeaksTable {
  post_id: number;
  peak_degrees: number;
  peak_at: Date;
  hot_at: Date | null;
}

/** A member's points, level and badge numbers, kept by the reputation job (migration 033). */
export interface MemberReputationTable {
  user_id: number;
  points: Defaulted<number>;
  level: Defaulted<string>;
  hot_deals: Defaulted<number>;
  scorching_deals: Defaulted<number>;
  working_coupon_reports: Defaulted<number>;
  computed_at: Date;
}

/** What earned or cost a member points (migration 033; kinds in core/people/reputation/rules.ts). */
export interface ReputationLedgerTable {
  id: Generated<string>;
  user_id: number;
  kind: "heat" | "hot" | "comment_likes" | "working_coupon" | "removed";
  post_id: number | null;
  points: number;
  detail: Defaulted<string>;
  occurred_at: Date;
}

/** A badge a member earned (migration 033). */
export interface MemberBadgesTable {
  user_id: number;
  badge_key: string;
  earned_at: Date;
}

/** When the reputation job last ran, and last recomputed every member (migration 033): one row. */
export interface ReputationRunsTable {
  id: Defaulted<number>;
  run_at: Date | null;
  full_run_at: Date | null;
}

/** The points at which each level begins (migration 033): one row. */
export interface ReputationSettingsTable {
  id: Defaulted<number>;
  member_points: Defaulted<number>;
  regular_points: Defaulted<number>;
  trusted_points: Defaulted<number>;
  updated_at: Generated<Date>;
}

/** A member's weekly digest of one scheduled send, mailed or not (migration 035). */
export interface WeeklyDigestsTable {
  user_id: number;
  /** YYYY-MM-DD: the UTC date the send was due. */
  week: ColumnType<string, string, never>;
  /** The deals it listed (bigint[]: read as text, numbered by its repository). */
  post_ids: ColumnType<(number | string)[], number[] | undefined, number[]>;
  mailed: boolean;
  created_at: Date;
}

/** An address that refused mail for good; no mail goes to it until staff clear it (migration 031). */
export interface UndeliverableAddressesTable {
  /** The address in lower case. */
  address: string;
  /** The receiving server's answer, or why the mail was given up. */
  reason: string;
  failed_at: Date;
}

/** Mail sent, failed and suppressed per UTC day (migration 031). */
export interface MailDailyCountsTable {
  /** YYYY-MM-DD, UTC. */
  day: ColumnType<string, string, never>;
  sent: Defaulted<number>;
  failed: Defaulted<number>;
  suppressed: Defaulted<number>;
}

/** A member's "Expired?" mark on a deal (migration 017). */
export interface ExpiryMarksTable {
  post_id: number;
  user_id: number;
  created_at: Generated<Date>;
}

/** A member's saved deal (migration 023). */
export interface SavedDealsTable {
  user_id: number;
  post_id: number;
  created_at: Generated<Date>;
}

/** A member follows a store (migration 023). */
export interface StoreFollowsTable {
  user_id: number;
  store_id: number;
  created_at: Generated<Date>;
}

/** A member follows a category (migration 023). */
export interface CategoryFollowsTable {
  user_id: number;
  category_id: number;
  created_at: Generated<Date>;
}

/** A member's keyword alert (migration 025, docs/decisions/0045-alert-matching.md). */
export interface AlertsTable {
  id: Generated<number>;
  user_id: number;
  keywords: Defaulted<string>;
  /** A tsquery, read as its text; written through SQL (core/member/alerts/repository.ts). */
  query: string | null;
  lexemes: Defaulted<string[]>;
  store_ids: Defaulted<number[]>;
  category_id: number | null;
  max_price: Numeric;
  min_discount: number | null;
  only_hot: Defaulted<boolean>;
  delivery: "instant" | "daily" | "site";
  digest_hour: Defaulted<number>;
  paused: Defaulted<boolean>;
  rss_token_hash: string;
  last_mailed_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** One deal an alert matched (migration 025). */
export interface AlertMatchesTable {
  alert_id: number;
  post_id: number;
  matched_at: Date;
  mailed_at: NullableTimestamp;
}

export type User = Selectable<UsersTable>;
export type Post = Selectable<PostsTable>;
export type NewPost = Insertable<PostsTable>;
export type PostUpdate = Updateable<PostsTable>;
export type Store = Selectable<StoresTable>;
export type Category = Selectable<CategoriesTable>;
export type Comment = Selectable<CommentsTable>;

// Notification mails and unsubscribe (migration 024) -------------------------------------------

export interface EmailPreferencesTable {
  user_id: number;
  kind: string;
  enabled: boolean;
  updated_at: Generated<Date>;
}

export interface NotificationMailLogTable {
  user_id: number;
  kind: string;
  last_sent_at: Timestamp;
}

export interface SiteSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}
