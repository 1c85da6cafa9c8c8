import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

interface ForumJson {
  title: string;
  posts: number;
  detail: string;
  type: "g" | "d";
}

describe("GET /api/forums", () => {
  it("lists the forums as froum_list, each with the number of live posts of its type", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/forums" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe("true");
    const forums: ForumJson[] = body.froum_list;
    expect(forums.map((f) => f.type)).toEqual(["g", "d"]);

    const counts = await t.deps.db
      .selectFrom("posts")
      .select(["post_type", sql<number>`count(*)::int`.as("n")])
      .where("status", "=", "active")
      .groupBy("post_type")
      .execute();
    for (const forum of forums) {
      expect(forum.title).toBeTruthy();
      expect(forum.detail).toBeTruthy();
      expect(forum.posts).toBe(counts.find((c) => c.post_type === forum.type)?.n);
      expect(forum.posts).toBeGreaterThan(0);
    }
  });

  it("counts what the forum's page lists: the educators forum as /educator does", async () => {
    const forums: ForumJson[] = (await t.app.inject({ method: "GET", url: "/api/forums" })).json()
      .froum_list;
    const educators = await t.app.inject({
      method: "POST",
      url: "/api/category_page",
      payload: { type: "g", slug: "educators", page: 1 },
    });
    expect(forums.find((f) => f.type === "g")!.posts).toBe(
      educators.json().response.deal_data_pagination.total,
    );
  });

  it("is a cacheable public answer", async () => {
    // A returning visitor: a first visit sets the XSRF cookie and so is never public (0027).
    const cookies = { [XSRF_COOKIE]: "returning-visitor-xsrf-token" };
    const first = await t.app.inject({ method: "GET", url: "/api/forums", cookies });
    expect(first.headers["cache-control"]).toMatch(/public/);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({
      method: "GET",
      url: "/api/forums",
      cookies,
      headers: { "if-none-match": etag },
    });
    expect(again.statusCode).toBe(304);
  });

  it("leaves removed posts out of the counts once writers drop the cached counts", async () => {
    const before: ForumJson[] = (await t.app.inject({ method: "GET", url: "/api/forums" })).json()
      .froum_list;
    const victim = await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where("post_type", "=", "g")
      // A public one: the demo data also holds a newcomer's discussion for review (record 0031).
      .where("status", "=", "active")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    await t.deps.db
      .updateTable("posts")
      .set({ status: "removed" })
      .where("id", "=", victim.id)
      .execute();
    t.deps.changes.emit("posts");
    const after: ForumJson[] = (await t.app.inject({ method: "GET", url: "/api/forums" })).json()
      .froum_list;
    expect(after.find((f) => f.type === "g")!.posts).toBe(
      before.find((f) => f.type === "g")!.posts - 1,
    );
    expect(after.find((f) => f.type === "d")!.posts).toBe(
      before.find((f) => f.type === "d")!.posts,
    );
    await t.deps.db
      .updateTable("posts")
      .set({ status: "active" })
      .where("id", "=", victim.id)
      .execute();
    t.deps.changes.emit("posts");
  });
});
