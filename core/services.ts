import type { Deps } from "./deps.ts";
import { createDealsService } from "./deals/service.ts";
import { createCatalogService } from "./catalog/service.ts";
import { createListingsService } from "./listings/service.ts";
import { createSettingsService } from "./settings/service.ts";
import { createProfilesService } from "./profiles/service.ts";
import { createReactionsService } from "./reactions/service.ts";
import { createCommentsService } from "./comments/service.ts";
import { createSubmissionsService } from "./submissions/service.ts";
import { createPaymentsService } from "./payments/service.ts";
import { createPostsService } from "./posts/service.ts";
import { createForumsService } from "./forums/service.ts";
import { createContactService } from "./contact/service.ts";
import { createCmsService } from "./cms/service.ts";
import { createAccountsService } from "./accounts/service.ts";
import { createSeoService } from "./seo/service.ts";
import { createModerationService } from "./moderation/service.ts";
import { createUsersService } from "./users/service.ts";
import { createDashboardService } from "./dashboard/service.ts";
import { createConsolePostsService } from "./console-posts/service.ts";
import { createConsoleCommentsService } from "./console-comments/service.ts";
import { createAuditService } from "./audit/service.ts";
import { createCatalogConsoleService } from "./catalog/console-service.ts";
import { createCmsConsoleService } from "./cms/console-service.ts";
import { createSocialLinksConsoleService } from "./settings/social-links-console.ts";
import { createForumsConsoleService } from "./forums/console-service.ts";
import { createContactConsoleService } from "./contact/console-service.ts";
import { createNotificationsService } from "./notifications/service.ts";
import { createLinksService } from "./links/service.ts";
import { createFreshnessService } from "./freshness/service.ts";
import { createEducatorsService } from "./educators/service.ts";
import { createPricesService } from "./prices/service.ts";
import { createExpiryService } from "./expiry/service.ts";
import { createSavedService } from "./saved/service.ts";
import { createFollowingService } from "./following/service.ts";
import { createAlertsService } from "./alerts/service.ts";

/**
 * Every feature's service, built once per process from the same dependencies. The JSON API and the
 * React Router loaders both receive this object; neither talks to the database itself.
 */
export function createServices(deps: Deps) {
  const settings = createSettingsService(deps);
  return {
    settings,
    deals: createDealsService(deps),
    submissions: createSubmissionsService(deps),
    payments: createPaymentsService(deps),
    posts: createPostsService(deps),
    forums: createForumsService(deps),
    contact: createContactService(deps),
    cms: createCmsService(deps),
    profiles: createProfilesService(deps),
    reactions: createReactionsService(deps),
    comments: createCommentsService(deps),
    accounts: createAccountsService(deps, settings),
    catalog: createCatalogService(deps),
    listings: createListingsService(deps),
    seo: createSeoService(deps),
    moderation: createModerationService(deps),
    users: createUsersService(deps),
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
    saved: createSavedService(deps),
    following: createFollowingService(deps),
    // Keyword alerts (record 0045).
    alerts: createAlertsService(deps),
    // feature services: add one line per feature here
  };
}

export type Services = ReturnType<typeof createServices>;
