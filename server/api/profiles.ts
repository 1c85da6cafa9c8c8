import { MemberFollowBody } from "../../core/member/follows/schema.ts";
import {
  OwnProfileSchema,
  ProfileUpdateSchema,
  PublicProfileSchema,
  profileUpdateMessage,
} from "../../core/people/profiles/schema.ts";
import { IMAGE_MESSAGES } from "../../core/posts/submissions/schema.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import {
  DashboardResponse,
  FollowResponse,
  OwnProfileResponse,
  ProfileUpdatedResponse,
  PublicProfileResponse,
} from "../../core/people/profiles/responses.ts";

/** My Account, public profiles, follows and profile edits. */
export const profilesApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/user_dashboard",
    tag: "Profiles",
    summary:
      "The signed-in user's own page: profile (private fields included), followers, followings, " +
      "deal cards (page, 15 a page) and subscriptions",
    body: OwnProfileSchema,
    response: DashboardResponse,
    auth: true,
    handler: async ({ input, request }) => ({
      status: "true",
      response: await services.profiles.dashboard(request.user, input),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/user",
    tag: "Profiles",
    summary: "The signed-in user's own profile, private fields included",
    body: OwnProfileSchema,
    response: OwnProfileResponse,
    auth: true,
    handler: async ({ input, request }) => ({
      status: "true",
      data: await services.profiles.ownProfile(request.user, input),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/user_profile",
    tag: "Profiles",
    summary:
      "A user's public page: profile without private fields, followers, followings and deal cards; " +
      "is_follow is 1 when the signed-in viewer follows the user",
    body: PublicProfileSchema,
    response: PublicProfileResponse,
    handler: async ({ input, request }) => ({
      status: "true",
      response: await services.profiles.publicProfile(request.user, input),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/profile_follow",
    tag: "Profiles",
    summary: "Follows (status 'Follow') or stops following (status 'UN FOLLOW') another user",
    body: MemberFollowBody,
    response: FollowResponse,
    auth: true,
    rateLimit: RATE_LIMITS.follow,
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await services.following.followMember(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/profile_update",
    tag: "Profiles",
    summary:
      "Updates the signed-in user's profile (multipart; optional image file). The email is never " +
      "changed here. Answers the message 'Your profile has been updated'",
    body: ProfileUpdateSchema,
    response: ProfileUpdatedResponse,
    multipart: { fileField: "image", tooLargeMessage: IMAGE_MESSAGES.tooLarge },
    auth: true,
    failure: { validationMessage: profileUpdateMessage },
    handler: async ({ input, file, request }) => ({
      status: "true",
      ...(await services.profiles.updateProfile(request.user, input, file ?? null)),
    }),
  });
};
