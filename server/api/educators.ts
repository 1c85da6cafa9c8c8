import {
  ApproveRequestBody,
  ConfirmEducatorBody,
  OwnWishlistBody,
  RejectBody,
  ReviewRequestBody,
  SchoolDomainBody,
  SchoolEmailBody,
} from "../../core/people/educators/schema.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import {
  EducatorConsoleResponse,
  EducatorMessageResponse,
  EducatorStatusResponse,
  OwnWishlistResponse,
  OwnWishlistSavedResponse,
  PendingWishlistResponse,
  SchoolDomainsResponse,
} from "../../core/people/educators/responses.ts";

/** Opening links: per address, so nobody can guess codes quickly. */
const CONFIRM_LIMIT = { max: 20, timeWindow: "15 minutes" };

/** Verified educators: the member's requests and own wishlist entry; the console's review. */
export const educatorsApi: ApiModule = async (app, { services }) => {
  const educators = services.educators;
  const MEMBER = "Verified educators";
  const CONSOLE = "Console: verified educators";

  apiRoute(app, {
    method: "GET",
    url: "/educator_verification",
    tag: MEMBER,
    summary:
      "Whether the signed-in member is a verified educator, their latest request, and the school " +
      "domains accepted",
    response: EducatorStatusResponse,
    auth: true,
    handler: async ({ request }) => ({
      status: "true",
      ...(await educators.status(request.user)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/educator_verification/school_email",
    tag: MEMBER,
    summary:
      "Asks to be verified by a school address {email} (.edu, k12.<state>.us or a listed domain): " +
      "mails a single-use link, valid 24 hours. One open request per member",
    body: SchoolEmailBody,
    response: EducatorMessageResponse,
    auth: true,
    rateLimit: RATE_LIMITS.educatorRequest,
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await educators.requestBySchoolEmail(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/educator_verification/review",
    tag: MEMBER,
    summary: "Asks to be verified by a moderator's review of a short {note} (20–1000 characters)",
    body: ReviewRequestBody,
    response: EducatorMessageResponse,
    auth: true,
    rateLimit: RATE_LIMITS.educatorRequest,
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await educators.requestReview(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/educator_verification/withdraw",
    tag: MEMBER,
    summary: "Withdraws the signed-in member's open request",
    response: EducatorMessageResponse,
    auth: true,
    handler: async ({ request }) => ({
      status: "true",
      ...(await educators.withdraw(request.user)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/educator_verification/confirm",
    tag: MEMBER,
    summary:
      "Uses the {code} of a mailed school-address link once, before it expires: its member is " +
      "verified. Needs no session",
    body: ConfirmEducatorBody,
    response: EducatorMessageResponse,
    rateLimit: CONFIRM_LIMIT,
    handler: async ({ input }) => ({ status: "true", ...(await educators.confirm(input)) }),
  });

  apiRoute(app, {
    method: "GET",
    url: "/my_wishlist",
    tag: MEMBER,
    summary:
      "The signed-in member's own Teachers Wishlist entries with their review state, and whether " +
      "they may add one (verified educators only)",
    response: OwnWishlistResponse,
    auth: true,
    handler: async ({ request }) => ({
      status: "true",
      ...(await educators.ownWishlist(request.user)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/wishlist_submit",
    tag: MEMBER,
    summary:
      "A verified educator's own Teachers Wishlist entry {first_name, last_name, school_location, " +
      "amazon_wishlist}: public once a moderator approves it; 403 for anyone else",
    body: OwnWishlistBody,
    response: OwnWishlistSavedResponse,
    auth: true,
    rateLimit: RATE_LIMITS.wishlistSubmit,
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await educators.submitWishlist(request.user, input)),
    }),
  });

  // The console ----------------------------------------------------------------------------------

  apiRoute(app, {
    method: "GET",
    url: "/admin/educators",
    tag: CONSOLE,
    summary: "Open review requests, oldest first, and the school-domain list",
    response: EducatorConsoleResponse,
    auth: "moderator",
    handler: async ({ request }) => ({
      status: "true",
      ...(await educators.consoleOverview(request.user)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/educators/approve",
    tag: CONSOLE,
    summary: "Approves a review request {id}: the member is verified and told so",
    body: ApproveRequestBody,
    response: EducatorMessageResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await educators.approve(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/educators/reject",
    tag: CONSOLE,
    summary: "Rejects a review request {id, reason}: the member is told the reason",
    body: RejectBody,
    response: EducatorMessageResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await educators.reject(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/school_domains/add",
    tag: CONSOLE,
    summary:
      "Accepts school addresses at {domain} and its subdomains (not free mail providers, not " +
      "what .edu and k12.<state>.us cover already)",
    body: SchoolDomainBody,
    response: SchoolDomainsResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await educators.addDomain(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/school_domains/remove",
    tag: CONSOLE,
    summary: "Removes {domain} from the school-domain list",
    body: SchoolDomainBody,
    response: SchoolDomainsResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await educators.removeDomain(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "GET",
    url: "/admin/wishlist/pending",
    tag: CONSOLE,
    summary: "Teachers' own wishlist entries waiting for review, oldest first",
    response: PendingWishlistResponse,
    auth: "moderator",
    handler: async ({ request }) => ({
      status: "true",
      items: await educators.pendingWishlist(request.user),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/wishlist/approve",
    tag: CONSOLE,
    summary: "Approves a teacher's wishlist entry {id}: it joins the end of the public list",
    body: ApproveRequestBody,
    response: EducatorMessageResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await educators.approveWishlist(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/wishlist/reject",
    tag: CONSOLE,
    summary: "Rejects a teacher's wishlist entry {id, reason}: the teacher is told the reason",
    body: RejectBody,
    response: EducatorMessageResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await educators.rejectWishlist(request.user, input)),
    }),
  });
};
