import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

let t: TestApp;
let alice: number;
let bob: number;
let aliceClient: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createTestUser(t.deps.db, { name: "Alice Follower" });
  bob = await createTestUser(t.deps.db, { name: "Bob Followee" });
  aliceClient = new TestClient(t.app);
  await aliceClient.signInAs(t.deps.db, alice);
});
afterAll(async () => {
  await t?.close();
});

async function followRow(followerId: number, followeeId: number) {
  return t.deps.db
    .selectFrom("follows")
    .selectAll()
    .where("follower_id", "=", followerId)
    .where("followee_id", "=", followeeId)
    .executeTakeFirst();
}

function follow(client: TestClient, payload: Record<string, unknown>, extra?: { xsrf?: boolean }) {
  return client.post("/api/profile_follow", payload, extra);
}

describe("POST /api/profile_follow", () => {
  it("'Follow' follows, answers is_follow 1 and the new follower count; repeating changes nothing", async () => {
    const first = await follow(aliceClient, {
      loggedin_user_id: alice,
      user_id: bob,
      status: "Follow",
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      status: "true",
      message: "You are now following Bob Followee.",
      is_follow: 1,
      followers: 1,
    });
    expect(await followRow(alice, bob)).toBeDefined();

    const again = await follow(aliceClient, {
      loggedin_user_id: alice,
      user_id: bob,
      status: "Follow",
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().followers).toBe(1);
  });

  it("the followee's public profile shows is_follow 1 to the follower and 0 to a visitor", async () => {
    const asFollower = await aliceClient.post("/api/user_profile", {
      loggedin_user_id: alice,
      user_id: bob,
    });
    expect(asFollower.json().response.user_data).toMatchObject({ is_follow: 1, followers: 1 });
    expect(asFollower.json().response.followers_data).toEqual([
      { id: alice, user_id: alice, user_image: "", name: "Alice Follower" },
    ]);

    const asVisitor = await t.app.inject({
      method: "POST",
      url: "/api/user_profile",
      payload: { loggedin_user_id: "", user_id: bob },
    });
    expect(asVisitor.json().response.user_data).toMatchObject({ is_follow: 0, followers: 1 });
  });

  it("the follower's dashboard lists the followee among followings", async () => {
    const dashboard = await aliceClient.post("/api/user_dashboard", { user_id: alice });
    const { user_data, followings_data } = dashboard.json().response;
    expect(user_data.followings).toBe(1);
    expect(followings_data).toEqual([
      { id: bob, user_id: bob, user_image: "", name: "Bob Followee" },
    ]);
  });

  it("'UN FOLLOW' stops following and answers is_follow 0; the button's upper-case labels work too", async () => {
    const response = await follow(aliceClient, {
      loggedin_user_id: alice,
      user_id: bob,
      status: "UN FOLLOW",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: "true", is_follow: 0, followers: 0 });
    expect(await followRow(alice, bob)).toBeUndefined();

    const upper = await follow(aliceClient, {
      loggedin_user_id: alice,
      user_id: bob,
      status: "FOLLOW",
    });
    expect(upper.json()).toMatchObject({ is_follow: 1, followers: 1 });
    const back = await follow(aliceClient, {
      loggedin_user_id: alice,
      user_id: bob,
      status: "unfollow",
    });
    expect(back.json()).toMatchObject({ is_follow: 0, followers: 0 });
  });

  it("refuses following oneself, an unknown or deleted user, and an unknown status", async () => {
    const self = await follow(aliceClient, {
      loggedin_user_id: alice,
      user_id: alice,
      status: "Follow",
    });
    expect(self.statusCode).toBe(422);
    expect(self.json()).toMatchObject({ status: false, message: "You cannot follow yourself." });

    const unknown = await follow(aliceClient, {
      loggedin_user_id: alice,
      user_id: 987654,
      status: "Follow",
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: "false", message: "No Data Found" });

    const gone = await createTestUser(t.deps.db);
    await t.deps.db
      .updateTable("users")
      .set({ deleted_at: new Date() })
      .where("id", "=", gone)
      .execute();
    const deleted = await follow(aliceClient, {
      loggedin_user_id: alice,
      user_id: gone,
      status: "Follow",
    });
    expect(deleted.statusCode).toBe(404);
    expect(await followRow(alice, gone)).toBeUndefined();

    const badStatus = await follow(aliceClient, {
      loggedin_user_id: alice,
      user_id: bob,
      status: "maybe",
    });
    expect(badStatus.statusCode).toBe(422);
    expect(badStatus.json().errors.status).toMatch(/Follow/);
  });

  it("a visitor is refused with 401, and nothing changes", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/profile_follow",
      payload: { loggedin_user_id: alice, user_id: bob, status: "Follow" },
    });
    expect(response.statusCode).toBe(401);
    expect(await followRow(alice, bob)).toBeUndefined();
  });

  it("a loggedin_user_id that is not the session's user is refused with 403", async () => {
    const response = await follow(aliceClient, {
      loggedin_user_id: bob,
      user_id: alice,
      status: "Follow",
    });
    expect(response.statusCode).toBe(403);
    expect(await followRow(bob, alice)).toBeUndefined();
  });

  it("a cookie-authenticated call without the XSRF header is refused with 403", async () => {
    const response = await follow(
      aliceClient,
      { loggedin_user_id: alice, user_id: bob, status: "Follow" },
      { xsrf: false },
    );
    expect(response.statusCode).toBe(403);
    expect(await followRow(alice, bob)).toBeUndefined();
  });
});
