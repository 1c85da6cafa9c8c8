import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * What the public site shows of hidden items (record 0031): a hidden deal, discussion and comment
 * leave every public read at once — pages, JSON calls, counts, feeds, the sitemap, search — and
 * only their authors and moderators still open them, with a banner. Every surface is read before
 * and after, so each check can fail. Needs the production build (`pages: true`).
 */

let t: TestApp;
let moderator: TestClient;
const visitor = () => {
  const client = new TestClient(t.app);
  // A returning visitor (the first visit's cookie makes pages private, not different).
  client.cookies.set(XSRF_COOKIE, "returning-visitor-xsrf-token");
  return client;
};

interface Post {
  id: number;
  unique_id: string;
  slug: string;
  title: string;
  user_id: number | null;
  store_slug: string;
  store_id: number | null;
  category_slug: string;
  category_id: number | null;
}

let deal: Post;
let discussion: Post;
let comment: { id: number; text: string; userId: number; post: Post };

async function newestLive(type: "d" | "g", except: number[] = []): Promise<Post> {
  return t.deps.db
    .selectFrom("posts")
    .leftJoin("stores", "stores.id", "posts.store_id")
    .leftJoin("categories", "categories.id", "posts.category_id")
    .select([
      "posts.id",
      "posts.unique_id",
      "posts.slug",
      "posts.title",
      "posts.user_id",
      "posts.store_id",
      "posts.category_id",
      (eb) => eb.fn.coalesce("stores.slug", eb.val("")).as("store_slug"),
      (eb) => eb.fn.coalesce("categories.slug", eb.val("")).as("category_slug"),
    ])
    .where("posts.status", "=", "active")
    .where("posts.post_type", "=", type)
    .where("posts.user_id", "is not", null)
    .where("posts.id", "not in", [0, ...except])
    .where((eb) =>
      eb.or([eb("posts.expires_at", "is", null), eb("posts.expires_at", ">", new Date())]),
    )
    .orderBy("posts.created_at", "desc")
    .orderBy("posts.id", "desc")
    .executeTakeFirstOrThrow();
}

const pathOf = (post: Post, type: "d" | "g") =>
  `${type === "d" ? "/post" : "/educator"}/${post.unique_id}/${post.slug}`;

async function text(client: TestClient, url: string, payload?: Record<string, unknown>) {
  const response = payload ? await client.post(url, payload) : await client.get(url);
  expect(response.statusCode, `${url} ${response.body.slice(0, 200)}`).toBe(200);
  return response.body;
}

/** Every public surface that lists deals, read by a visitor: does it show the deal? */
function dealSurfaces(post: Post) {
  const v = visitor();
  return {
    "home (JSON)": () => text(v, "/api/home", { user_id: "" }),
    "home page": () => text(v, "/"),
    "new deals page": () => text(v, "/newdeals"),
    "all deals (JSON)": () => text(v, "/api/category_page", { slug: "", type: "d", page: 1 }),
    "store page": () => text(v, `/store/${post.store_slug}`),
    "store listing (JSON)": () =>
      text(v, "/api/category_page", { slug: post.store_slug, type: "store", page: 1 }),
    "category page": () => text(v, `/category/${post.category_slug}`),
    "category filter (JSON)": () =>
      text(v, "/api/filter", {
        store_id: "",
        category_id: post.category_id,
        page: 1,
        filter_type: "category",
        search_title: "",
      }),
    "search page": () => text(v, `/search?query=${encodeURIComponent(post.title)}`),
    "search (JSON)": () =>
      text(v, "/api/filter", {
        store_id: "",
        category_id: "",
        page: 1,
        filter_type: "search",
        search_title: post.title,
      }),
    "new deals feed": () => text(v, "/rss/newdeals.xml"),
    "store feed": () => text(v, `/rss/store/${post.store_slug}.xml`),
    "category feed": () => text(v, `/rss/category/${post.category_slug}.xml`),
    "deals sitemap": () => text(v, "/sitemaps/deals-0.xml"),
    "author's profile (JSON)": () =>
      text(v, "/api/user_profile", { loggedin_user_id: "", user_id: post.user_id, page: 1 }),
    "author's profile page": () => text(v, `/profile/${post.user_id}`),
  };
}

function discussionSurfaces() {
  const v = visitor();
  return {
    "educators forum page": () => text(v, "/educator"),
    "educators forum (JSON)": () =>
      text(v, "/api/category_page", { slug: "educators", type: "g", page: 1 }),
    "forum sitemap": () => text(v, "/sitemaps/forum-0.xml"),
  };
}

async function shows(surfaces: Record<string, () => Promise<string>>, needle: string) {
  const found: Record<string, boolean> = {};
  for (const [name, read] of Object.entries(surfaces))
    found[name] = (await read()).includes(needle);
  return found;
}

const allTrue = (names: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(names).map((name) => [name, true]));
const allFalse = (names: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(names).map((name) => [name, false]));

/** The counts the public sees: forum post counts and the author's deal count. */
async function counts(post: Post) {
  const forums = (await visitor().get("/api/forums")).json().froum_list as {
    type: string;
    posts: number;
  }[];
  const profile = (
    await visitor().post("/api/user_profile", {
      loggedin_user_id: "",
      user_id: post.user_id,
      page: 1,
    })
  ).json().response.user_data;
  return {
    deals: forums.find((f) => f.type === "d")!.posts,
    discussions: forums.find((f) => f.type === "g")!.posts,
    authorDeals: profile.deal_count + profile.coupon_count,
  };
}

async function commentsCount(postId: number) {
  const row = await t.deps.db
    .selectFrom("posts")
    .select("comments_count")
    .where("id", "=", postId)
    .executeTakeFirstOrThrow();
  return row.comments_count;
}

beforeAll(async () => {
  t = await createTestApp({ pages: true });
  const moderatorId = await createTestUser(t.deps.db, { name: "Vera Visibility" });
  await t.deps.db
    .updateTable("users")
    .set({ role: "moderator" })
    .where("id", "=", moderatorId)
    .execute();
  moderator = new TestClient(t.app);
  await moderator.signInAs(t.deps.db, moderatorId);

  deal = await newestLive("d");
  discussion = await newestLive("g");
  // A fresh comment, with words found nowhere else, on another discussion.
  const commented = await newestLive("g", [discussion.id]);
  const userId = await createTestUser(t.deps.db, { name: "Quentin Quibble" });
  const author = new TestClient(t.app);
  await author.signInAs(t.deps.db, userId);
  const words = "Zebra-striped contraband marmalade";
  const posted = await author.post("/api/product_add_comment", {
    user_id: userId,
    post_id: commented.id,
    post_type: "g",
    comment_id: "",
    comment_text: words,
  });
  expect(posted.statusCode).toBe(201);
  comment = { id: posted.json().comment.id, text: words, userId, post: commented };
});
afterAll(async () => {
  await t?.close();
});

describe("hidden items leave every public surface at once", () => {
  it("a hidden deal, discussion and comment are gone for the public, counts included", async () => {
    const dealSeen = dealSurfaces(deal);
    const forumSeen = discussionSurfaces();
    const commentPage = () => text(visitor(), pathOf(comment.post, "g"));
    const commentJson = () =>
      text(visitor(), "/api/product_details", {
        unique_id: comment.post.unique_id,
        type: "g",
        user_id: "",
      });

    // Before: everything shows them (so the checks below can fail).
    expect(await shows(dealSeen, deal.unique_id)).toEqual(allTrue(dealSeen));
    expect(await shows(forumSeen, discussion.unique_id)).toEqual(allTrue(forumSeen));
    expect(await commentPage()).toContain(comment.text);
    expect(await commentJson()).toContain(comment.text);
    const before = await counts(deal);
    const commentsBefore = await commentsCount(comment.post.id);

    for (const [type, id] of [
      ["d", deal.unique_id],
      ["g", discussion.unique_id],
      ["comment", comment.id],
    ] as const) {
      const answer = await moderator.post("/api/admin/moderate", {
        item_type: type,
        item_id: id,
        action: "hide",
        reason: "Checking",
      });
      expect(answer.statusCode).toBe(200);
    }

    // After: gone everywhere, at the next request (the caches dropped on the change).
    expect(await shows(dealSeen, deal.unique_id)).toEqual(allFalse(dealSeen));
    expect(await shows(forumSeen, discussion.unique_id)).toEqual(allFalse(forumSeen));
    expect(await commentPage()).not.toContain(comment.text);
    expect(await commentJson()).not.toContain(comment.text);
    expect(await counts(deal)).toEqual({
      deals: before.deals - 1,
      discussions: before.discussions - 1,
      authorDeals: before.authorDeals - 1,
    });
    expect(await commentsCount(comment.post.id)).toBe(commentsBefore - 1);

    // The posts themselves are 404 to visitors and other members, page and JSON alike.
    const member = new TestClient(t.app);
    await member.signInAs(t.deps.db, await createTestUser(t.deps.db));
    for (const client of [visitor(), member]) {
      for (const [post, type] of [
        [deal, "d"],
        [discussion, "g"],
      ] as const) {
        expect((await client.get(pathOf(post, type))).statusCode).toBe(404);
        const json = await client.post("/api/product_details", {
          unique_id: post.unique_id,
          type,
          user_id: "",
        });
        expect(json.statusCode).toBe(404);
      }
    }

    // Restored, they are back at once.
    for (const [type, id] of [
      ["d", deal.unique_id],
      ["g", discussion.unique_id],
      ["comment", comment.id],
    ] as const) {
      await moderator.post("/api/admin/moderate", {
        item_type: type,
        item_id: id,
        action: "restore",
      });
    }
    expect(await shows(dealSeen, deal.unique_id)).toEqual(allTrue(dealSeen));
    expect(await shows(forumSeen, discussion.unique_id)).toEqual(allTrue(forumSeen));
    expect(await commentPage()).toContain(comment.text);
    expect(await counts(deal)).toEqual(before);
    expect(await commentsCount(comment.post.id)).toBe(commentsBefore);
  });

  it("the author and moderators still see a hidden post and comment in place, with a banner", async () => {
    await moderator.post("/api/admin/moderate", {
      item_type: "d",
      item_id: deal.unique_id,
      action: "remove",
      reason: "Expired long ago",
    });
    await moderator.post("/api/admin/moderate", {
      item_type: "comment",
      item_id: comment.id,
      action: "hide",
    });

    const dealAuthor = new TestClient(t.app);
    await dealAuthor.signInAs(t.deps.db, deal.user_id!);
    for (const client of [dealAuthor, moderator]) {
      const page = await client.get(pathOf(deal, "d"));
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('class="moderation-banner"');
      expect(page.body).toContain("Removed by a moderator: Expired long ago");
      // Never cached for anyone else.
      expect(page.headers["cache-control"]).toBe("private, no-cache");
    }

    const commentAuthor = new TestClient(t.app);
    await commentAuthor.signInAs(t.deps.db, comment.userId);
    for (const client of [commentAuthor, moderator]) {
      const page = await client.get(pathOf(comment.post, "g"));
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(comment.text);
      expect(page.body).toContain("Hidden pending review");
      const json = (
        await client.post("/api/product_details", {
          unique_id: comment.post.unique_id,
          type: "g",
          user_id: "",
        })
      ).json();
      const shown = json.response.comments.find((c: { id: number }) => c.id === comment.id);
      expect(shown.moderation).toEqual({
        status: "hidden",
        label: "Hidden pending review",
        reason: "",
      });
    }
    // Someone else sees neither the comment nor a banner about it.
    const other = await text(visitor(), pathOf(comment.post, "g"));
    expect(other).not.toContain(comment.text);
    expect(other).not.toContain("Hidden pending review");

    await moderator.post("/api/admin/moderate", {
      item_type: "d",
      item_id: deal.unique_id,
      action: "restore",
    });
    await moderator.post("/api/admin/moderate", {
      item_type: "comment",
      item_id: comment.id,
      action: "restore",
    });
  });

  it("a hidden comment with replies leaves a placeholder, so the replies keep their place", async () => {
    const replier = await createTestUser(t.deps.db, { name: "Rory Replier" });
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, replier);
    const reply = await client.post("/api/product_add_comment", {
      user_id: replier,
      post_id: comment.post.id,
      post_type: "g",
      comment_id: comment.id,
      comment_text: "Quite right about the marmalade",
    });
    expect(reply.statusCode).toBe(201);
    await moderator.post("/api/admin/moderate", {
      item_type: "comment",
      item_id: comment.id,
      action: "remove",
      reason: "Nonsense",
    });
    const json = (
      await visitor().post("/api/product_details", {
        unique_id: comment.post.unique_id,
        type: "g",
        user_id: "",
      })
    ).json();
    const placeholder = json.response.comments.find((c: { id: number }) => c.id === comment.id);
    expect(placeholder).toMatchObject({
      is_deleted: true,
      user_id: null,
      user_name: "",
      message: "<p>This comment was removed by a moderator.</p>",
    });
    expect(placeholder).not.toHaveProperty("moderation");
    expect(placeholder.comments_replies[0].message).toContain("Quite right about the marmalade");
    expect(JSON.stringify(json)).not.toContain(comment.text);
  });
});
