import {
  ReputationLedgerResponse,
  ReputationLevelsResponse,
  ReputationLevelsSavedResponse,
  TopContributorsResponse,
} from "../../core/people/reputation/responses.ts";
import {
  ReputationLedgerBody,
  ReputationLevelsBody,
  TopContributorsBody,
} from "../../core/people/reputation/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

/** Reputation (docs/decisions/0088-reputation.md): a member's ledger, the month's top contributors, the level thresholds. */
export const reputationApi: ApiModule = async (app, { services }) => {
  const reputation = services.reputation;

  apiRoute(app, {
    method: "POST",
    url: "/user/reputation",
    tag: "Profiles",
    summary:
      "The signed-in member's points, level and badges, every badge's rule with their own number " +
      "against it, and a page of what earned or cost them points, newest first",
    body: ReputationLedgerBody,
    response: ReputationLedgerResponse,
    auth: true,
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await reputation.ledger(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/community_top",
    tag: "Profiles",
    summary:
      "This month's top contributors (UTC month): members by the points they earned this month, " +
      "with their level and badges",
    body: TopContributorsBody,
    response: TopContributorsResponse,
    handler: async ({ input }) => ({
      status: "true",
      ...(await reputation.topContributors(input)),
    }),
  });

  apiRoute(app, {
    method: "GET",
    url: "/admin/reputation_levels",
    tag: "Console",
    summary: "The points at which the Member, Regular and Trusted levels begin",
    response: ReputationLevelsResponse,
    auth: "admin",
    handler: async ({ request }) => ({
      status: "true",
      ...(await reputation.levels(request.user)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/reputation_levels",
    tag: "Console",
    summary:
      "Sets the points at which Member, Regular and Trusted begin (each more than the one before; " +
      "422 otherwise); every member's level follows at once",
    body: ReputationLevelsBody,
    response: ReputationLevelsSavedResponse,
    auth: "admin",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await reputation.saveLevels(request.user, input)),
    }),
  });
};
