import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffRole } from "../../core/auth/policy.ts";
import { apiRoutes } from "../../server/api/route.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * Who may call each console call. A new /api/admin/* route must join this table, or the first
 * test fails: the table is the one list of the console's permissions.
 */
const ADMIN_ROUTE_ROLES: Record<string, StaffRole> = {
  // Users (core/people/roles): moderators run the list, suspensions and the verified mark; roles and
  // deletion are the administrators'.
  "GET /admin/users": "moderator",
  "POST /admin/users/role": "admin",
  "POST /admin/suspend": "moderator",
  "POST /admin/unsuspend": "moderator",
  "POST /admin/users/verified_educator": "moderator",
  "POST /admin/users/delete": "admin",
  // Vote integrity (record 0091): a member's votes, warnings and voting blocks.
  "GET /admin/users/votes": "moderator",
  "POST /admin/users/vote_warning": "moderator",
  "POST /admin/users/vote_block": "moderator",
  "POST /admin/users/vote_unblock": "moderator",
  // Settings and blocked link domains (core/settings): administrators only.
  "GET /admin/settings": "admin",
  "POST /admin/settings": "admin",
  "POST /admin/settings/image": "admin",
  "GET /admin/reputation_levels": "admin",
  "POST /admin/reputation_levels": "admin",
  "GET /admin/settings/digest": "admin",
  "POST /admin/settings/digest": "admin",
  "POST /admin/blocked_domains/add": "admin",
  "POST /admin/blocked_domains/remove": "admin",
  // Dashboard, posts, comments and the audit log (server/api/admin-posts-and-comments.ts).
  "GET /admin/dashboard": "moderator",
  "GET /admin/posts": "moderator",
  "POST /admin/posts/update": "moderator",
  "POST /admin/posts/bulk": "moderator",
  "POST /admin/posts/merge_product": "moderator",
  "POST /admin/posts/delete": "admin",
  "GET /admin/comments": "moderator",
  "POST /admin/comments/bulk": "moderator",
  "POST /admin/comments/delete": "admin",
  "GET /admin/audit": "moderator",
  // The console's content: moderators create, edit and order; hard deletes are admins'.
  "GET /admin/stores": "moderator",
  "POST /admin/stores/create": "moderator",
  "POST /admin/stores/update": "moderator",
  "POST /admin/stores/delete": "admin",
  "GET /admin/categories": "moderator",
  "POST /admin/categories/create": "moderator",
  "POST /admin/categories/update": "moderator",
  "POST /admin/categories/delete": "admin",
  "GET /admin/featured": "moderator",
  "POST /admin/featured/add": "moderator",
  "POST /admin/featured/remove": "moderator",
  "POST /admin/featured/move": "moderator",
  "GET /admin/wishlist": "moderator",
  "POST /admin/wishlist/create": "moderator",
  "POST /admin/wishlist/update": "moderator",
  "POST /admin/wishlist/delete": "admin",
  "POST /admin/wishlist/move": "moderator",
  "GET /admin/social": "moderator",
  "POST /admin/social/create": "moderator",
  "POST /admin/social/update": "moderator",
  "POST /admin/social/delete": "admin",
  "POST /admin/social/move": "moderator",
  "GET /admin/forums": "moderator",
  "POST /admin/forums/create": "moderator",
  "POST /admin/forums/update": "moderator",
  "POST /admin/forums/delete": "admin",
  "POST /admin/forums/move": "moderator",
  "POST /admin/forum_categories/create": "moderator",
  "POST /admin/forum_categories/update": "moderator",
  "POST /admin/forum_categories/delete": "admin",
  "POST /admin/forum_categories/move": "moderator",
  "GET /admin/pages": "moderator",
  "POST /admin/pages/create": "moderator",
  "POST /admin/pages/update": "moderator",
  "POST /admin/pages/delete": "admin",
  "GET /admin/messages": "moderator",
  "POST /admin/messages/view": "moderator",
  "POST /admin/messages/resolve": "moderator",
  "POST /admin/messages/reopen": "moderator",
  "POST /admin/messages/reply": "moderator",
  // Moderation queue (record 0031).
  "GET /admin/reports": "moderator",
  "POST /admin/moderate": "moderator",
  // Verified educators (record 0041): moderators review requests, the school domains and teachers'
  // own wishlist entries.
  "GET /admin/educators": "moderator",
  "POST /admin/educators/approve": "moderator",
  "POST /admin/educators/reject": "moderator",
  "POST /admin/school_domains/add": "moderator",
  "POST /admin/school_domains/remove": "moderator",
  "GET /admin/wishlist/pending": "moderator",
  "POST /admin/wishlist/approve": "moderator",
  "POST /admin/wishlist/reject": "moderator",
  // Mail delivery (core/mail/console): administrators only, as the site's settings.
  "GET /admin/mail": "admin",
  "GET /admin/mail/undeliverable": "admin",
  "POST /admin/mail/undeliverable/clear": "admin",
};

const adminRoutes = () => apiRoutes.filter((route) => route.url.startsWith("/admin/"));
const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

describe("console calls need their role", () => {
  let app: TestApp;
  const clients: Record<"visitor" | "member" | "moderator" | "admin", TestClient> = {} as never;

  beforeAll(async () => {
    app = await createTestApp();
    await app.app.ready();
    for (const role of ["visitor", "member", "moderator", "admin"] as const) {
      clients[role] = new TestClient(app.app);
      if (role === "visitor") continue;
      const id = await createTestUser(app.deps.db);
      if (role !== "member") {
        await app.deps.db.updateTable("users").set({ role }).where("id", "=", id).execute();
      }
      await clients[role].signInAs(app.deps.db, id);
    }
  });
  afterAll(() => app?.close());

  it("lists every /api/admin route with the role it declares", () => {
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      expect(
        ADMIN_ROUTE_ROLES[key(route)],
        `${key(route)} is missing from the table`,
      ).toBeDefined();
      expect(route.auth, key(route)).toBe(ADMIN_ROUTE_ROLES[key(route)]);
    }
    for (const listed of Object.keys(ADMIN_ROUTE_ROLES)) {
      expect(routes.map(key), `${listed} is in the table but not registered`).toContain(listed);
    }
  });

  it("answers 401 to a visitor, 403 to a member and to a moderator on admin-only calls", async () => {
    for (const route of adminRoutes()) {
      const role = ADMIN_ROUTE_ROLES[key(route)];
      const call = (client: TestClient) =>
        client.request({
          method: route.method,
          url: `/api${route.url}`,
          payload: route.method === "GET" ? undefined : {},
        });
      expect((await call(clients.visitor)).statusCode, `${key(route)} visitor`).toBe(401);
      expect((await call(clients.member)).statusCode, `${key(route)} member`).toBe(403);
      const moderator = (await call(clients.moderator)).statusCode;
      if (role === "admin") expect(moderator, `${key(route)} moderator`).toBe(403);
      else expect([401, 403], `${key(route)} moderator`).not.toContain(moderator);
      expect([401, 403], `${key(route)} admin`).not.toContain(
        (await call(clients.admin)).statusCode,
      );
    }
  });
});
