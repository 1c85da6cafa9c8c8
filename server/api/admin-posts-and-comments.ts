import { presentAuditPage } from "../../core/audit/presenter.ts";
import { AuditQuery } from "../../core/audit/schema.ts";
import {
  presentCommentsResult,
  presentConsoleCommentsPage,
} from "../../core/posts/comments/console-presenter.ts";
import {
  CommentBulkBody,
  CommentDeleteBody,
  CommentListQuery,
} from "../../core/posts/comments/console-schema.ts";
import {
  presentBulkResult,
  presentConsolePostsPage,
  presentPostUpdated,
} from "../../core/posts/console-presenter.ts";
import {
  PostBulkBody,
  PostDeleteBody,
  PostListQuery,
  PostUpdateBody,
} from "../../core/posts/console-schema.ts";
import { presentDashboardResponse } from "../../core/console/dashboard/presenter.ts";
import { apiRoute, type ApiModule } from "./route.ts";
import { AdminAuditResponse } from "../../core/audit/responses.ts";
import { AdminDashboardResponse } from "../../core/console/dashboard/responses.ts";
import {
  AdminCommentsActionResponse,
  AdminCommentsResponse,
} from "../../core/posts/comments/responses.ts";
import {
  AdminPostUpdatedResponse,
  AdminPostsBulkResponse,
  AdminPostsResponse,
} from "../../core/posts/responses.ts";

const TAG = "Console";

/**
 * The console's content calls: the dashboard, every post and comment, the audit log. Moderators
 * may make each of them except the hard deletes, which are the administrators'.
 */
export const adminPostsAndCommentsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "GET",
    url: "/admin/dashboard",
    tag: TAG,
    summary:
      "New users, deals, discussions, comments, reports and contact messages of the last 24 hours and 7 days; open queue sizes; posts and sign-ups per day for 30 days",
    auth: "moderator",
    response: AdminDashboardResponse,
    handler: async ({ request }) =>
      presentDashboardResponse(await services.dashboard.figures(request.user)),
  });

  apiRoute(app, {
    method: "GET",
    url: "/admin/posts",
    tag: TAG,
    summary:
      "Every deal and discussion in any state, 20 a page: q (title or unique_id), status, type (d, g), store_id, category_id, author (id, name or email), sort (newest, oldest, most_liked, most_comments, hottest), page",
    auth: "moderator",
    body: PostListQuery,
    response: AdminPostsResponse,
    handler: async ({ input, request }) =>
      presentConsolePostsPage(await services.consolePosts.list(request.user, input)),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/posts/update",
    tag: TAG,
    summary:
      "Edits any fields of a post named by unique_id (only those sent; blank clears an optional one); slug, link key, kind and discount follow; the audit log keeps before and after",
    auth: "moderator",
    body: PostUpdateBody,
    response: AdminPostUpdatedResponse,
    handler: async ({ input, request }) =>
      presentPostUpdated(await services.consolePosts.update(request.user, input)),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/posts/bulk",
    tag: TAG,
    summary:
      "One action (feature, unfeature, hide, restore, remove, expire, delete) on up to 100 posts (ids: unique_ids) in one transaction; an unknown id changes nothing (404); delete is for administrators",
    auth: "moderator",
    body: PostBulkBody,
    response: AdminPostsBulkResponse,
    handler: async ({ input, request }) =>
      presentBulkResult(await services.consolePosts.bulk(request.user, input)),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/posts/delete",
    tag: TAG,
    summary:
      "Deletes posts for good (ids: unique_ids) with their comments, likes, views and uploaded image; their open reports are resolved",
    auth: "admin",
    body: PostDeleteBody,
    response: AdminPostsBulkResponse,
    handler: async ({ input, request }) =>
      presentBulkResult(await services.consolePosts.delete(request.user, input)),
  });

  apiRoute(app, {
    method: "GET",
    url: "/admin/comments",
    tag: TAG,
    summary:
      "Every comment and reply, newest first, 20 a page: q (words), author (id, name or email), post (unique_id or title), status (active, hidden, removed, deleted), page",
    auth: "moderator",
    body: CommentListQuery,
    response: AdminCommentsResponse,
    handler: async ({ input, request }) =>
      presentConsoleCommentsPage(await services.consoleComments.list(request.user, input)),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/comments/bulk",
    tag: TAG,
    summary:
      "Hides, restores or removes up to 100 comments (ids) in one transaction; an unknown id changes nothing (404)",
    auth: "moderator",
    body: CommentBulkBody,
    response: AdminCommentsActionResponse,
    handler: async ({ input, request }) =>
      presentCommentsResult(await services.consoleComments.bulk(request.user, input)),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/comments/delete",
    tag: TAG,
    summary:
      "Deletes comments for good (ids); one with replies keeps its place as “This comment was deleted.” so the replies keep their thread",
    auth: "admin",
    body: CommentDeleteBody,
    response: AdminCommentsActionResponse,
    handler: async ({ input, request }) =>
      presentCommentsResult(await services.consoleComments.delete(request.user, input)),
  });

  apiRoute(app, {
    method: "GET",
    url: "/admin/audit",
    tag: TAG,
    summary:
      "The audit log, newest first, 20 a page, with actor, action, item, reason, time and before/after: actor (id or name), action (post.hide, or an area: post), item_type, item_id, page",
    auth: "moderator",
    body: AuditQuery,
    response: AdminAuditResponse,
    handler: async ({ input, request }) =>
      presentAuditPage(await services.audit.list(request.user, input)),
  });
};
