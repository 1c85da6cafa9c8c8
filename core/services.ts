import type { Deps } from "./deps.ts";
import { createHomeService } from "./home/service.ts";
import { createCatalogService } from "./catalog/service.ts";
import { createListingsService } from "./listings/service.ts";
import { createSettingsService } from "./settings/service.ts";
import { createProfilesService } from "./people/profiles/service.ts";
import { createReputationService } from "./people/reputation/service.ts";
import { createReactionsService } from "./posts/reactions/service.ts";
import { createCommentsService } from "./posts/comments/service.ts";
import { createCommentLikesService } from "./posts/comments/likes/service.ts";
import { createSubmissionsService } from "./posts/submissions/service.ts";
import { createPaymentsService } from "./payments/service.ts";
import { createPostsService } from "./posts/service.ts";
import { createForumsService } from "./forums/service.ts";
import { createContactService } from "./contact/service.ts";
import { createCmsService } from "./cms/service.ts";
import { createAccountsService } from "./people/accounts/service.ts";
import { createSeoService } from "./seo/service.ts";
import { createModerationService } from "./moderation/service.ts";
import { createUsersService } from "./people/roles/service.ts";
import { createVotingIntegrityService } from "./moderation/voting/service.ts";
import { createDashboardService } from "./console/dashboard/service.ts";
import { createConsolePostsService } from "./posts/console-service.ts";
import { createConsoleCommentsService } from "./posts/comments/console-service.ts";
import { createAuditService } from "./audit/service.ts";
import { createCatalogConsoleService } from "./catalog/console-service.ts";
import { createCmsConsoleService } from "./cms/console-service.ts";
import { createSocialLinksConsoleService } from "./settings/social-links-console.ts";
import { createForumsConsoleService } from "./forums/console-service.ts";
import { createContactConsoleService } from "./contact/console-service.ts";
import { createNotificationsService } from "./member/notifications/service.ts";
import { createLinksService } from "./posts/links/service.ts";
import { createFreshnessService } from "./posts/freshness/service.ts";
import { createEducatorsService } from "./people/educators/service.ts";
import { createPricesService } from "./posts/prices/service.ts";
import { createLinkPreviewService } from "./posts/link-preview/service.ts";
import { createExpiryService } from "./posts/expiry/service.ts";
import { createSavedService } from "./member/saved/service.ts";
import { createPushService } from "./member/push/service.ts";
import { createFollowingService } from "./member/follows/service.ts";
import { createAlertsService } from "./member/alerts/service.ts";
import { createDataExportService } from "./people/my-data/service.ts";
import { createMailConsoleService } from "./mail/console/service.ts";
import { createDigestService } from "./member/digest/service.ts";
import { createAppInstallService } from "./app-install/service.ts";

/**
 * Every feature's service, built once per process from the same dependencies. The JSON API and the
 * React Router loaders both receive this object; neither talks to the database itself.
 */
export function createServices(deps: Deps) {
  const settings = createSettingsService(deps);
  const saved = createSavedService(deps);
  return {
    settings,
    home: createHomeService(deps),
    submissions: createSubmissionsService(deps),
    // Post from a link: Submit Deal's preview of a shop's page (record 0110).
    linkPreview: createLinkPreviewService(deps),
    payments: createPaymentsService(deps),
    posts: createPostsService(deps),
    forums: createForumsService(deps),
    contact: createContactService(deps),
    cms: createCmsService(deps),
    profiles: createProfilesService(deps),
    reputation: createReputationService(deps),
    reactions: createReactionsService(deps),
    comments: createCommentsService(deps),
    commentLikes: createCommentLikesService(deps),
    accounts: createAccountsService(deps, settings),
    catalog: createCatalogService(deps),
    listings: createListingsService(deps),
    seo: createSeoService(deps),
    moderation: createModerationService(deps),
    users: createUsersService(deps),
    // Vote integrity (record 0091): a member's votes, warnings and voting blocks.
    votingIntegrity: createVotingIntegrityService(deps),
    dashboard: createDashboardService(deps),
    consolePosts: createConsolePostsService(deps),
    consoleComments: createConsoleCommentsService(deps),
    audit: createAuditService(deps),
    // The console's content (record 0033): stores and categories, pages, featured stores, the
    // Teachers Wishlist, social links, forums, contact messages.
    catalogConsole: createCatalogConsoleService(deps),
    cmsConsole: createCmsConsoleService(deps),
    socialLinksConsole: createSocialLinksConsoleService(deps),
    forumsConsole: createForumsConsoleService(deps),
    contactConsole: createContactConsoleService(deps, settings),
    notifications: createNotificationsService(deps),
    // Honest links (record 0039): /go/{unique_id} and the store pages' click counts.
    links: createLinksService(deps),
    freshness: createFreshnessService(deps),
    educators: createEducatorsService(deps, settings),
    prices: createPricesService(deps),
    expiry: createExpiryService(deps),
    // Saved deals, followed stores and categories, the personal feed (record 0043).
    saved,
    following: createFollowingService(deps),
    // Keyword alerts (record 0045).
    alerts: createAlertsService(deps),
    // Push alerts to members' devices (record 0109).
    push: createPushService(deps),
    // "Download my data" (record 0084).
    dataExport: createDataExportService(deps),
    // The console's Mail page: the queue, daily counts, undeliverable addresses (record 0083).
    mailConsole: createMailConsoleService(deps),
    // The weekly digest's schedule, on the console's Settings page (record 0087).
    digest: createDigestService(deps),
    // The installable app: manifest, icons, the offline page's saved deals (record 0108).
    appInstall: createAppInstallService(deps, settings, saved),
    // feature services: add one line per feature here
  };
}

export type Services = ReturnType<typeof createServices>;
