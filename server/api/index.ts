import type { FastifyPluginAsync } from "fastify";
import type { Services } from "../../core/services.ts";
import { apiErrorsPlugin } from "./errors.ts";
import { healthApi } from "./health.ts";
import { homeApi } from "./home.ts";
import { storesAndCategoriesApi } from "./stores-and-categories.ts";
import { listingsApi } from "./listings.ts";
import { openApiDocs } from "./openapi-docs.ts";
import type { ApiModule } from "./route.ts";
import { siteSettingsApi } from "./site-settings.ts";
import { profilesApi } from "./profiles.ts";
import { likesAndCommentsApi } from "./likes-and-comments.ts";
import { submissionsApi } from "./submissions.ts";
import { paymentsApi } from "./payments.ts";
import { postsApi } from "./posts.ts";
import { forumsApi } from "./forums.ts";
import { contactApi } from "./contact.ts";
import { cmsApi } from "./cms.ts";
import { accountsApi } from "./accounts.ts";
import { adminUsersApi } from "./admin-users.ts";
import { adminVotingApi } from "./admin-voting.ts";
import { adminSettingsApi } from "./admin-settings.ts";
import { adminPostsAndCommentsApi } from "./admin-posts-and-comments.ts";
import { adminStoresAndCategoriesApi } from "./admin-stores-and-categories.ts";
import { adminCuratedContentApi } from "./admin-curated-content.ts";
import { adminMessagesApi } from "./admin-messages.ts";
import { moderationApi } from "./moderation.ts";
import { notificationsApi } from "./notifications.ts";
import { freshnessApi } from "./freshness.ts";
import { educatorsApi } from "./educators.ts";
import { priceHistoryApi } from "./price-history.ts";
import { expiryApi } from "./expiry.ts";
import { savedDealsAndFollowsApi } from "./saved-deals-and-follows.ts";
import { alertsApi } from "./alerts.ts";
import { myDataApi } from "./my-data.ts";
import { reputationApi } from "./reputation.ts";
import { adminMailApi } from "./admin-mail.ts";
import { adminDigestApi } from "./admin-digest.ts";
import { pushApi } from "./push.ts";
import { appInstallApi } from "./app-install.ts";

/** Every group of calls of the JSON API (the spec's calls), mounted at /api. */
const modules: ApiModule[] = [
  healthApi,
  siteSettingsApi,
  homeApi,
  submissionsApi,
  paymentsApi,
  postsApi,
  forumsApi,
  contactApi,
  cmsApi,
  profilesApi,
  likesAndCommentsApi,
  accountsApi,
  storesAndCategoriesApi,
  listingsApi,
  adminUsersApi,
  adminVotingApi,
  adminSettingsApi,
  adminPostsAndCommentsApi,
  adminStoresAndCategoriesApi,
  adminCuratedContentApi,
  adminMessagesApi,
  moderationApi,
  notificationsApi,
  freshnessApi,
  educatorsApi,
  priceHistoryApi,
  expiryApi,
  savedDealsAndFollowsApi,
  alertsApi,
  myDataApi,
  reputationApi,
  adminMailApi,
  adminDigestApi,
  pushApi,
  appInstallApi,
  // feature API modules: add one entry per file here
  openApiDocs,
];

/**
 * The JSON API, registered at the prefix /api: its own error handler answers the site's JSON
 * convention (server/api/errors.ts), and each group of calls is a plugin inside it.
 */
export const apiPlugin: FastifyPluginAsync<{ services: Services }> = async (api, { services }) => {
  await api.register(apiErrorsPlugin);
  for (const module of modules) await api.register(module, { services });
  // The one answer to an unknown call (tests/integration/foundation.test.ts). A route, not a
  // not-found handler: the pages' catch-all route would otherwise take every unknown /api path.
  api.all("/*", async (_request, reply) =>
    reply.code(404).send({ status: false, message: "No such API call." }),
  );
};
