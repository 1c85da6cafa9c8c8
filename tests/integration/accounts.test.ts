import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES as M } from "../../core/people/accounts/schema.ts";
import { findSessionUser } from "../../core/auth/sessions.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { DEMO_PASSWORD } from "../../db/demo/seed.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

/** A demo member with posts, comments, likes and follows in both directions. */
async function busyMember() {
  const row = await t.deps.db
    .selectFrom("users")
    .select(["users.id", "users.email"])
    .where("users.deleted_at", "is", null)
    .where((eb) =>
      eb.exists(
        eb.selectFrom("posts").select("posts.id").whereRef("posts.user_id", "=", "users.id"),
      ),
    )
    .where((eb) =>
      eb.exists(
        eb.selectFrom("likes").select("likes.post_id").whereRef("likes.user_id", "=", "users.id"),
      ),
    )
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("follows")
          .select("follows.followee_id")
          .whereRef("follows.follower_id", "=", "users.id"),
      ),
    )
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("follows")
          .select("follows.follower_id")
          .whereRef("follows.followee_id", "=", "users.id"),
      ),
    )
    .orderBy("users.id", "desc")
    .executeTakeFirstOrThrow();
  return row;
}

async function signIn(email: string, password = DEMO_PASSWORD) {
  const client = new TestClient(t.app);
  await client.get("/api/general_settings");
  const response = await client.post("/api/signin", { email, password });
  expect(response.statusCode).toBe(200);
  return {
    client,
    token: response.json().response.token as string,
    userId: response.json().response.user_id as number,
  };
}

describe("POST /api/user_deleted", () => {
  it("needs a session (401), refuses someone else's user_id (403) and a missing XSRF header (403)", async () => {
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/api/user_deleted",
      payload: { user_id: 2 },
    });
    expect(anonymous.statusCode).toBe(401);

    const member = await busyMember();
    const { client, userId } = await signIn(member.email);
    const other = await client.post("/api/user_deleted", { user_id: userId === 1 ? 2 : 1 });
    expect(other.statusCode).toBe(403);
    const noXsrf = await client.post("/api/user_deleted", { user_id: userId }, { xsrf: false });
    expect(noXsrf.statusCode).toBe(403);
    const still = await t.deps.db
      .selectFrom("users")
      .select("deleted_at")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(still.deleted_at).toBeNull();
  });

  it("needs a fresh sign-in", async () => {
    const member = await busyMember();
    const { client, userId } = await signIn(member.email);
    await t.deps.db
      .updateTable("sessions")
      .set({ created_at: new Date(Date.now() - 60 * 60 * 1000) })
      .where("user_id", "=", userId)
      .execute();
    const stale = await client.post("/api/user_deleted", { user_id: userId });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().message).toBe(M.deleteNeedsRecentSignin);
  });

  it("removes personal data, keeps posts and comments under 'Deleted user', ends every session", async () => {
    const { db } = t.deps;
    const member = await busyMember();
    const otherDevice = await signIn(member.email);
    const { client, userId, token } = await signIn(member.email);
    await db
      .insertInto("oauth_accounts")
      .values({ user_id: userId, provider: "google", provider_user_id: "g-123" })
      .execute();
    await db
      .insertInto("email_tokens")
      .values({
        user_id: userId,
        purpose: "reset",
        token_hash: `h-${userId}`,
        expires_at: new Date(Date.now() + 60_000),
      })
      .execute();

    const likedPosts = await db
      .selectFrom("likes")
      .select("post_id")
      .where("user_id", "=", userId)
      .execute();
    const postsBefore = await db
      .selectFrom("posts")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    const commentsBefore = await db
      .selectFrom("comments")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();

    const response = await client.post("/api/user_deleted", { user_id: userId });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "true",
      message: "User deleted successfully.",
      data: { response: { user_id: userId } },
    });
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);

    const row = await db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: "Deleted user",
      password_hash: null,
      image_url: null,
      dob: null,
      gender: null,
      biography: "",
      mobile: "",
      website: "",
      address: "",
      email_verified_at: null,
    });
    expect(row.deleted_at).not.toBeNull();
    expect(row.email).not.toContain("@");
    expect(row.email).not.toContain(member.email.split("@")[0]!);

    for (const table of [
      "oauth_accounts",
      "email_tokens",
      "subscriptions",
      "sessions",
      "likes",
    ] as const) {
      const left = await db
        .selectFrom(table)
        .select(sql<number>`count(*)::int`.as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      expect(left.n, table).toBe(0);
    }
    const follows = await db
      .selectFrom("follows")
      .select(sql<number>`count(*)::int`.as("n"))
      .where((eb) => eb.or([eb("follower_id", "=", userId), eb("followee_id", "=", userId)]))
      .executeTakeFirstOrThrow();
    expect(follows.n).toBe(0);

    // Counts of the posts they had liked are recounted from what is left.
    for (const { post_id } of likedPosts) {
      const post = await db
        .selectFrom("posts")
        .select(["likes_count", "unlikes_count"])
        .where("id", "=", post_id)
        .executeTakeFirstOrThrow();
      const counted = await db
        .selectFrom("likes")
        .select([
          sql<number>`count(*) FILTER (WHERE reaction = 'like')::int`.as("likes"),
          sql<number>`count(*) FILTER (WHERE reaction = 'unlike')::int`.as("unlikes"),
        ])
        .where("post_id", "=", post_id)
        .executeTakeFirstOrThrow();
      expect(post.likes_count).toBe(counted.likes);
      expect(post.unlikes_count).toBe(counted.unlikes);
    }

    // Posts and comments stay, attributed to the anonymous row.
    const postsAfter = await db
      .selectFrom("posts")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    const commentsAfter = await db
      .selectFrom("comments")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(postsAfter.n).toBe(postsBefore.n);
    expect(commentsAfter.n).toBe(commentsBefore.n);

    // Neither the old sessions nor the old password work.
    expect(await findSessionUser(db, token)).toBeNull();
    expect(await findSessionUser(db, otherDevice.token)).toBeNull();
    const bearer = await t.app.inject({
      method: "POST",
      url: "/api/change_password",
      payload: {
        old_password: DEMO_PASSWORD,
        new_password: "New#Chalk77",
        new_password_confirmation: "New#Chalk77",
      },
      headers: { authorization: `Bearer ${otherDevice.token}` },
    });
    expect(bearer.statusCode).toBe(401);
    const oldCookie = await t.app.inject({
      method: "GET",
      url: "/api/general_settings",
      cookies: { [SESSION_COOKIE]: token },
    });
    expect(oldCookie.statusCode).toBe(200);
    expect(oldCookie.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? "").toBe("");
    const signin = await t.app.inject({
      method: "POST",
      url: "/api/signin",
      payload: { email: member.email, password: DEMO_PASSWORD },
    });
    expect(signin.statusCode).toBe(401);
    expect(signin.json().status).toBe("False");
    const forgot = await t.app.inject({
      method: "POST",
      url: "/api/forgot_password",
      payload: { email: member.email },
    });
    expect(forgot.json()).toEqual({ status: "false", message: "Not Email id Found." });

    // The address is free for a new account.
    const again = await t.app.inject({
      method: "POST",
      url: "/api/signup",
      payload: { name: "Back Again", email: member.email, password: "Chalk#Board42" },
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().response.user_id).not.toBe(userId);
  });
});
