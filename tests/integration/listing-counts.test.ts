import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countScope, countScopes, type DealScope } from "../../core/cards/deal-scope.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

// The listing totals and members' post counts the database keeps (migrations 022 and 027) against
// what counting says, after every kind of write a post meets: posting, moderation, expiry, moving
// store, category or member, a deal made a coupon, deletion.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Every scope key counted from the table itself, the way the lists select. */
async function countedByScan(): Promise<Map<string, number>> {
  const rows = await sql<{ scope: string; total: number }>`
    SELECT scope, count(*)::int AS total FROM (
      SELECT 'type:' || post_type AS scope FROM posts WHERE status = 'active'
      UNION ALL SELECT 'store:' || store_id FROM posts WHERE status = 'active' AND store_id IS NOT NULL
      UNION ALL SELECT 'category:' || category_id FROM posts
                 WHERE status = 'active' AND category_id IS NOT NULL
      UNION ALL SELECT 'type:' || post_type || ':live' FROM posts
                 WHERE status = 'active' AND NOT expired
      UNION ALL SELECT 'store:' || store_id || ':live' FROM posts
                 WHERE status = 'active' AND NOT expired AND store_id IS NOT NULL
      UNION ALL SELECT 'category:' || category_id || ':live' FROM posts
                 WHERE status = 'active' AND NOT expired AND category_id IS NOT NULL
      UNION ALL SELECT 'user:' || user_id || ':' || kind FROM posts
                 WHERE status = 'active' AND user_id IS NOT NULL
      UNION ALL SELECT 'user:' || user_id || ':all' FROM posts WHERE user_id IS NOT NULL
      UNION ALL SELECT 'status:' || status || ':' || post_type FROM posts
      UNION ALL SELECT 'store:' || store_id || ':all' FROM posts WHERE store_id IS NOT NULL
      UNION ALL SELECT 'category:' || category_id || ':all' FROM posts WHERE category_id IS NOT NULL
      UNION ALL SELECT 'forum-category:' || forum_category_id || ':all' FROM posts
                 WHERE forum_category_id IS NOT NULL
    ) AS keys GROUP BY scope`.execute(t.deps.db);
  return new Map(rows.rows.map((row) => [row.scope, row.total]));
}

/** The kept counts, leaving out scopes that have gone back to none. */
async function kept(): Promise<Map<string, number>> {
  const rows = await t.deps.db
    .selectFrom("post_scope_counts")
    .select(["scope", "total"])
    .where("total", "<>", 0)
    .execute();
  return new Map(rows.map((row) => [row.scope, Number(row.total)]));
}

async function expectKeptCountsExact() {
  const [byScan, byTable] = await Promise.all([countedByScan(), kept()]);
  expect(Object.fromEntries([...byTable].sort())).toEqual(Object.fromEntries([...byScan].sort()));
}

const insertDeals = (prefix: string, n: number, expiresAt: string | null = null) =>
  sql`
    INSERT INTO posts (unique_id, slug, post_type, kind, title, link, store_id, category_id,
                       price, user_id, expires_at, expired)
    SELECT ${prefix} || g, ${prefix} || '-deal-' || g, 'd', 'deal', 'Counted deal ' || g,
           'https://example.com/counted/' || g, 1 + g % 5, 1 + g % 4, 10, 1,
           ${expiresAt}::timestamptz, coalesce(${expiresAt}::timestamptz <= now(), false)
    FROM generate_series(1, ${n}) AS g`.execute(t.deps.db);

describe("listing counts kept by the database", () => {
  it("start equal to a count of the demo data", async () => {
    await expectKeptCountsExact();
  });

  it("follow posting, moderation, expiry, a move and a deletion", async () => {
    await insertDeals("cnt-a", 40);
    await insertDeals("cnt-b", 10, "2020-01-01T00:00:00Z");
    await expectKeptCountsExact();

    await sql`UPDATE posts SET status = 'pending' WHERE unique_id LIKE 'cnt-a%' AND id % 3 = 0`.execute(
      t.deps.db,
    );
    await sql`UPDATE posts SET status = 'removed' WHERE unique_id LIKE 'cnt-b%' AND id % 2 = 0`.execute(
      t.deps.db,
    );
    await expectKeptCountsExact();

    await sql`UPDATE posts SET expired = true WHERE unique_id LIKE 'cnt-a%' AND id % 4 = 0`.execute(
      t.deps.db,
    );
    await sql`UPDATE posts SET expired = false, expires_at = NULL
              WHERE unique_id LIKE 'cnt-b%' AND id % 2 = 1`.execute(t.deps.db);
    await expectKeptCountsExact();

    await sql`UPDATE posts SET store_id = NULL, category_id = 2
              WHERE unique_id LIKE 'cnt-a%' AND id % 5 = 0`.execute(t.deps.db);
    await sql`UPDATE posts SET user_id = 2 WHERE unique_id LIKE 'cnt-a%' AND id % 6 = 1`.execute(
      t.deps.db,
    );
    await sql`UPDATE posts SET kind = 'coupon' WHERE unique_id LIKE 'cnt-a%' AND id % 7 = 2`.execute(
      t.deps.db,
    );
    await sql`UPDATE posts SET forum_category_id = (SELECT min(id) FROM forum_categories)
              WHERE unique_id LIKE 'cnt-a%' AND id % 4 = 3`.execute(t.deps.db);
    await sql`UPDATE posts SET user_id = NULL WHERE unique_id LIKE 'cnt-b%' AND id % 3 = 1`.execute(
      t.deps.db,
    );
    await sql`UPDATE posts SET status = 'active' WHERE unique_id LIKE 'cnt-%'`.execute(t.deps.db);
    await expectKeptCountsExact();

    // Writes that leave the scopes alone (votes, views) write no counts.
    const before = await kept();
    await sql`UPDATE posts SET views = views + 1, likes_count = likes_count + 1
              WHERE unique_id LIKE 'cnt-%'`.execute(t.deps.db);
    expect(await kept()).toEqual(before);

    await sql`DELETE FROM posts WHERE unique_id LIKE 'cnt-a%' AND id % 2 = 0`.execute(t.deps.db);
    await expectKeptCountsExact();
  });

  it("follow a store's deletion, which empties its deals' store", async () => {
    const store = await t.deps.db
      .insertInto("stores")
      .values({ title: "Counted Store", slug: "counted-store" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await sql`UPDATE posts SET store_id = ${store.id} WHERE unique_id LIKE 'cnt-b%'`.execute(
      t.deps.db,
    );
    expect(await countScope(t.deps.db, { kind: "store", storeId: store.id })).toBe(10);
    await t.deps.db.deleteFrom("stores").where("id", "=", store.id).execute();
    expect(await countScope(t.deps.db, { kind: "store", storeId: store.id })).toBe(0);
    await expectKeptCountsExact();
  });

  it("answer 0 for a scope with no posts, and many scopes in one read", async () => {
    const scopes: DealScope[] = [
      { kind: "store", storeId: 987_654 },
      { kind: "type", postType: "d", liveOnly: true },
      { kind: "category", categoryId: 1 },
    ];
    const totals = await countScopes(t.deps.db, scopes);
    const byScan = await countedByScan();
    expect([...totals.values()]).toEqual([
      0,
      byScan.get("type:d:live") ?? 0,
      byScan.get("category:1") ?? 0,
    ]);
  });

  it("are emptied with the table and can be taken again from scratch", async () => {
    await sql`UPDATE post_scope_counts SET total = total + 5`.execute(t.deps.db);
    await sql`SELECT refresh_post_scope_counts()`.execute(t.deps.db);
    await expectKeptCountsExact();
    await sql`TRUNCATE posts CASCADE`.execute(t.deps.db);
    expect(await kept()).toEqual(new Map());
  });
});
