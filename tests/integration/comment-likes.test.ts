import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recomputeReputation, scheduledRecompute } from "../../core/people/reputation/job.ts";
import { COMMENT_LIKE_POINTS } from "../../core/people/reputation/rules.ts";
import { OWN_COMMENT } from "../../core/posts/comments/likes/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertComment, insertPost } from "../helpers/console.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * Likes on comments (docs/decisions/0092-comment-likes.md): `POST /api/comment_like` toggles one
 * member's like on a live comment of a live post, never their own; the count on the comment stays
 * exact; the comment threads answer likes_count and the viewer's liked; and the reputation job
 * gives the author a point for each like from another member (record 0088).
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let author: { id: number; client: TestClient };
let liker: { id: number; client: TestClient };
let deal: { id: number; unique_id: string };

async function signIn(name: string) {
  const id = await createTestUser(t.deps.db, { name });
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, id);
  return { id, client };
}

const like = (who: { id: number; client: TestClient }, commentId: number, extra: Json = {}) =>
  who.client.post("/api/comment_like", { user_id: who.id, comment_id: commentId, ...extra });

async function storedCount(commentId: number) {
  const row = await t.deps.db
    .selectFrom("comments")
    .select("likes_count")
    .where("id", "=", commentId)
    .executeTakeFirstOrThrow();
  return row.likes_count;
}

async function likeRows(commentId: number) {
  return t.deps.db
    .selectFrom("comment_likes")
    .select("user_id")
    .where("comment_id", "=", commentId)
    .orderBy("user_id")
    .execute();
}

/** The post's comment tree as product_details answers it to `client`, flattened. */
async function threadOf(client: TestClient, uniqueId = deal.unique_id) {
  const response = await client.post("/api/product_details", { unique_id: uniqueId });
  expect(response.statusCode).toBe(200);
  const flat: Json[] = [];
  const walk = (list: Json[]) => {
    for (const comment of list) {
      flat.push(comment);
      walk(comment.comments_replies);
    }
  };
  walk(response.json().response.comments);
  return flat;
}

async function pointsOf(userId: number) {
  const row = await t.deps.db
    .selectFrom("member_reputation")
    .select("points")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.points ?? 0;
}

beforeAll(async () => {
  t = await createTestApp({ seed: "none" });
  author = await signIn("Comment Author");
  liker = await signIn("Comment Liker");
  deal = await insertPost(t.deps.db, { user_id: author.id, title: "A deal to talk about" });
});
afterAll(async () => {
  await t?.close();
});

describe("POST /api/comment_like", () => {
  it("likes, then takes the like back; the count follows", async () => {
    const comment = await insertComment(t.deps.db, { postId: deal.id, userId: author.id });
    const first = await like(liker, comment);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      status: "true",
      message: "You liked this comment.",
      liked: true,
      likes: 1,
    });
    expect(await storedCount(comment)).toBe(1);
    expect(await likeRows(comment)).toEqual([{ user_id: liker.id }]);

    const again = await like(liker, comment);
    expect(again.json()).toMatchObject({ liked: false, likes: 0 });
    expect(await storedCount(comment)).toBe(0);
    expect(await likeRows(comment)).toEqual([]);
  });

  it("with liked, sets that state: asked twice, the second press changes nothing", async () => {
    const comment = await insertComment(t.deps.db, { postId: deal.id, userId: author.id });
    for (let i = 0; i < 2; i++) {
      const answer = await like(liker, comment, { liked: true });
      expect(answer.json()).toMatchObject({ liked: true, likes: 1 });
    }
    expect(await storedCount(comment)).toBe(1);
    const off = await like(liker, comment, { liked: "0" });
    expect(off.json()).toMatchObject({ liked: false, likes: 0 });
    const bad = await like(liker, comment, { liked: "maybe" });
    expect(bad.statusCode).toBe(422);
  });

  it("keeps the count exact when many members like one comment at once", async () => {
    const comment = await insertComment(t.deps.db, { postId: deal.id, userId: author.id });
    const members = await Promise.all(
      Array.from({ length: 6 }, (_, i) => signIn(`Crowd Liker ${i}`)),
    );
    const answers = await Promise.all(members.map((m) => like(m, comment)));
    expect(answers.map((a) => a.statusCode)).toEqual(members.map(() => 200));
    expect(await storedCount(comment)).toBe(6);
    expect(Math.max(...answers.map((a) => a.json().likes))).toBe(6);
    await Promise.all(members.slice(0, 2).map((m) => like(m, comment)));
    expect(await storedCount(comment)).toBe(4);
    expect((await likeRows(comment)).length).toBe(4);
  });

  it("refuses one's own comment with a clear message, and counts nothing", async () => {
    const comment = await insertComment(t.deps.db, { postId: deal.id, userId: liker.id });
    const answer = await like(liker, comment);
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe(OWN_COMMENT);
    expect(await storedCount(comment)).toBe(0);
  });

  it("answers 404 for a deleted, hidden or removed comment, one on a removed post, or none", async () => {
    const db = t.deps.db;
    const deleted = await insertComment(db, { postId: deal.id, userId: author.id });
    await db
      .updateTable("comments")
      .set({ deleted_at: new Date() })
      .where("id", "=", deleted)
      .execute();
    const hidden = await insertComment(db, { postId: deal.id, userId: author.id });
    await db.updateTable("comments").set({ status: "hidden" }).where("id", "=", hidden).execute();
    const removed = await insertComment(db, { postId: deal.id, userId: author.id });
    await db.updateTable("comments").set({ status: "removed" }).where("id", "=", removed).execute();
    const gonePost = await insertPost(db, { user_id: author.id, title: "A removed deal" });
    const onGonePost = await insertComment(db, { postId: gonePost.id, userId: author.id });
    await db
      .updateTable("posts")
      .set({ status: "removed" })
      .where("id", "=", gonePost.id)
      .execute();

    for (const id of [deleted, hidden, removed, onGonePost, 987654321]) {
      const answer = await like(liker, id);
      expect(answer.statusCode, String(id)).toBe(404);
      expect(answer.json().message).toBe("This comment no longer exists.");
    }
    const rows = await db
      .selectFrom("comment_likes")
      .select("comment_id")
      .where("comment_id", "in", [deleted, hidden, removed, onGonePost])
      .execute();
    expect(rows).toEqual([]);
  });

  it("asks a visitor to sign in, and refuses acting as another member", async () => {
    const comment = await insertComment(t.deps.db, { postId: deal.id, userId: author.id });
    const visitor = new TestClient(t.app);
    expect((await visitor.post("/api/comment_like", { comment_id: comment })).statusCode).toBe(401);
    const posing = await liker.client.post("/api/comment_like", {
      user_id: author.id,
      comment_id: comment,
    });
    expect(posing.statusCode).toBe(403);
    expect(await storedCount(comment)).toBe(0);
    const missing = await liker.client.post("/api/comment_like", { user_id: liker.id });
    expect(missing.statusCode).toBe(422);
  });
});

describe("the comment threads", () => {
  it("answer likes_count on comments and replies, and liked to a signed-in viewer only", async () => {
    const post = await insertPost(t.deps.db, { user_id: author.id, title: "A thread of likes" });
    const top = await insertComment(t.deps.db, { postId: post.id, userId: author.id });
    const reply = await insertComment(t.deps.db, {
      postId: post.id,
      userId: author.id,
      parentId: top,
    });
    expect((await like(liker, reply)).statusCode).toBe(200);

    const seen = await threadOf(liker.client, post.unique_id);
    expect(seen.map((c) => [c.id, c.likes_count, c.liked])).toEqual([
      [top, 0, false],
      [reply, 1, true],
    ]);
    const byAuthor = await threadOf(author.client, post.unique_id);
    expect(byAuthor.map((c) => [c.likes_count, c.liked])).toEqual([
      [0, false],
      [1, false],
    ]);
    const anonymous = await threadOf(new TestClient(t.app), post.unique_id);
    expect(anonymous.map((c) => c.likes_count)).toEqual([0, 1]);
    expect(anonymous.every((c) => !("liked" in c))).toBe(true);

    // A deleted comment kept for its replies shows no likes.
    await like(liker, top);
    await t.deps.db
      .updateTable("comments")
      .set({ deleted_at: new Date() })
      .where("id", "=", top)
      .execute();
    const [placeholder] = await threadOf(liker.client, post.unique_id);
    expect(placeholder).toMatchObject({ id: top, is_deleted: true, likes_count: 0, liked: false });
  });
});

describe("reputation from likes on comments", () => {
  it("gives the author a point per like from another member, one ledger line per comment", async () => {
    const writer = await signIn("Liked Writer");
    const post = await insertPost(t.deps.db, { user_id: author.id, title: "Writer's thread" });
    const one = await insertComment(t.deps.db, { postId: post.id, userId: writer.id });
    const two = await insertComment(t.deps.db, { postId: post.id, userId: writer.id });
    const fans = await Promise.all([signIn("Fan A"), signIn("Fan B"), signIn("Fan C")]);
    for (const fan of fans) expect((await like(fan, one)).statusCode).toBe(200);
    expect((await like(fans[0]!, two)).statusCode).toBe(200);
    // An own like the site refused would not count; one written around the site does not either.
    await t.deps.db
      .insertInto("comment_likes")
      .values({ comment_id: two, user_id: writer.id })
      .execute();

    await recomputeReputation(t.deps, writer.id);
    expect(await pointsOf(writer.id)).toBe(4 * COMMENT_LIKE_POINTS);
    const ledger = await t.deps.db
      .selectFrom("reputation_ledger")
      .select(["kind", "post_id", "points", "detail"])
      .where("user_id", "=", writer.id)
      .orderBy("points", "desc")
      .execute();
    expect(ledger).toEqual([
      { kind: "comment_likes", post_id: post.id, points: 3, detail: "3 likes on your comment" },
      { kind: "comment_likes", post_id: post.id, points: 1, detail: "1 like on your comment" },
    ]);

    // A comment hidden by moderation earns nothing.
    await t.deps.db
      .updateTable("comments")
      .set({ status: "hidden" })
      .where("id", "=", one)
      .execute();
    await recomputeReputation(t.deps, writer.id);
    expect(await pointsOf(writer.id)).toBe(1);
  });

  it("a like or unlike marks the author for the quarter-hourly run; the members rules list it", async () => {
    const writer = await signIn("Quarter-hour Writer");
    const comment = await insertComment(t.deps.db, { postId: deal.id, userId: writer.id });
    const setRuns = async () => {
      const now = t.deps.now().getTime();
      await t.deps.db
        .updateTable("reputation_runs")
        .set({ run_at: new Date(now - 60_000), full_run_at: new Date(now - 3600_000) })
        .execute();
    };

    await setRuns();
    expect((await like(liker, comment)).statusCode).toBe(200);
    const run = await scheduledRecompute(t.deps);
    expect(run.members).toBeLessThan(5);
    expect(await pointsOf(writer.id)).toBe(1);

    await setRuns();
    expect((await like(liker, comment)).json()).toMatchObject({ liked: false });
    await scheduledRecompute(t.deps);
    expect(await pointsOf(writer.id)).toBe(0);

    const rules = await t.services.reputation.rules();
    expect(rules.points.some((line) => line.startsWith("Likes on your comment"))).toBe(true);
  });
});
