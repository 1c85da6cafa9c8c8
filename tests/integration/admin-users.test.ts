import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertEmailToken } from "../../core/people/accounts/repository.ts";
import { hashPassword } from "../../core/auth/password.ts";
import { hashToken } from "../../core/auth/sessions.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { USER_POLICY_MESSAGES } from "../../core/people/roles/policy.ts";
import { USER_MESSAGES, USERS_PAGE_SIZE } from "../../core/people/roles/schema.ts";
import type { UserRole } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * The console's users calls (core/people/roles): the list, roles with the last-administrator rule,
 * suspension (its sessions and tokens end at once; sign-in says why), the verified-educator mark
 * and deletion, each audited in its own transaction.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PASSWORD = "Suspend#Me42";
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ seed: "none" });
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;

/** A member with a password, so they can sign in through /api/signin. */
async function member(name = "Member") {
  counter += 1;
  const email = `people-${counter}-${Date.now()}@example.com`;
  const row = await t.deps.db
    .insertInto("users")
    .values({
      name: `${name} ${counter}`,
      email,
      password_hash: await hashPassword(PASSWORD),
      user_type: "Teacher",
      email_verified_at: new Date(),
    })
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
  return { ...row, email };
}

/** A signed-in staff member (or member) with a session cookie. */
async function signedIn(role: UserRole, name = role) {
  const id = await createTestUser(t.deps.db, { name: `${name} ${++counter}` });
  if (role !== "member") {
    await t.deps.db.updateTable("users").set({ role }).where("id", "=", id).execute();
  }
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, id);
  return { id, client };
}

async function signIn(email: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/signin",
    payload: { email, password: PASSWORD },
  });
}

async function auditOf(userId: number) {
  return t.deps.db
    .selectFrom("audit_log")
    .selectAll()
    .where("item_type", "=", "user")
    .where("item_id", "=", String(userId))
    .orderBy("id")
    .execute();
}

async function userRow(id: number) {
  return t.deps.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

describe("GET /api/admin/users", () => {
  it("counts each member's posts whatever their status", async () => {
    const mod = await signedIn("moderator");
    const poster = await member("Paula Postcount");
    const postsCount = async (userId: number) => {
      const response = await mod.client.get(`/api/admin/users?q=${userId}`);
      return (response.json() as Json).users.find((u: Json) => u.id === userId).posts_count;
    };
    await sql`
      INSERT INTO posts (unique_id, slug, post_type, kind, title, link, price, user_id, status)
      SELECT 'pc' || ${poster.id} || '-' || g, 'counted-' || g, 'd', 'deal', 'Counted ' || g,
             'https://example.com/counted/' || g, 10, ${poster.id},
             (ARRAY['active', 'pending', 'removed'])[g]
      FROM generate_series(1, 3) AS g`.execute(t.deps.db);
    expect(await postsCount(poster.id)).toBe(3);
    await sql`DELETE FROM posts WHERE user_id = ${poster.id} AND status = 'removed'`.execute(
      t.deps.db,
    );
    expect(await postsCount(poster.id)).toBe(2);
  });

  it("searches by name, email and id, filters by role and status, and pages", async () => {
    const mod = await signedIn("moderator");
    const found = await member("Quentin Searchable");
    const list = async (query: string) => {
      const response = await mod.client.get(`/api/admin/users${query}`);
      expect(response.statusCode, query).toBe(200);
      return response.json() as Json;
    };

    const byName = await list("?q=quentin%20SEARCH");
    expect(byName.users.map((u: Json) => u.id)).toEqual([found.id]);
    expect(byName.users[0]).toMatchObject({
      name: found.name,
      email: found.email,
      role: "member",
      posts_count: 0,
      status: "active",
      suspended_until: null,
      verified_educator: false,
    });
    expect((await list(`?q=${encodeURIComponent(found.email)}`)).users[0].id).toBe(found.id);
    expect((await list(`?q=${found.id}`)).users.map((u: Json) => u.id)).toContain(found.id);
    // Pattern characters are taken literally.
    expect((await list("?q=%25")).users).toEqual([]);

    const moderators = await list("?role=moderator");
    expect(moderators.users.every((u: Json) => u.role === "moderator")).toBe(true);
    expect(moderators.users.map((u: Json) => u.id)).toContain(mod.id);

    await t.deps.db
      .updateTable("users")
      .set({ suspended_at: new Date(), suspension_reason: "Spam" })
      .where("id", "=", found.id)
      .execute();
    const suspended = await list("?status=suspended");
    expect(suspended.users.map((u: Json) => u.id)).toEqual([found.id]);
    expect(suspended.users[0]).toMatchObject({ status: "suspended", suspension_reason: "Spam" });
    expect((await list("?status=active")).users.map((u: Json) => u.id)).not.toContain(found.id);

    // Unusable filters read as "not given", as the page's links do.
    const all = await list("?role=boss&status=%00&page=abc");
    expect(all.page).toBe(1);
    expect(all.total).toBeGreaterThanOrEqual(2);

    while ((await list("")).total <= USERS_PAGE_SIZE) await member("Filler");
    const first = await list("");
    const second = await list("?page=2");
    expect(first.users).toHaveLength(USERS_PAGE_SIZE);
    expect(first.last_page).toBeGreaterThanOrEqual(2);
    expect(second.page).toBe(2);
    expect(second.users[0].id).toBeLessThan(first.users.at(-1).id);
  });
});

describe("POST /api/admin/users/role", () => {
  it("lets an administrator change a role, audited with before and after", async () => {
    const admin = await signedIn("admin");
    const target = await member();
    const response = await admin.client.post("/api/admin/users/role", {
      user_id: target.id,
      role: "moderator",
      reason: "Trusted",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: "true",
      message: `${target.name} is now a moderator.`,
      user: { id: target.id, role: "moderator" },
    });
    expect((await userRow(target.id)).role).toBe("moderator");
    const [entry] = await auditOf(target.id);
    expect(entry).toMatchObject({
      actor_id: admin.id,
      action: "user.role",
      reason: "Trusted",
      before: { role: "member" },
      after: { role: "moderator" },
    });
  });

  it("is for administrators only, whatever a moderator sends", async () => {
    const mod = await signedIn("moderator");
    const target = await member();
    const response = await mod.client.post("/api/admin/users/role", {
      user_id: target.id,
      role: "admin",
    });
    expect(response.statusCode).toBe(403);
    expect((await userRow(target.id)).role).toBe("member");
  });

  it("keeps the last administrator: stepping down says why and changes nothing", async () => {
    // Only this test's administrators exist while it runs.
    await t.deps.db
      .updateTable("users")
      .set({ role: "member" })
      .where("role", "=", "admin")
      .execute();
    const admin = await signedIn("admin");
    const alone = await admin.client.post("/api/admin/users/role", {
      user_id: admin.id,
      role: "member",
    });
    expect(alone.statusCode).toBe(409);
    expect(alone.json().message).toBe(USER_POLICY_MESSAGES.lastAdmin);
    expect((await userRow(admin.id)).role).toBe("admin");
    expect(await auditOf(admin.id)).toEqual([]);

    // A suspended administrator cannot sign in, so does not count as another.
    const suspendedAdmin = await member();
    await t.deps.db
      .updateTable("users")
      .set({ role: "admin", suspended_at: new Date() })
      .where("id", "=", suspendedAdmin.id)
      .execute();
    const still = await admin.client.post("/api/admin/users/role", {
      user_id: admin.id,
      role: "moderator",
    });
    expect(still.statusCode).toBe(409);

    const second = await signedIn("admin");
    const stepDown = await admin.client.post("/api/admin/users/role", {
      user_id: admin.id,
      role: "member",
    });
    expect(stepDown.statusCode).toBe(200);
    expect((await userRow(admin.id)).role).toBe("member");
    // Now a member: the next console call is refused at once.
    const after = await admin.client.post("/api/admin/users/role", {
      user_id: second.id,
      role: "member",
    });
    expect(after.statusCode).toBe(403);
  });

  it("refuses an unknown role or user with a clear message", async () => {
    const admin = await signedIn("admin");
    const bad = await admin.client.post("/api/admin/users/role", { user_id: "0x1F", role: "boss" });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ user_id: USER_MESSAGES.userId, role: USER_MESSAGES.role });
    const missing = await admin.client.post("/api/admin/users/role", {
      user_id: 987654321,
      role: "member",
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe("That user does not exist.");
  });
});

describe("POST /api/admin/suspend", () => {
  it("ends the user's sessions and bearer tokens at once, and sign-in says why", async () => {
    const mod = await signedIn("moderator");
    const target = await member();
    const cookie = new TestClient(t.app);
    await cookie.signInAs(t.deps.db, target.id);
    const signin = await signIn(target.email);
    expect(signin.statusCode).toBe(200);
    const bearer = signin.json().response.token as string;
    const own = () =>
      t.app.inject({
        method: "POST",
        url: "/api/user",
        headers: { authorization: `Bearer ${bearer}` },
        payload: { user_id: target.id },
      });
    expect((await own()).statusCode).toBe(200);
    expect((await cookie.post("/api/user", { user_id: target.id })).statusCode).toBe(200);

    const until = new Date(Date.now() + 10 * DAY_MS).toISOString().slice(0, 10);
    const response = await mod.client.post("/api/admin/suspend", {
      user_id: target.id,
      reason: "Posting spam links",
      until,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      status: "suspended",
      suspended_until: `${until}T00:00:00.000Z`,
      suspension_reason: "Posting spam links",
    });

    expect((await own()).statusCode).toBe(401);
    const cookieCall = await cookie.post("/api/user", { user_id: target.id });
    expect(cookieCall.statusCode).toBe(401);
    expect(cookie.cookies.has(SESSION_COOKIE)).toBe(false);
    const sessions = await t.deps.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", target.id)
      .execute();
    expect(sessions).toEqual([]);

    const refused = await signIn(target.email);
    expect(refused.statusCode).toBe(403);
    const ends = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(new Date(`${until}T00:00:00Z`));
    expect(refused.json()).toMatchObject({
      status: "False",
      message: `Your account is suspended until ${ends}: Posting spam links`,
      suspended: true,
    });
    expect(refused.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    const [entry] = await auditOf(target.id);
    expect(entry).toMatchObject({
      actor_id: mod.id,
      action: "user.suspend",
      reason: "Posting spam links",
      before: { suspended_at: null, suspended_until: null, suspension_reason: "" },
      after: { suspended_until: `${until}T00:00:00.000Z`, suspension_reason: "Posting spam links" },
    });
  });

  it("without an end date says so, and a wrong password still gets the usual answer", async () => {
    const mod = await signedIn("moderator");
    const target = await member();
    await mod.client.post("/api/admin/suspend", { user_id: target.id, reason: "Abuse" });
    const refused = await signIn(target.email);
    expect(refused.json()).toMatchObject({
      status: "False",
      message: "Your account is suspended: Abuse",
    });
    // The reason is for the account's owner: without the password nothing is told.
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/signin",
      payload: { email: target.email, password: "Wrong#Pass42" },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe("These credentials do not match our records.");
  });

  it("lets the person in again once the end has passed, or once lifted", async () => {
    const mod = await signedIn("moderator");
    const ended = await member();
    await t.deps.db
      .updateTable("users")
      .set({
        suspended_at: new Date(Date.now() - 2 * DAY_MS),
        suspended_until: new Date(Date.now() - 1000),
        suspension_reason: "Cooling off",
      })
      .where("id", "=", ended.id)
      .execute();
    expect((await signIn(ended.email)).statusCode).toBe(200);

    const lifted = await member();
    await mod.client.post("/api/admin/suspend", { user_id: lifted.id, reason: "Mistake" });
    expect((await signIn(lifted.email)).statusCode).toBe(403);
    const unsuspend = await mod.client.post("/api/admin/unsuspend", { user_id: lifted.id });
    expect(unsuspend.statusCode).toBe(200);
    expect(unsuspend.json()).toMatchObject({
      message: `${lifted.name} can sign in again.`,
      user: { status: "active", suspended_until: null, suspension_reason: "" },
    });
    expect((await signIn(lifted.email)).statusCode).toBe(200);
    expect((await auditOf(lifted.id)).map((entry) => entry.action)).toEqual([
      "user.suspend",
      "user.unsuspend",
    ]);

    const again = await mod.client.post("/api/admin/unsuspend", { user_id: lifted.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(USER_POLICY_MESSAGES.notSuspended);
  });

  it("never signs a suspended person in through a password reset", async () => {
    const mod = await signedIn("moderator");
    const target = await member();
    await mod.client.post("/api/admin/suspend", { user_id: target.id, reason: "Abuse" });
    const code = `reset-code-${counter}-${Date.now()}-0123456789abcdef`;
    await insertEmailToken(t.deps.db, {
      userId: target.id,
      purpose: "reset",
      tokenHash: hashToken(code),
      expiresAt: new Date(Date.now() + 60_000),
    });
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/reset_password",
      payload: { token: code, password: "New#Password42", password_confirmation: "New#Password42" },
    });
    expect(reset.statusCode).toBe(200);
    const signin = await t.app.inject({
      method: "POST",
      url: "/api/signin",
      payload: { email: target.email, password: "New#Password42" },
    });
    expect(signin.statusCode).toBe(403);
    const sessions = await t.deps.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", target.id)
      .execute();
    expect(sessions).toEqual([]);
  });

  it("refuses a past end, a moderator suspending an administrator, and suspending oneself", async () => {
    const mod = await signedIn("moderator");
    const target = await member();
    const past = await mod.client.post("/api/admin/suspend", {
      user_id: target.id,
      reason: "Spam",
      until: "2001-01-01",
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors).toEqual({ until: USER_MESSAGES.untilPast });
    const notADate = await mod.client.post("/api/admin/suspend", {
      user_id: target.id,
      reason: "Spam",
      until: "2030-02-31",
    });
    expect(notADate.json().errors).toEqual({ until: USER_MESSAGES.until });
    const noReason = await mod.client.post("/api/admin/suspend", { user_id: target.id });
    expect(noReason.json().errors).toEqual({ reason: USER_MESSAGES.reasonRequired });

    const admin = await signedIn("admin");
    const upward = await mod.client.post("/api/admin/suspend", {
      user_id: admin.id,
      reason: "Coup",
    });
    expect(upward.statusCode).toBe(403);
    expect(upward.json().message).toBe(USER_POLICY_MESSAGES.suspendAdmin);
    const self = await admin.client.post("/api/admin/suspend", {
      user_id: admin.id,
      reason: "Holiday",
    });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe(USER_POLICY_MESSAGES.suspendSelf);

    expect((await userRow(target.id)).suspended_at).toBeNull();
    expect((await userRow(admin.id)).suspended_at).toBeNull();

    const otherAdmin = await signedIn("admin");
    const byAdmin = await admin.client.post("/api/admin/suspend", {
      user_id: otherAdmin.id,
      reason: "Compromised account",
    });
    expect(byAdmin.statusCode).toBe(200);
    // The suspended administrator's own console calls stop at once.
    expect((await otherAdmin.client.get("/api/admin/users")).statusCode).toBe(401);
  });
});

describe("the users service", () => {
  it("checks the actor again inside the change: a role lost since the request was read counts", async () => {
    const admin = await signedIn("admin");
    const target = await member();
    const user = await t.deps.db
      .selectFrom("users")
      .select(["id", "name", "email", "image_url", "user_type"])
      .where("id", "=", admin.id)
      .executeTakeFirstOrThrow();
    // The request saw an administrator; another administrator has demoted them since.
    const asSeen = { ...user, email_verified: true, role: "admin" as const, sessionId: 0 };
    await t.deps.db
      .updateTable("users")
      .set({ role: "member" })
      .where("id", "=", admin.id)
      .execute();
    await expect(
      t.services.users.suspend(asSeen, { user_id: target.id, reason: "Spam", until: undefined }),
    ).rejects.toThrow("Only moderators and administrators can do that.");
    await expect(
      t.services.users.deleteUser(asSeen, { user_id: target.id, reason: "" }),
    ).rejects.toThrow("Only an administrator can do that.");
    const row = await userRow(target.id);
    expect(row.suspended_at).toBeNull();
    expect(row.deleted_at).toBeNull();
  });
});

describe("POST /api/admin/users/verified_educator", () => {
  it("marks and unmarks, audited", async () => {
    const mod = await signedIn("moderator");
    const target = await member();
    const mark = await mod.client.post("/api/admin/users/verified_educator", {
      user_id: target.id,
      verified: true,
    });
    expect(mark.statusCode).toBe(200);
    expect(mark.json().user.verified_educator).toBe(true);
    expect((await userRow(target.id)).verified_educator).toBe(true);
    const unmark = await mod.client.post("/api/admin/users/verified_educator", {
      user_id: target.id,
      verified: "false",
    });
    expect(unmark.json().user.verified_educator).toBe(false);
    expect((await auditOf(target.id)).map((e) => [e.action, e.before, e.after])).toEqual([
      ["user.verify_educator", { verified_educator: false }, { verified_educator: true }],
      ["user.unverify_educator", { verified_educator: true }, { verified_educator: false }],
    ]);
  });
});

describe("POST /api/admin/users/delete", () => {
  it("anonymises the account as self-deletion does, keeping its posts, audited", async () => {
    const admin = await signedIn("admin");
    const target = await member("Delete Me");
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, target.id);
    const post = await t.deps.db
      .insertInto("posts")
      .values({
        unique_id: `del${counter}x${Date.now() % 1e6}`,
        slug: "kept-post",
        post_type: "g",
        kind: "discussion",
        status: "active",
        user_id: target.id,
        forum_category_id: null,
        store_id: null,
        category_id: null,
        title: "A post that stays",
        price: null,
        list_price: null,
        discount: null,
        created_at: new Date(),
        updated_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    const mod = await signedIn("moderator");
    expect(
      (await mod.client.post("/api/admin/users/delete", { user_id: target.id })).statusCode,
    ).toBe(403);

    const response = await admin.client.post("/api/admin/users/delete", {
      user_id: target.id,
      reason: "Spam account",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "true",
      message: "The account has been deleted.",
      user_id: target.id,
    });
    const row = await userRow(target.id);
    expect(row).toMatchObject({ name: "Deleted user", password_hash: null });
    expect(row.email).toMatch(new RegExp(`^deleted-user-${target.id}-[0-9a-f]{12}$`));
    expect(row.deleted_at).not.toBeNull();
    expect((await client.post("/api/user", { user_id: target.id })).statusCode).toBe(401);
    const kept = await t.deps.db
      .selectFrom("posts")
      .select("user_id")
      .where("id", "=", post.id)
      .executeTakeFirstOrThrow();
    expect(kept.user_id).toBe(target.id);
    const [entry] = await auditOf(target.id);
    expect(entry).toMatchObject({
      actor_id: admin.id,
      action: "user.delete",
      reason: "Spam account",
      before: { deleted: false, role: "member" },
      after: { deleted: true },
    });
    expect(JSON.stringify(entry)).not.toContain(target.email);

    const listed = await admin.client.get(`/api/admin/users?q=${target.id}&status=deleted`);
    expect(listed.json().users[0]).toMatchObject({ id: target.id, status: "deleted", email: "" });
    const twice = await admin.client.post("/api/admin/users/delete", { user_id: target.id });
    expect(twice.statusCode).toBe(409);
  });

  it("refuses an administrator's own account, which is deleted from the profile", async () => {
    const admin = await signedIn("admin");
    const self = await admin.client.post("/api/admin/users/delete", { user_id: admin.id });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe(USER_POLICY_MESSAGES.deleteSelf);
    expect((await userRow(admin.id)).deleted_at).toBeNull();
    expect(await auditOf(admin.id)).toEqual([]);
  });
});
