import { AdminAuditResponse } from "./audit/responses.ts";
import { OfflineSavedDealsResponse } from "./app-install/responses.ts";
import {
  ReputationLedgerResponse,
  ReputationLevelsResponse,
  ReputationLevelsSavedResponse,
  TopContributorsResponse,
} from "./people/reputation/responses.ts";
import {
  ReputationLedgerBody,
  ReputationLevelsBody,
  TopContributorsBody,
} from "./people/reputation/schema.ts";
import { AuditQuery } from "./audit/schema.ts";
import {
  CatalogDeleteBody,
  CategoryCreateBody,
  CategoryUpdateBody,
  StoreCreateBody,
  StoreUpdateBody,
} from "./catalog/console-schema.ts";
import {
  CatalogListResponse,
  CatalogSavedResponse,
  CategoriesPageResponse,
  CategoriesResponse,
  MovedAndDeletedResponse,
  StoresPageResponse,
  StoresResponse,
} from "./catalog/responses.ts";
import {
  FeaturedMoveBody,
  FeaturedStoreBody,
  IdBody,
  MoveBody,
  PageCreateBody,
  PageUpdateBody,
  WishlistCreateBody,
  WishlistUpdateBody,
} from "./cms/console-schema.ts";
import {
  CmsPageResponse,
  FeaturedListResponse,
  FeaturedStoresResponse,
  PageSavedResponse,
  PagesListResponse,
  WishlistListResponse,
  WishlistSavedResponse,
} from "./cms/responses.ts";
import { CmsPageBody } from "./cms/schema.ts";
import { AdminDashboardResponse } from "./console/dashboard/responses.ts";
import { ContactMessageIdBody, ContactReplyBody } from "./contact/console-schema.ts";
import { ContactMessageResponse, ContactMessagesResponse } from "./contact/responses.ts";
import { ContactBody } from "./contact/schema.ts";
import {
  ForumCategoryCreateBody,
  ForumCategoryDeleteBody,
  ForumCategoryUpdateBody,
  ForumCreateBody,
  ForumIdBody,
  ForumMoveBody,
  ForumUpdateBody,
} from "./forums/console-schema.ts";
import {
  ForumCategorySavedResponse,
  ForumSavedResponse,
  ForumsConsoleResponse,
  ForumsResponse,
} from "./forums/responses.ts";
import { UndeliverableClearBody, UndeliverableQuery } from "./mail/console/schema.ts";
import {
  MailSummaryResponse,
  UndeliverableClearedResponse,
  UndeliverableListResponse,
} from "./mail/console/responses.ts";
import { HomeFilterResponse, HomeResponse, RecentPageResponse } from "./home/responses.ts";
import { HomeFilterBody } from "./home/schema.ts";
import { PageBody } from "./list-query.ts";
import { FilterResponse, ListingResponse } from "./listings/responses.ts";
import { CategoryPageBody, FilterBody } from "./listings/schema.ts";
import {
  AlertPreviewResponse,
  AlertRssResponse,
  AlertSavedResponse,
  AlertsResponse,
} from "./member/alerts/responses.ts";
import {
  AlertIdBody,
  AlertListBody,
  AlertPreviewBody,
  AlertSaveBody,
} from "./member/alerts/schema.ts";
import { FollowToggleResponse } from "./member/follows/responses.ts";
import { MyDataResponse } from "./people/my-data/responses.ts";
import { PushKeyResponse, PushSubscriptionResponse } from "./member/push/responses.ts";
import { PushSubscribeBody, PushUnsubscribeBody } from "./member/push/schema.ts";
import { FollowToggleBody, MemberFollowBody, MyFeedBody } from "./member/follows/schema.ts";
import {
  EmailPreferencesResponse,
  EmailPreferencesSaveResponse,
  NotificationsReadResponse,
  NotificationsResponse,
} from "./member/notifications/responses.ts";
import {
  EmailPreferencesSaveBody,
  MarkReadBody,
  NotificationsPage,
} from "./member/notifications/schema.ts";
import { SaveToggleResponse } from "./member/saved/responses.ts";
import { SaveDealToggleBody, SavedDealsBody } from "./member/saved/schema.ts";
import {
  ModerateResponse,
  ReportQueueResponse,
  ReportSentResponse,
} from "./moderation/responses.ts";
import { ModerateBody, QueuePage, ReportBody } from "./moderation/schema.ts";
import { ClientSecretResponse } from "./payments/responses.ts";
import {
  AccountDeletedResponse,
  AccountResponse,
  ChangePasswordResponse,
  EmailChangedResponse,
  SigninResponse,
  SignupResponse,
  SocialSigninResponse,
} from "./people/accounts/responses.ts";
import {
  ActingUserBody,
  DeleteAccountBody,
  ChangePasswordSchema,
  ConfirmEmailChangeSchema,
  EmailChangeSchema,
  ForgotPasswordSchema,
  ResendConfirmationSchema,
  ResetPasswordSchema,
  SigninRequestSchema,
  SignupSchema,
  SocialSigninSchema,
  VerifySchema,
} from "./people/accounts/schema.ts";
import {
  EducatorConsoleResponse,
  EducatorMessageResponse,
  EducatorStatusResponse,
  OwnWishlistResponse,
  OwnWishlistSavedResponse,
  PendingWishlistResponse,
  SchoolDomainsResponse,
} from "./people/educators/responses.ts";
import {
  ApproveRequestBody,
  ConfirmEducatorBody,
  OwnWishlistBody,
  RejectBody,
  ReviewRequestBody,
  SchoolDomainBody,
  SchoolEmailBody,
} from "./people/educators/schema.ts";
import {
  DashboardResponse,
  FollowResponse,
  OwnProfileResponse,
  ProfileUpdatedResponse,
  PublicProfileResponse,
} from "./people/profiles/responses.ts";
import {
  OwnProfileSchema,
  ProfileUpdateSchema,
  PublicProfileSchema,
} from "./people/profiles/schema.ts";
import {
  ConsoleUserDeletedResponse,
  ConsoleUserResponse,
  ConsoleUsersResponse,
} from "./people/roles/responses.ts";
import {
  ChangeRoleBody,
  DeleteUserBody,
  SuspendBody,
  UnsuspendBody,
  UsersQuery,
  VerifiedEducatorBody,
} from "./people/roles/schema.ts";
import {
  CommentBulkBody,
  CommentDeleteBody,
  CommentListQuery,
} from "./posts/comments/console-schema.ts";
import {
  AdminCommentsActionResponse,
  AdminCommentsResponse,
  CommentAddedResponse,
} from "./posts/comments/responses.ts";
import { AddCommentSchema } from "./posts/comments/schema.ts";
import { CommentLikeResponse } from "./posts/comments/likes/responses.ts";
import { CommentLikeSchema } from "./posts/comments/likes/schema.ts";
import {
  PostBulkBody,
  PostDeleteBody,
  PostListQuery,
  PostUpdateBody,
} from "./posts/console-schema.ts";
import { ExpiryStatusResponse } from "./posts/expiry/responses.ts";
import { MarkExpiredBody, ReopenDealBody } from "./posts/expiry/schema.ts";
import { FreshnessAnswerResponse } from "./posts/freshness/responses.ts";
import { ConfirmDealBody, CouponFeedbackBody } from "./posts/freshness/schema.ts";
import { MergedResponse, PriceHistoryResponse } from "./posts/prices/responses.ts";
import { MergeProductBody, PriceHistoryBody } from "./posts/prices/schema.ts";
import { MyReactionsResponse, ReactionResponse } from "./posts/reactions/responses.ts";
import { LikeSchema, MyReactionsSchema } from "./posts/reactions/schema.ts";
import {
  AdminPostUpdatedResponse,
  AdminPostsBulkResponse,
  AdminPostsResponse,
  ProductDetailsResponse,
} from "./posts/responses.ts";
import { ProductDetailsBody } from "./posts/schema.ts";
import { CreatedPostResponse, SubmitOptionsResponse } from "./posts/submissions/responses.ts";
import { DealSchema, DiscussionSchema } from "./posts/submissions/schema.ts";
import { LinkPreviewResponse } from "./posts/link-preview/responses.ts";
import { LinkPreviewBody } from "./posts/link-preview/schema.ts";
import { HealthResponse } from "./responses.ts";
import {
  ConsoleBlockedDomainResponse,
  ConsoleSettingsResponse,
  ConsoleSettingsSavedResponse,
  ConsoleSiteImageResponse,
  GeneralSettingsResponse,
  SocialLinkSavedResponse,
  SocialLinksListResponse,
  SocialResponse,
} from "./settings/responses.ts";
import { BlockedDomainBody, SettingsBody, SiteImageBody } from "./settings/schema.ts";
import { DigestScheduleBody } from "./settings/digest-schedule.ts";
import {
  MemberVotesQuery,
  VoteBlockBody,
  VoteUnblockBody,
  VoteWarningBody,
} from "./moderation/voting/schema.ts";
import { MemberVotesResponse, VotingActionResponse } from "./moderation/voting/responses.ts";
import { DigestScheduleResponse, DigestScheduleSavedResponse } from "./member/digest/responses.ts";
import {
  SocialLinkCreateBody,
  SocialLinkIdBody,
  SocialLinkMoveBody,
  SocialLinkUpdateBody,
} from "./settings/social-links-schema.ts";

/**
 * Every call of the JSON API: its path below /api, its method, the schema its body is parsed with
 * and the schema of its success answer. The server registers each call with these same schemas
 * (server/api/*, checked by tests/integration/api-contract.test.ts); the browser reads this table's
 * type only (app/lib/api.ts), so `apiCall("/home", body)` knows what /home answers. Record 0080.
 */
export const apiTable = {
  "/health": { GET: { body: undefined, response: HealthResponse } },
  "/general_settings": { GET: { body: undefined, response: GeneralSettingsResponse } },
  "/social": { GET: { body: undefined, response: SocialResponse } },
  "/home": { POST: { body: ActingUserBody, response: HomeResponse } },
  "/recent_deal_pagination": { POST: { body: PageBody, response: RecentPageResponse } },
  "/category_store_filter_home": { POST: { body: HomeFilterBody, response: HomeFilterResponse } },
  "/submit_deal": { GET: { body: undefined, response: SubmitOptionsResponse } },
  "/save_deal": { POST: { body: DealSchema, response: CreatedPostResponse } },
  "/save_discussion": { POST: { body: DiscussionSchema, response: CreatedPostResponse } },
  "/link_preview": { POST: { body: LinkPreviewBody, response: LinkPreviewResponse } },
  "/subscriptions_setup_intent": { POST: { body: ActingUserBody, response: ClientSecretResponse } },
  "/create-intent": { POST: { body: ActingUserBody, response: ClientSecretResponse } },
  "/product_details": { POST: { body: ProductDetailsBody, response: ProductDetailsResponse } },
  "/forums": { GET: { body: undefined, response: ForumsResponse } },
  "/contact_us": { POST: { body: ContactBody, response: ReportSentResponse } },
  "/cms_page": { POST: { body: CmsPageBody, response: CmsPageResponse } },
  "/featured_stores": { GET: { body: undefined, response: FeaturedStoresResponse } },
  "/user_dashboard": { POST: { body: OwnProfileSchema, response: DashboardResponse } },
  "/user": { POST: { body: OwnProfileSchema, response: OwnProfileResponse } },
  "/user_profile": { POST: { body: PublicProfileSchema, response: PublicProfileResponse } },
  "/profile_follow": { POST: { body: MemberFollowBody, response: FollowResponse } },
  "/profile_update": { POST: { body: ProfileUpdateSchema, response: ProfileUpdatedResponse } },
  "/product_like_unlike": { POST: { body: LikeSchema, response: ReactionResponse } },
  "/my_reactions": { POST: { body: MyReactionsSchema, response: MyReactionsResponse } },
  "/product_add_comment": { POST: { body: AddCommentSchema, response: CommentAddedResponse } },
  "/comment_like": { POST: { body: CommentLikeSchema, response: CommentLikeResponse } },
  "/signup": { POST: { body: SignupSchema, response: SignupResponse } },
  "/verify": { POST: { body: VerifySchema, response: AccountResponse } },
  "/resend_confirmation": {
    POST: { body: ResendConfirmationSchema, response: ReportSentResponse },
  },
  "/signin": { POST: { body: SigninRequestSchema, response: SigninResponse } },
  "/logout": { POST: { body: undefined, response: ReportSentResponse } },
  "/forgot_password": { POST: { body: ForgotPasswordSchema, response: ReportSentResponse } },
  "/reset_password": { POST: { body: ResetPasswordSchema, response: ReportSentResponse } },
  "/change_password": { POST: { body: ChangePasswordSchema, response: ChangePasswordResponse } },
  "/email_change": { POST: { body: EmailChangeSchema, response: ReportSentResponse } },
  "/confirm_email_change": {
    POST: { body: ConfirmEmailChangeSchema, response: EmailChangedResponse },
  },
  "/user_deleted": { POST: { body: DeleteAccountBody, response: AccountDeletedResponse } },
  "/social_signin": { POST: { body: SocialSigninSchema, response: SocialSigninResponse } },
  "/social_signin_deleted": {
    POST: { body: SocialSigninSchema, response: AccountDeletedResponse },
  },
  "/stores_list": {
    GET: { body: undefined, response: StoresResponse },
    POST: { body: PageBody, response: StoresPageResponse },
  },
  "/category_list": {
    GET: { body: undefined, response: CategoriesResponse },
    POST: { body: PageBody, response: CategoriesPageResponse },
  },
  "/category_page": { POST: { body: CategoryPageBody, response: ListingResponse } },
  "/filter": { POST: { body: FilterBody, response: FilterResponse } },
  "/admin/users": { GET: { body: UsersQuery, response: ConsoleUsersResponse } },
  "/admin/users/role": { POST: { body: ChangeRoleBody, response: ConsoleUserResponse } },
  "/admin/suspend": { POST: { body: SuspendBody, response: ConsoleUserResponse } },
  "/admin/unsuspend": { POST: { body: UnsuspendBody, response: ConsoleUserResponse } },
  "/admin/users/verified_educator": {
    POST: { body: VerifiedEducatorBody, response: ConsoleUserResponse },
  },
  "/admin/users/delete": { POST: { body: DeleteUserBody, response: ConsoleUserDeletedResponse } },
  "/admin/users/votes": { GET: { body: MemberVotesQuery, response: MemberVotesResponse } },
  "/admin/users/vote_warning": { POST: { body: VoteWarningBody, response: VotingActionResponse } },
  "/admin/users/vote_block": { POST: { body: VoteBlockBody, response: VotingActionResponse } },
  "/admin/users/vote_unblock": { POST: { body: VoteUnblockBody, response: VotingActionResponse } },
  "/admin/settings": {
    GET: { body: undefined, response: ConsoleSettingsResponse },
    POST: { body: SettingsBody, response: ConsoleSettingsSavedResponse },
  },
  "/admin/settings/image": { POST: { body: SiteImageBody, response: ConsoleSiteImageResponse } },
  "/admin/settings/digest": {
    GET: { body: undefined, response: DigestScheduleResponse },
    POST: { body: DigestScheduleBody, response: DigestScheduleSavedResponse },
  },
  "/admin/blocked_domains/add": {
    POST: { body: BlockedDomainBody, response: ConsoleBlockedDomainResponse },
  },
  "/admin/blocked_domains/remove": {
    POST: { body: BlockedDomainBody, response: ConsoleBlockedDomainResponse },
  },
  "/admin/dashboard": { GET: { body: undefined, response: AdminDashboardResponse } },
  "/admin/posts": { GET: { body: PostListQuery, response: AdminPostsResponse } },
  "/admin/posts/update": { POST: { body: PostUpdateBody, response: AdminPostUpdatedResponse } },
  "/admin/posts/bulk": { POST: { body: PostBulkBody, response: AdminPostsBulkResponse } },
  "/admin/posts/delete": { POST: { body: PostDeleteBody, response: AdminPostsBulkResponse } },
  "/admin/comments": { GET: { body: CommentListQuery, response: AdminCommentsResponse } },
  "/admin/comments/bulk": {
    POST: { body: CommentBulkBody, response: AdminCommentsActionResponse },
  },
  "/admin/comments/delete": {
    POST: { body: CommentDeleteBody, response: AdminCommentsActionResponse },
  },
  "/admin/audit": { GET: { body: AuditQuery, response: AdminAuditResponse } },
  "/admin/stores": { GET: { body: undefined, response: CatalogListResponse } },
  "/admin/stores/create": { POST: { body: StoreCreateBody, response: CatalogSavedResponse } },
  "/admin/stores/update": { POST: { body: StoreUpdateBody, response: CatalogSavedResponse } },
  "/admin/stores/delete": { POST: { body: CatalogDeleteBody, response: MovedAndDeletedResponse } },
  "/admin/categories": { GET: { body: undefined, response: CatalogListResponse } },
  "/admin/categories/create": {
    POST: { body: CategoryCreateBody, response: CatalogSavedResponse },
  },
  "/admin/categories/update": {
    POST: { body: CategoryUpdateBody, response: CatalogSavedResponse },
  },
  "/admin/categories/delete": {
    POST: { body: CatalogDeleteBody, response: MovedAndDeletedResponse },
  },
  "/admin/featured": { GET: { body: undefined, response: FeaturedListResponse } },
  "/admin/featured/add": { POST: { body: FeaturedStoreBody, response: ReportSentResponse } },
  "/admin/featured/remove": { POST: { body: FeaturedStoreBody, response: ReportSentResponse } },
  "/admin/featured/move": { POST: { body: FeaturedMoveBody, response: ReportSentResponse } },
  "/admin/wishlist": { GET: { body: undefined, response: WishlistListResponse } },
  "/admin/wishlist/create": { POST: { body: WishlistCreateBody, response: WishlistSavedResponse } },
  "/admin/wishlist/update": { POST: { body: WishlistUpdateBody, response: WishlistSavedResponse } },
  "/admin/wishlist/delete": { POST: { body: IdBody, response: ReportSentResponse } },
  "/admin/wishlist/move": { POST: { body: MoveBody, response: ReportSentResponse } },
  "/admin/social": { GET: { body: undefined, response: SocialLinksListResponse } },
  "/admin/social/create": {
    POST: { body: SocialLinkCreateBody, response: SocialLinkSavedResponse },
  },
  "/admin/social/update": {
    POST: { body: SocialLinkUpdateBody, response: SocialLinkSavedResponse },
  },
  "/admin/social/delete": { POST: { body: SocialLinkIdBody, response: ReportSentResponse } },
  "/admin/social/move": { POST: { body: SocialLinkMoveBody, response: ReportSentResponse } },
  "/admin/forums": { GET: { body: undefined, response: ForumsConsoleResponse } },
  "/admin/forums/create": { POST: { body: ForumCreateBody, response: ForumSavedResponse } },
  "/admin/forums/update": { POST: { body: ForumUpdateBody, response: ForumSavedResponse } },
  "/admin/forums/delete": { POST: { body: ForumIdBody, response: ReportSentResponse } },
  "/admin/forums/move": { POST: { body: ForumMoveBody, response: ReportSentResponse } },
  "/admin/forum_categories/create": {
    POST: { body: ForumCategoryCreateBody, response: ForumCategorySavedResponse },
  },
  "/admin/forum_categories/update": {
    POST: { body: ForumCategoryUpdateBody, response: ForumCategorySavedResponse },
  },
  "/admin/forum_categories/delete": {
    POST: { body: ForumCategoryDeleteBody, response: MovedAndDeletedResponse },
  },
  "/admin/forum_categories/move": { POST: { body: ForumMoveBody, response: ReportSentResponse } },
  "/admin/pages": { GET: { body: undefined, response: PagesListResponse } },
  "/admin/pages/create": { POST: { body: PageCreateBody, response: PageSavedResponse } },
  "/admin/pages/update": { POST: { body: PageUpdateBody, response: PageSavedResponse } },
  "/admin/pages/delete": { POST: { body: IdBody, response: ReportSentResponse } },
  "/admin/messages": { GET: { body: undefined, response: ContactMessagesResponse } },
  "/admin/messages/view": {
    POST: { body: ContactMessageIdBody, response: ContactMessageResponse },
  },
  "/admin/messages/resolve": {
    POST: { body: ContactMessageIdBody, response: ContactMessageResponse },
  },
  "/admin/messages/reopen": {
    POST: { body: ContactMessageIdBody, response: ContactMessageResponse },
  },
  "/admin/messages/reply": { POST: { body: ContactReplyBody, response: ContactMessageResponse } },
  "/report": { POST: { body: ReportBody, response: ReportSentResponse } },
  "/admin/reports": { GET: { body: QueuePage, response: ReportQueueResponse } },
  "/admin/moderate": { POST: { body: ModerateBody, response: ModerateResponse } },
  "/notifications": {
    GET: { body: NotificationsPage, response: NotificationsResponse },
    POST: { body: NotificationsPage, response: NotificationsResponse },
  },
  "/notifications_read": { POST: { body: MarkReadBody, response: NotificationsReadResponse } },
  "/email_preferences": { POST: { body: undefined, response: EmailPreferencesResponse } },
  "/email_preferences_save": {
    POST: { body: EmailPreferencesSaveBody, response: EmailPreferencesSaveResponse },
  },
  "/coupon_feedback": { POST: { body: CouponFeedbackBody, response: FreshnessAnswerResponse } },
  "/confirm_deal": { POST: { body: ConfirmDealBody, response: FreshnessAnswerResponse } },
  "/educator_verification": { GET: { body: undefined, response: EducatorStatusResponse } },
  "/educator_verification/school_email": {
    POST: { body: SchoolEmailBody, response: EducatorMessageResponse },
  },
  "/educator_verification/review": {
    POST: { body: ReviewRequestBody, response: EducatorMessageResponse },
  },
  "/educator_verification/withdraw": {
    POST: { body: undefined, response: EducatorMessageResponse },
  },
  "/educator_verification/confirm": {
    POST: { body: ConfirmEducatorBody, response: EducatorMessageResponse },
  },
  "/my_wishlist": { GET: { body: undefined, response: OwnWishlistResponse } },
  "/wishlist_submit": { POST: { body: OwnWishlistBody, response: OwnWishlistSavedResponse } },
  "/admin/educators": { GET: { body: undefined, response: EducatorConsoleResponse } },
  "/admin/educators/approve": {
    POST: { body: ApproveRequestBody, response: EducatorMessageResponse },
  },
  "/admin/educators/reject": { POST: { body: RejectBody, response: EducatorMessageResponse } },
  "/admin/school_domains/add": {
    POST: { body: SchoolDomainBody, response: SchoolDomainsResponse },
  },
  "/admin/school_domains/remove": {
    POST: { body: SchoolDomainBody, response: SchoolDomainsResponse },
  },
  "/admin/wishlist/pending": { GET: { body: undefined, response: PendingWishlistResponse } },
  "/admin/wishlist/approve": {
    POST: { body: ApproveRequestBody, response: EducatorMessageResponse },
  },
  "/admin/wishlist/reject": { POST: { body: RejectBody, response: EducatorMessageResponse } },
  "/price_history": { POST: { body: PriceHistoryBody, response: PriceHistoryResponse } },
  "/admin/posts/merge_product": { POST: { body: MergeProductBody, response: MergedResponse } },
  "/mark_expired": { POST: { body: MarkExpiredBody, response: ExpiryStatusResponse } },
  "/reopen_deal": { POST: { body: ReopenDealBody, response: ExpiryStatusResponse } },
  "/save_deal_toggle": { POST: { body: SaveDealToggleBody, response: SaveToggleResponse } },
  "/saved_deals": { POST: { body: SavedDealsBody, response: ListingResponse } },
  "/follow_toggle": { POST: { body: FollowToggleBody, response: FollowToggleResponse } },
  "/my_feed": { POST: { body: MyFeedBody, response: ListingResponse } },
  "/alerts": { POST: { body: AlertListBody, response: AlertsResponse } },
  "/alert_save": { POST: { body: AlertSaveBody, response: AlertSavedResponse } },
  "/alert_delete": { POST: { body: AlertIdBody, response: ReportSentResponse } },
  "/alert_preview": { POST: { body: AlertPreviewBody, response: AlertPreviewResponse } },
  "/alert_rss_revoke": { POST: { body: AlertIdBody, response: AlertRssResponse } },
  "/my_data": { GET: { body: undefined, response: MyDataResponse } },
  "/push_key": { POST: { body: undefined, response: PushKeyResponse } },
  "/push_subscribe": { POST: { body: PushSubscribeBody, response: PushSubscriptionResponse } },
  "/push_unsubscribe": { POST: { body: PushUnsubscribeBody, response: PushSubscriptionResponse } },
  "/user/reputation": { POST: { body: ReputationLedgerBody, response: ReputationLedgerResponse } },
  "/community_top": { POST: { body: TopContributorsBody, response: TopContributorsResponse } },
  "/admin/reputation_levels": {
    GET: { body: undefined, response: ReputationLevelsResponse },
    POST: { body: ReputationLevelsBody, response: ReputationLevelsSavedResponse },
  },
  "/admin/mail": { GET: { body: undefined, response: MailSummaryResponse } },
  "/admin/mail/undeliverable": {
    GET: { body: UndeliverableQuery, response: UndeliverableListResponse },
  },
  "/admin/mail/undeliverable/clear": {
    POST: { body: UndeliverableClearBody, response: UndeliverableClearedResponse },
  },
  "/offline_saved_deals": { GET: { body: undefined, response: OfflineSavedDealsResponse } },
} as const;

/** The table as the browser reads it: types only. */
export type ApiTable = typeof apiTable;
