import { createHash, randomBytes } from "node:crypto";
import { sql, type RawBuilder } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInKey } from "../../core/auth/sign-in-attempts.ts";
import { sendMailJob } from "../../core/mail/queue.ts";
import { insertComment, insertPost, signedInStaff } from "../helpers/console.ts";
import type { DbOrTx } from "../../db/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * Account deletion leaves nothing personal (docs/decisions/0014-account-deletion.md).
 * The database's own catalogue says which columns reference users; each needs a fixture below
 * that gives the member a row there, and the deletion must leave no row naming them unless the
 * column has a KEPT rule. A table added later with a reference to users and no rule fails here.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

interface Person {
  id: number;
  name: string;
  email: string;
}

/** Everything the fixtures share: the member to delete, another member, and their posts. */
interface World {
  member: Person;
  client: TestClient;
  other: Person;
  /** Another member's deal and discussion, which the member votes on and comments on. */
  otherDeal: { id: number; unique_id: string };
  otherDiscussion: { id: number; unique_id: string };
  /** Filled by the posts.user_id fixture: the member's own deal. */
  ownDeal?: { id: number; unique_id: string };
  /** Filled by the comments.user_id fixture: the member's comment with a reply, and one without. */
  answeredComment?: number;
  loneComment?: number;
  /** Filled by the comment_likes.user_id fixture: the other member's comment the member likes. */
  likedComment?: number;
}

const tag = () => randomBytes(5).toString("hex");
const hash = (value: string) => createHash("sha256").update(value).digest("hex");
const inAnHour = () => new Date(Date.now() + 3_600_000);

async function person(name: string): Promise<Person> {
  const id = await createTestUser(t.deps.db, { name });
  const row = await t.deps.db
    .selectFrom("users")
    .select(["id", "name", "email"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return row;
}

async function firstId(table: "stores" | "categories" | "contact_messages") {
  const row = await t.deps.db.selectFrom(table).select("id").orderBy("id").executeTakeFirst();
  return row?.id;
}

/**
 * One fixture per column that references users ("table.column"): it gives the member a row
 * there, as the site would. Each runs once per deletion tested.
 */
const FIXTURES: Record<string, (w: World) => Promise<void>> = {
  "oauth_accounts.user_id": async (w) => {
    await t.deps.db
      .insertInto("oauth_accounts")
      .values({ user_id: w.member.id, provider: "google", provider_user_id: `g-${tag()}` })
      .execute();
  },
  "oauth_link_requests.user_id": async (w) => {
    await t.deps.db
      .insertInto("oauth_link_requests")
      .values({
        user_id: w.member.id,
        provider: "facebook",
        provider_user_id: `f-${tag()}`,
        token_hash: hash(tag()),
        expires_at: inAnHour(),
      })
      .execute();
  },
  "sessions.user_id": async (w) => {
    // A second device besides the client's session.
    await t.deps.db
      .insertInto("sessions")
      .values({ user_id: w.member.id, token_hash: hash(tag()), expires_at: inAnHour() })
      .execute();
  },
  "email_tokens.user_id": async (w) => {
    await t.deps.db
      .insertInto("email_tokens")
      .values({
        user_id: w.member.id,
        purpose: "reset",
        token_hash: hash(tag()),
        expires_at: inAnHour(),
      })
      .execute();
  },
  "follows.follower_id": async (w) => {
    await t.deps.db
      .insertInto("follows")
      .values({ follower_id: w.member.id, followee_id: w.other.id })
      .execute();
  },
  "follows.followee_id": async (w) => {
    await t.deps.db
      .insertInto("follows")
      .values({ follower_id: w.other.id, followee_id: w.member.id })
      .execute();
  },
  "posts.user_id": async (w) => {
    const deal = await insertPost(t.deps.db, {
      user_id: w.member.id,
      title: `Member deal ${tag()}`,
    });
    w.ownDeal = deal;
    // Someone else's comment and like on it: they go with the deal if the deal goes.
    await insertComment(t.deps.db, { postId: deal.id, userId: w.other.id });
    await t.deps.db
      .insertInto("likes")
      .values({ user_id: w.other.id, post_id: deal.id, reaction: "like" })
      .execute();
    await t.deps.db
      .updateTable("posts")
      .set({ likes_count: 1 })
      .where("id", "=", deal.id)
      .execute();
  },
  "likes.user_id": async (w) => {
    // Through the call members use, so the counts and the author's notification are the site's.
    for (const [post, btn] of [
      [w.otherDeal, "like"],
      [w.otherDiscussion, "unlike"],
    ] as const) {
      const answer = await w.client.post("/api/product_like_unlike", {
        user_id: w.member.id,
        post_id: post.id,
        post_type: post === w.otherDeal ? "d" : "g",
        btn_type: btn,
      });
      expect(answer.statusCode).toBe(200);
    }
  },
  "comments.user_id": async (w) => {
    for (const text of ["A comment someone answers.", "A comment nobody answers."]) {
      const answer = await w.client.post("/api/product_add_comment", {
        user_id: w.member.id,
        post_id: w.otherDeal.id,
        post_type: "d",
        comment_id: "",
        comment_text: text,
      });
      expect(answer.statusCode).toBe(201);
    }
    const mine = await t.deps.db
      .selectFrom("comments")
      .select("id")
      .where("user_id", "=", w.member.id)
      .where("post_id", "=", w.otherDeal.id)
      .orderBy("id")
      .execute();
    w.answeredComment = mine[0]!.id;
    w.loneComment = mine[1]!.id;
    await insertComment(t.deps.db, {
      postId: w.otherDeal.id,
      userId: w.other.id,
      parentId: w.answeredComment,
    });
  },
  "comment_likes.user_id": async (w) => {
    // Through the call members use, so the comment's count is the site's.
    w.likedComment = await insertComment(t.deps.db, { postId: w.otherDeal.id, userId: w.other.id });
    const answer = await w.client.post("/api/comment_like", {
      user_id: w.member.id,
      comment_id: w.likedComment,
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ liked: true, likes: 1 });
  },
  "contact_messages.user_id": async (w) => {
    await t.deps.db
      .insertInto("contact_messages")
      .values({
        user_id: w.member.id,
        name: w.member.name,
        email: w.member.email,
        category: "General",
        subject: "Hello",
        mobile: "",
        message: "A question.",
      })
      .execute();
  },
  "subscriptions.user_id": async (w) => {
    const plan =
      (await t.deps.db.selectFrom("subscription_plans").select("id").executeTakeFirst()) ??
      (await t.deps.db
        .insertInto("subscription_plans")
        .values({ name: "Test plan", price_cents: 500 })
        .returning("id")
        .executeTakeFirstOrThrow());
    await t.deps.db
      .insertInto("subscriptions")
      .values({ user_id: w.member.id, plan_id: plan.id, start_date: "2026-01-01", end_date: null })
      .execute();
  },
  "media.user_id": async (w) => {
    await t.deps.db
      .insertInto("media")
      .values({
        user_id: w.member.id,
        path: `uploads/test-${tag()}.jpg`,
        mime: "image/jpeg",
        width: 10,
        height: 10,
        bytes: 100,
      })
      .execute();
  },
  "reports.reporter_id": async (w) => {
    await t.deps.db
      .insertInto("reports")
      .values({
        item_type: "d",
        item_id: w.otherDeal.unique_id,
        reporter_id: w.member.id,
        reason: "spam",
        note: "Looks like spam.",
      })
      .execute();
  },
  "reports.resolved_by": async (w) => {
    // The member once was a moderator who settled someone else's report.
    await t.deps.db
      .insertInto("reports")
      .values({
        item_type: "g",
        item_id: w.otherDiscussion.unique_id,
        reporter_id: w.other.id,
        reason: "other",
        status: "resolved",
        resolution: "kept",
        resolved_by: w.member.id,
        resolved_at: new Date(),
      })
      .execute();
  },
  "audit_log.actor_id": async (w) => {
    await t.deps.db
      .insertInto("audit_log")
      .values({
        actor_id: w.member.id,
        actor_name: w.member.name,
        action: "post.hide",
        item_type: "d",
        item_id: w.otherDeal.unique_id,
        before: JSON.stringify({ status: "active" }),
        after: JSON.stringify({ status: "hidden" }),
      })
      .execute();
  },
  "blocked_domains.created_by": async (w) => {
    await t.deps.db
      .insertInto("blocked_domains")
      .values({ domain: `spam-${tag()}.example`, created_by: w.member.id })
      .execute();
  },
  "notifications.user_id": async (w) => {
    await t.deps.db
      .insertInto("notifications")
      .values({
        user_id: w.member.id,
        kind: "moderation",
        message: "Your deal was approved.",
        mailed_at: null,
      })
      .execute();
  },
  "contact_replies.author_id": async (w) => {
    const message = await t.deps.db
      .insertInto("contact_messages")
      .values({
        user_id: null,
        name: "A visitor",
        email: `visitor-${tag()}@example.com`,
        category: "General",
        subject: "Hi",
        mobile: "",
        message: "Hello there.",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.deps.db
      .insertInto("contact_replies")
      .values({
        message_id: message.id,
        author_id: w.member.id,
        author_name: w.member.name,
        body: "Thanks for writing.",
      })
      .execute();
  },
  "expiry_marks.user_id": async (w) => {
    await t.deps.db
      .insertInto("expiry_marks")
      .values({ post_id: w.otherDeal.id, user_id: w.member.id })
      .execute();
  },
  "coupon_feedback.user_id": async (w) => {
    await t.deps.db
      .insertInto("coupon_feedback")
      .values({
        post_id: w.otherDeal.id,
        user_id: w.member.id,
        worked: true,
        answered_at: new Date(),
      })
      .execute();
  },
  "school_domains.created_by": async (w) => {
    await t.deps.db
      .insertInto("school_domains")
      .values({ domain: `school-${tag()}.example`, created_by: w.member.id })
      .execute();
  },
  "educator_requests.user_id": async (w) => {
    await t.deps.db
      .insertInto("educator_requests")
      .values({
        user_id: w.member.id,
        method: "review",
        note: "I teach grade 3.",
      })
      .execute();
  },
  "educator_requests.decided_by": async (w) => {
    await t.deps.db
      .insertInto("educator_requests")
      .values({
        user_id: w.other.id,
        method: "review",
        status: "approved",
        decided_by: w.member.id,
        decided_at: new Date(),
      })
      .execute();
  },
  "teachers_wishlist.user_id": async (w) => {
    for (const status of ["pending", "approved"] as const) {
      await t.deps.db
        .insertInto("teachers_wishlist")
        .values({
          first_name: "Pat",
          last_name: `Member ${status}`,
          school_location: "Springfield",
          amazon_wishlist: `https://www.amazon.com/hz/wishlist/ls/${tag()}`,
          status,
          user_id: w.member.id,
        })
        .execute();
    }
  },
  "saved_deals.user_id": async (w) => {
    await t.deps.db
      .insertInto("saved_deals")
      .values({ user_id: w.member.id, post_id: w.otherDeal.id })
      .execute();
  },
  "store_follows.user_id": async (w) => {
    await t.deps.db
      .insertInto("store_follows")
      .values({ user_id: w.member.id, store_id: (await firstId("stores"))! })
      .execute();
  },
  "category_follows.user_id": async (w) => {
    await t.deps.db
      .insertInto("category_follows")
      .values({ user_id: w.member.id, category_id: (await firstId("categories"))! })
      .execute();
  },
  "email_preferences.user_id": async (w) => {
    await t.deps.db
      .insertInto("email_preferences")
      .values({ user_id: w.member.id, kind: "post_comment", enabled: false })
      .execute();
  },
  "notification_mail_log.user_id": async (w) => {
    await t.deps.db
      .insertInto("notification_mail_log")
      .values({ user_id: w.member.id, kind: "post_comment", last_sent_at: new Date() })
      .execute();
  },
  "push_subscriptions.user_id": async (w) => {
    const subscription = await t.deps.db
      .insertInto("push_subscriptions")
      .values({
        user_id: w.member.id,
        endpoint: `https://push.example.com/${tag()}`,
        p256dh: "BPub",
        auth: "secret",
        device_label: "Chrome on Android",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const message = await t.deps.db
      .insertInto("push_messages")
      .values({
        user_id: w.other.id,
        kind: "reply",
        title: "t",
        body: "b",
        url: "/",
        tag: "x",
        urgency: "normal",
        ttl_seconds: 60,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Another member's message once sent to this device (the endpoint moved to the member).
    await t.deps.db
      .insertInto("push_deliveries")
      .values({ message_id: message.id, subscription_id: subscription.id })
      .execute();
  },
  "push_messages.user_id": async (w) => {
    await t.deps.db
      .insertInto("push_messages")
      .values({
        user_id: w.member.id,
        kind: "alert",
        title: "Your alert",
        body: "A deal",
        url: `/deal/${w.otherDeal.unique_id}`,
        tag: `deal-${w.otherDeal.unique_id}`,
        urgency: "high",
        ttl_seconds: 3600,
      })
      .execute();
  },
  "weekly_digests.user_id": async (w) => {
    await t.deps.db
      .insertInto("weekly_digests")
      .values({
        user_id: w.member.id,
        week: "2026-11-27",
        post_ids: [w.otherDeal.id],
        mailed: true,
        created_at: new Date(),
      })
      .execute();
  },
  "alerts.user_id": async (w) => {
    const alert = await t.deps.db
      .insertInto("alerts")
      .values({
        user_id: w.member.id,
        keywords: "headphones",
        query: null,
        delivery: "instant",
        rss_token_hash: hash(tag()),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.deps.db
      .insertInto("alert_matches")
      .values({ alert_id: alert.id, post_id: w.otherDeal.id, matched_at: new Date() })
      .execute();
  },
  // Reputation (migration 033): the member's points, ledger and badges are theirs.
  "member_reputation.user_id": async (w) => {
    await t.deps.db
      .insertInto("member_reputation")
      .values({ user_id: w.member.id, points: 12, level: "Member", computed_at: new Date() })
      .execute();
  },
  "reputation_ledger.user_id": async (w) => {
    await t.deps.db
      .insertInto("reputation_ledger")
      .values({
        user_id: w.member.id,
        kind: "working_coupon",
        post_id: null,
        points: 2,
        occurred_at: new Date(),
      })
      .execute();
  },
  "voting_restrictions.user_id": async (w) => {
    await t.deps.db
      .insertInto("voting_restrictions")
      .values([
        { user_id: w.member.id, kind: "warning", reason: "Votes on one poster's deals only" },
        {
          user_id: w.member.id,
          kind: "block",
          reason: "Kept voting on one poster's deals",
          ends_at: inAnHour(),
        },
      ])
      .execute();
  },
  "member_badges.user_id": async (w) => {
    await t.deps.db
      .insertInto("member_badges")
      .values({ user_id: w.member.id, badge_key: "hot_deal", earned_at: new Date() })
      .execute();
  },
};

/**
 * What may still name the member after deletion, and why (the privacy policy's "what stays").
 * `where`: only rows that match it may stay. `ownPosts`: the member's posts and comments, which
 * go when they choose to remove them.
 */
const KEPT: Record<string, { why: string; where?: RawBuilder<boolean>; ownPosts?: true }> = {
  "posts.user_id": { why: "their deals and discussions, shown as by Deleted user", ownPosts: true },
  "comments.user_id": { why: "their comments, shown as by Deleted user", ownPosts: true },
  "media.user_id": { why: "the pictures of their kept posts" },
  "teachers_wishlist.user_id": {
    why: "approved Teachers Wishlist entries, public as their posts are",
    where: sql<boolean>`status = 'approved'`,
  },
  "audit_log.actor_id": { why: "the audit log's entries about staff actions" },
  "reports.resolved_by": { why: "a staff action: who settled a report" },
  "educator_requests.decided_by": { why: "a staff action: who decided a verification request" },
  "blocked_domains.created_by": { why: "a staff action: who blocked a domain" },
  "school_domains.created_by": { why: "a staff action: who added a school domain" },
  "contact_replies.author_id": { why: "a staff action: a reply sent, without the name" },
};

/** Every column that references users, from the database's own catalogue. */
async function columnsReferencingUsers(db: DbOrTx = t.deps.db): Promise<string[]> {
  const { rows } = await sql<{ key: string }>`
    SELECT DISTINCT cl.relname || '.' || a.attname AS key
      FROM pg_constraint c
      JOIN pg_class cl ON cl.oid = c.conrelid
      CROSS JOIN LATERAL unnest(c.conkey) AS k(attnum)
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
     WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass
     ORDER BY 1`.execute(db);
  return rows.map((row) => row.key);
}

/** The columns that reference users without a fixture here. */
function withoutFixture(columns: string[]) {
  return columns.filter((key) => !FIXTURES[key]);
}

/** How many rows of `key` ("table.column") name `userId`, besides those its rule keeps. */
async function rowsNaming(key: string, userId: number, keep: boolean): Promise<number> {
  const [table, column] = key.split(".") as [string, string];
  const rule = keep ? KEPT[key] : undefined;
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM ${sql.table(table)}
     WHERE ${sql.ref(column)} = ${userId}
       AND NOT (${rule ? (rule.where ?? sql<boolean>`true`) : sql<boolean>`false`})`.execute(
    t.deps.db,
  );
  return rows[0]!.n;
}

/**
 * Every text, JSON and array column of the site's tables and of the job queue's, as
 * "schema.table.column", but the audit log (its entries about staff actions stay, with the name
 * they were written under).
 */
async function textColumns(): Promise<{ schema: string; table: string; column: string }[]> {
  const { rows } = await sql<{ schema: string; table: string; column: string }>`
    SELECT c.table_schema AS schema, c.table_name AS "table", c.column_name AS "column"
      FROM information_schema.columns c
      JOIN information_schema.tables tb
        ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
     WHERE tb.table_type = 'BASE TABLE'
       AND c.table_schema = ANY(current_schemas(false) || ${t.jobs.schema}::text)
       AND c.data_type IN ('text', 'character varying', 'json', 'jsonb', 'ARRAY')
       AND c.table_name <> 'audit_log'
     ORDER BY 1, 2, 3`.execute(t.deps.db);
  return rows;
}

/** The columns anywhere that still hold `needle` (an address or a name). */
async function columnsHolding(needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const { schema, table, column } of await textColumns()) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM ${sql.table(`${schema}.${table}`)}
       WHERE strpos(lower(${sql.ref(column)}::text), ${needle.toLowerCase()}) > 0`.execute(
      t.deps.db,
    );
    if (rows[0]!.n > 0) found.push(`${schema}.${table}.${column}`);
  }
  return found;
}

/** The member and what the site holds of them beyond rows that reference users. */
async function buildWorld(): Promise<World> {
  const member = await person(`Leaving Member ${tag()}`);
  const other = await person(`Staying Member ${tag()}`);
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, member.id);
  const otherDeal = await insertPost(t.deps.db, { user_id: other.id });
  const otherDiscussion = await insertPost(t.deps.db, {
    user_id: other.id,
    post_type: "g",
    kind: "discussion",
  });
  const w: World = { member, client, other, otherDeal, otherDiscussion };
  const columns = await columnsReferencingUsers();
  const missing = withoutFixture(columns);
  expect(
    missing,
    `these columns reference users but have no fixture in this test: ${missing.join(", ")}. ` +
      "Add one, and either delete the member's rows in deleteMemberRows " +
      "(core/people/accounts/repository.ts) or add a KEPT rule here and to the privacy policy",
  ).toEqual([]);
  for (const key of columns) {
    await FIXTURES[key]!(w);
    expect(await rowsNaming(key, member.id, false), `${key}'s fixture made no row`).toBeGreaterThan(
      0,
    );
  }
  // Rows keyed by the address, not by a reference to users.
  await t.deps.db
    .insertInto("undeliverable_addresses")
    .values({
      address: member.email.toLowerCase(),
      reason: "550 no such user",
      failed_at: new Date(),
    })
    .execute();
  await t.deps.db
    .insertInto("sign_in_attempts")
    .values({ address_hash: signInKey(member.email), failures: 2, last_failure_at: new Date() })
    .execute();
  // Staff's words and decisions about them.
  await t.deps.db
    .updateTable("users")
    .set({ verified_educator: true, suspension_reason: "Spam from a shared account" })
    .where("id", "=", member.id)
    .execute();
  await t.deps.db
    .insertInto("reports")
    .values({
      item_type: "user",
      item_id: String(member.id),
      reporter_id: other.id,
      reason: "other",
      note: "Posts the same deal twice a day.",
    })
    .execute();
  const mail = { subject: "Your alert", text: "A deal.", html: "<p>A deal.</p>" };
  await t.jobs.send(sendMailJob, { ...mail, to: member.email });
  await t.jobs.send(sendMailJob, { ...mail, to: other.email });
  return w;
}

/** The counts the member's votes are in: stored on posts, or counted from rows when read. */
async function countsOf(w: World) {
  const post = (id: number) =>
    t.deps.db
      .selectFrom("posts")
      .select(["likes_count", "unlikes_count", "comments_count", "hot_score"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const count = async (query: RawBuilder<{ n: number }>) =>
    (await query.execute(t.deps.db)).rows[0]!.n;
  return {
    deal: await post(w.otherDeal.id),
    discussion: await post(w.otherDiscussion.id),
    expiryMarks: await count(
      sql`SELECT count(*)::int AS n FROM expiry_marks WHERE post_id = ${w.otherDeal.id}`,
    ),
    couponWorked: await count(
      sql`SELECT count(*)::int AS n FROM coupon_feedback WHERE post_id = ${w.otherDeal.id} AND worked`,
    ),
    openReports: await count(
      sql`SELECT count(*)::int AS n FROM reports
           WHERE item_type = 'd' AND item_id = ${w.otherDeal.unique_id} AND status = 'open'`,
    ),
    followersOfOther: await count(
      sql`SELECT count(*)::int AS n FROM follows WHERE followee_id = ${w.other.id}`,
    ),
    savedOfDeal: await count(
      sql`SELECT count(*)::int AS n FROM saved_deals WHERE post_id = ${w.otherDeal.id}`,
    ),
    likesOfComment: await count(
      sql`SELECT likes_count AS n FROM comments WHERE id = ${w.likedComment ?? 0}`,
    ),
  };
}

/** Mail jobs not started yet, to `address`. */
async function queuedMailTo(address: string) {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM ${sql.table(`${t.jobs.schema}.job`)}
     WHERE name = ${sendMailJob.name} AND state::text IN ('created', 'retry')
       AND lower(data ->> 'to') = ${address.toLowerCase()}`.execute(t.deps.db);
  return rows[0]!.n;
}

/** Other members' notifications that name the member as the one who acted. */
async function notificationsActedBy(w: World) {
  return t.deps.db
    .selectFrom("notifications")
    .select(["kind", "message", "actor_ids"])
    .where("user_id", "<>", w.member.id)
    .where(sql<boolean>`${w.member.id}::bigint = ANY(actor_ids)`)
    .execute();
}

/** After deletion: no row names the member but those KEPT allows, nor holds their address. */
async function expectNothingPersonalLeft(w: World, options: { ownPostsRemoved: boolean }) {
  const left: string[] = [];
  for (const key of await columnsReferencingUsers()) {
    const rule = KEPT[key];
    const keep = rule !== undefined && !(rule.ownPosts && options.ownPostsRemoved);
    const n = await rowsNaming(key, w.member.id, keep);
    if (n > 0) left.push(`${key} (${n})`);
  }
  expect(left, "rows still naming the deleted member").toEqual([]);

  const user = await t.deps.db
    .selectFrom("users")
    .selectAll()
    .where("id", "=", w.member.id)
    .executeTakeFirstOrThrow();
  expect(user).toMatchObject({
    name: "Deleted user",
    password_hash: null,
    image_url: null,
    verified_educator: false,
    suspension_reason: "",
  });
  // Reports about them are settled: there is nobody left to act on.
  const reportsAbout = await t.deps.db
    .selectFrom("reports")
    .select("status")
    .where("item_type", "=", "user")
    .where("item_id", "=", String(w.member.id))
    .execute();
  expect(reportsAbout.map((r) => r.status)).toEqual(["resolved"]);
  expect(user.deleted_at).not.toBeNull();
  expect(user.email).not.toContain("@");

  // Nowhere else: the mail queue, the undeliverable mark, other members' notifications, replies.
  expect(await columnsHolding(w.member.email)).toEqual([]);
  expect(await columnsHolding(w.member.name)).toEqual([]);
  expect(await queuedMailTo(w.member.email)).toBe(0);
  expect(await queuedMailTo(w.other.email)).toBe(1);
  const undeliverable = await t.deps.db
    .selectFrom("undeliverable_addresses")
    .select("address")
    .where("address", "=", w.member.email.toLowerCase())
    .execute();
  expect(undeliverable).toEqual([]);
  const attempts = await t.deps.db
    .selectFrom("sign_in_attempts")
    .select("address_hash")
    .where("address_hash", "=", signInKey(w.member.email))
    .execute();
  expect(attempts).toEqual([]);
  expect(await notificationsActedBy(w)).toEqual([]);
}

describe("account deletion, checked against the catalogue", () => {
  it("has a rule for every column that references users", async () => {
    const columns = await columnsReferencingUsers();
    expect(columns.length).toBeGreaterThan(20);
    // Every rule names a column that exists: a renamed one would otherwise pass unchecked.
    expect(Object.keys(FIXTURES).filter((key) => !columns.includes(key))).toEqual([]);
    expect(Object.keys(KEPT).filter((key) => !columns.includes(key))).toEqual([]);
  });

  it("finds a table added later that references users, with no rule for it", async () => {
    const rolledBack = new Error("rolled back");
    const found = await t.deps.db
      .transaction()
      .execute(async (tx) => {
        await sql`CREATE TABLE later_member_things (
          user_id bigint REFERENCES users (id) ON DELETE CASCADE)`.execute(tx);
        expect(withoutFixture(await columnsReferencingUsers(tx))).toEqual([
          "later_member_things.user_id",
        ]);
        throw rolledBack;
      })
      .catch((error: unknown) => error);
    expect(found).toBe(rolledBack);
  });

  it("a member's own deletion leaves no row of theirs but their posts and comments", async () => {
    const w = await buildWorld();
    const before = await countsOf(w);
    const notifiedBefore = await notificationsActedBy(w);
    // Their like and comments told the deal's author; each names them.
    expect(notifiedBefore.map((n) => n.kind).sort()).toEqual([
      "post_comment",
      "post_comment",
      "post_like",
    ]);
    expect(notifiedBefore.every((n) => n.message.startsWith(w.member.name))).toBe(true);

    const answer = await w.client.post("/api/user_deleted", { user_id: w.member.id });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().message).toBe("User deleted successfully.");

    await expectNothingPersonalLeft(w, { ownPostsRemoved: false });

    // Their votes are gone from every count.
    const after = await countsOf(w);
    expect(after.deal.likes_count).toBe(before.deal.likes_count - 1);
    expect(after.discussion.unlikes_count).toBe(before.discussion.unlikes_count - 1);
    expect(after.deal.hot_score).toBeLessThan(before.deal.hot_score);
    expect(after.expiryMarks).toBe(before.expiryMarks - 1);
    expect(after.couponWorked).toBe(before.couponWorked - 1);
    expect(after.openReports).toBe(before.openReports - 1);
    expect(after.followersOfOther).toBe(before.followersOfOther - 1);
    expect(after.savedOfDeal).toBe(before.savedOfDeal - 1);
    expect(after.likesOfComment).toBe(before.likesOfComment - 1);
    // Their comments stay, so the comment count does not move.
    expect(after.deal.comments_count).toBe(before.deal.comments_count);

    // What stays, as by "Deleted user": their deal and comments.
    const ownDeal = await t.deps.db
      .selectFrom("posts")
      .select("user_id")
      .where("id", "=", w.ownDeal!.id)
      .executeTakeFirstOrThrow();
    expect(ownDeal.user_id).toBe(w.member.id);
    // The deal's author is still told of the comment, now as the Deleted user's; the like is gone.
    const notices = await t.deps.db
      .selectFrom("notifications")
      .select(["kind", "message"])
      .where("user_id", "=", w.other.id)
      .where("kind", "in", ["post_comment", "post_like"])
      .execute();
    expect(notices.map((n) => n.kind)).toEqual(["post_comment", "post_comment"]);
    for (const notice of notices) {
      expect(notice.message.startsWith("Deleted user commented on your deal")).toBe(true);
    }
  });

  it("with remove_posts, their deals, discussions and comments go as staff delete them", async () => {
    const w = await buildWorld();
    const before = await countsOf(w);
    const reply = await t.deps.db
      .selectFrom("comments")
      .select("id")
      .where("parent_id", "=", w.answeredComment!)
      .executeTakeFirstOrThrow();

    const answer = await w.client.post("/api/user_deleted", {
      user_id: w.member.id,
      remove_posts: true,
    });
    expect(answer.statusCode).toBe(200);

    await expectNothingPersonalLeft(w, { ownPostsRemoved: true });

    // Their deal went, with the other member's comment and like on it.
    const ownDeal = await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where("id", "=", w.ownDeal!.id)
      .execute();
    expect(ownDeal).toEqual([]);
    const onOwnDeal = await t.deps.db
      .selectFrom("comments")
      .select("id")
      .where("post_id", "=", w.ownDeal!.id)
      .execute();
    expect(onOwnDeal).toEqual([]);
    const counted = await t.deps.db
      .selectFrom("post_scope_counts")
      .select(["scope", "total"])
      .where("scope", "like", `user:${w.member.id}:%`)
      .where("total", "<>", 0)
      .execute();
    expect(counted).toEqual([]);

    // Their comment nobody answered is gone; the answered one keeps its place for the reply,
    // without text or author; the deal's count loses both (placeholders are not counted).
    const comments = await t.deps.db
      .selectFrom("comments")
      .select(["id", "user_id", "body", "deleted_at"])
      .where("id", "in", [w.answeredComment!, w.loneComment!, reply.id])
      .orderBy("id")
      .execute();
    expect(comments.map((c) => c.id)).toEqual([w.answeredComment!, reply.id]);
    expect(comments[0]).toMatchObject({ user_id: null });
    expect(comments[0]!.deleted_at).not.toBeNull();
    expect(comments[0]!.body).not.toContain("someone answers");
    const after = await countsOf(w);
    expect(after.deal.comments_count).toBe(before.deal.comments_count - 2);
    expect(after.deal.likes_count).toBe(before.deal.likes_count - 1);

    // The author of the deal they commented on is no longer told of their comments.
    const notices = await t.deps.db
      .selectFrom("notifications")
      .select("kind")
      .where("user_id", "=", w.other.id)
      .where("kind", "in", ["post_comment", "post_like"])
      .execute();
    expect(notices).toEqual([]);
  });

  it("an administrator's deletion from the console leaves the same", async () => {
    const w = await buildWorld();
    const admin = await signedInStaff(t.app, t.deps.db, "admin");
    const answer = await admin.client.post("/api/admin/users/delete", {
      user_id: w.member.id,
      reason: "Asked by mail",
    });
    expect(answer.statusCode).toBe(200);
    await expectNothingPersonalLeft(w, { ownPostsRemoved: false });
  });

  it("refuses a remove_posts that is not a boolean, deleting nothing", async () => {
    const member = await person(`Careful Member ${tag()}`);
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, member.id);
    const answer = await client.post("/api/user_deleted", {
      user_id: member.id,
      remove_posts: "perhaps",
    });
    expect(answer.statusCode).toBe(422);
    const row = await t.deps.db
      .selectFrom("users")
      .select("deleted_at")
      .where("id", "=", member.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeNull();
  });
});
