/**
 * Large data for scale tests and benchmarks: the demo content plus N generated deals.
 *
 *   npm run data:large -- --deals 1000000 [--data-dir DIR] [--batch 50000]
 *
 * With DATABASE_URL set, the deals go to that PostgreSQL database; otherwise to the PGlite files
 * in DIR (default: DATA_DIR or ./data). An empty database is first migrated and given the full
 * demo content. The deals are made by set-based SQL (INSERT … SELECT over generate_series) from
 * the demo's products, stores, categories and members, with pseudo-random but reproducible values
 * (hashes of the series number), so running it twice adds a second, different N.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { sql, type Kysely } from "kysely";
import { linkKey } from "../../core/posts/identity.ts";
import { createDb } from "../index.ts";
import { lockDataDir } from "../lock.ts";
import type { Database } from "../schema.ts";
import { CATEGORIES, GENERAL_STORES } from "./categories.ts";
import { slugOf } from "./plan.ts";
import { seedDemoData } from "./seed.ts";
import { loadConfig } from "../../config/env.ts";
import { createMediaStorage } from "../../core/media/storage.ts";
import { createLogger } from "../../core/log/logger.ts";

export interface LargeDataOptions {
  /** How many deals and coupons to add. */
  deals: number;
  /** Rows per INSERT statement (default 50,000). */
  batchSize?: number;
  /** The moment the deals are dated against (default: now). */
  now?: Date;
  onProgress?: (done: number, total: number) => void;
  log?: (line: string) => void;
}

export interface LargeDataResult {
  inserted: number;
  /** The series numbers used, first to last (generated posts' unique_ids derive from them). */
  from: number;
  to: number;
  ms: number;
}

/**
 * Generated posts' unique_id: "0" and 9 hex digits of (n × an odd constant) mod 2^36 — a bijection
 * for n < 2^36, so ids never repeat, and the leading "0" (absent from newUniqueId's alphabet)
 * keeps them apart from the site's own ids. Taking a prefix of md5(n) instead would collide: at a
 * million rows, 40 bits give a one-in-three chance of a duplicate.
 */
export const GENERATED_ID_PREFIX = "0";

/** One product as sold by one store: the unit the generator draws from. */
interface Offering {
  name: string;
  nameHtml: string;
  slug: string;
  listCents: number;
  categoryId: number;
  storeId: number;
  storeTitle: string;
  domain: string;
  imageUrl: string;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

async function loadOfferings(db: Kysely<Database>): Promise<Offering[]> {
  const stores = await db.selectFrom("stores").select(["id", "title", "link"]).execute();
  const categories = await db
    .selectFrom("categories")
    .select(["id", "slug", "image_url"])
    .execute();
  const storeByTitle = new Map(stores.map((s) => [s.title, s]));
  const categoryBySlug = new Map(categories.map((c) => [c.slug, c]));

  const offerings: Offering[] = [];
  for (const seed of CATEGORIES) {
    const category = categoryBySlug.get(slugOf(seed.title));
    if (!category) continue;
    for (const product of seed.products) {
      const titles = product.stores ?? [
        ...seed.stores,
        ...GENERAL_STORES,
        ...(product.alsoAt ?? []),
      ];
      for (const title of new Set(titles)) {
        const store = storeByTitle.get(title);
        if (!store || !URL.canParse(store.link)) continue;
        const domain = new URL(store.link).hostname.replace(/^www\./, "");
        offerings.push({
          name: product.name,
          nameHtml: escapeHtml(product.name),
          slug: slugOf(product.name).slice(0, 60).replace(/-+$/, ""),
          listCents: Math.round(product.listPrice * 100),
          categoryId: category.id,
          storeId: store.id,
          storeTitle: store.title,
          domain,
          // The category's tile: a seeded deal's image would show another product and price.
          imageUrl: category.image_url,
        });
      }
    }
  }
  return offerings;
}

/** Drops the indexes of posts that back no constraint; returns how to create them again. */
async function dropSecondaryIndexes(
  tx: Kysely<Database>,
): Promise<{ name: string; definition: string }[]> {
  const { rows } = await sql<{ schema: string; name: string; definition: string }>`
    SELECT n.nspname AS schema, c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE i.indrelid = 'posts'::regclass AND NOT i.indisunique AND NOT i.indisprimary
    ORDER BY c.relname`.execute(tx);
  for (const row of rows) await sql`DROP INDEX ${sql.id(row.schema, row.name)}`.execute(tx);
  return rows.map(({ name, definition }) => ({ name, definition }));
}

/**
 * Adds options.deals deals and coupons to a database that holds the demo content (at least its
 * stores, categories, members and deal categories), in batches, then runs VACUUM on posts and
 * ANALYZE.
 */
export async function generateLargeData(
  db: Kysely<Database>,
  options: LargeDataOptions,
): Promise<LargeDataResult> {
  const started = performance.now();
  const total = Math.max(0, Math.floor(options.deals));
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 50_000));
  const now = options.now ?? new Date();

  const offerings = await loadOfferings(db);
  const users = (
    await db
      .selectFrom("users")
      .select("id")
      .where("deleted_at", "is", null)
      .orderBy("id")
      .execute()
  ).map((u) => u.id);
  const dealCategories = await db
    .selectFrom("forum_categories")
    .select(["id", "title"])
    .where("kind", "=", "deal")
    .orderBy("position")
    .execute();
  if (offerings.length === 0 || users.length === 0 || dealCategories.length === 0) {
    throw new Error("Large data needs the demo content first (stores, categories, members).");
  }
  const forumCategory = (title: string) =>
    (dealCategories.find((c) => c.title === title) ?? dealCategories[0]!).id;
  const hotDeals = forumCategory("Hot Deals");
  const coupons = forumCategory("Coupons");

  // Continue after the series numbers of earlier runs.
  const previous = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM posts WHERE unique_id LIKE ${GENERATED_ID_PREFIX + "%"}`.execute(
    db,
  );
  const first = (previous.rows[0]?.n ?? 0) + 1;
  const last = first + total - 1;

  // The lists travel as array parameters and are unnested in each statement: no temporary tables,
  // so any pooled connection can run any batch.
  const col = <K extends keyof Offering>(key: K) => offerings.map((o) => o[key]);
  const params = {
    names: col("name"),
    namesHtml: col("nameHtml"),
    slugs: col("slug"),
    lists: col("listCents"),
    categories: col("categoryId"),
    stores: col("storeId"),
    storeTitles: col("storeTitle"),
    domains: col("domain"),
    images: col("imageUrl"),
  };
  // A sample of the offering's link to check the SQL below against linkKey().
  const sample = offerings[0]!;
  const sampleLink = `https://www.${sample.domain}/p/${sample.slug}-1`;
  if (linkKey(sampleLink) !== `${sample.domain}/p/${sample.slug}-1`) {
    throw new Error("Large data: link_key no longer matches linkKey()");
  }

  const windowSeconds = 182 * 24 * 60 * 60;
  const insertBatch = (tx: Kysely<Database>, from: number, to: number) =>
    sql`
      WITH o AS (
        SELECT * FROM unnest(
          ${params.names}::text[], ${params.namesHtml}::text[], ${params.slugs}::text[],
          ${params.lists}::int[], ${params.categories}::bigint[], ${params.stores}::bigint[],
          ${params.storeTitles}::text[], ${params.domains}::text[], ${params.images}::text[]
        ) WITH ORDINALITY AS t(name, name_html, slug, list_cents, category_id, store_id,
                                store_title, domain, image_url, i)
      ),
      u AS (SELECT * FROM unnest(${users}::bigint[]) WITH ORDINALITY AS t(id, i)),
      g AS (
        SELECT n,
               -- Independent non-negative pseudo-random numbers per row.
               hashint8extended(n, 1) & 9223372036854775807 AS h1,
               hashint8extended(n, 2) & 9223372036854775807 AS h2,
               hashint8extended(n, 3) & 9223372036854775807 AS h3,
               hashint8extended(n, 4) & 9223372036854775807 AS h4,
               hashint8extended(n, 5) & 9223372036854775807 AS h5
        FROM generate_series(${from}::bigint, ${to}::bigint) AS n
      ),
      d AS (
        SELECT g.n, o.*, u.id AS user_id,
               (g.h2 % 10) < 3 AS is_coupon,
               CASE WHEN (g.h2 % 10) < 3 THEN 5 * (1 + g.h3 % 6) ELSE 5 + g.h3 % 61 END AS pct,
               ${now}::timestamptz - make_interval(secs => (g.h4 % ${windowSeconds})::double precision) AS created_at,
               g.h5
        FROM g
        JOIN o ON o.i = 1 + g.h1 % ${offerings.length}
        JOIN u ON u.i = 1 + (g.h1 / ${offerings.length}) % ${users.length}
      ),
      p AS (
        SELECT d.*,
               round(d.list_cents * (100 - d.pct) / 100.0)::int AS price_cents,
               CASE WHEN d.h5 % 5 = 0 THEN NULL
                    ELSE d.created_at + make_interval(days => (3 + d.h5 % 150)::int) END AS expires_at,
               (d.h5 / 7 % 4000)::int AS views,
               'SAVE' || d.pct AS code
        FROM d
      ),
      f AS (
        SELECT p.*,
               to_char(p.price_cents / 100.0, 'FM999,999,990.00') AS price_text,
               to_char(p.list_cents / 100.0, 'FM999,999,990.00') AS list_text
        FROM p
      )
      INSERT INTO posts (
        unique_id, slug, post_type, kind, user_id, forum_category_id, store_id, category_id,
        title, description, description_text, image_url, price, list_price, discount, currency,
        deal_badge, link, link_key, coupon_code, expires_at, is_featured, status, views,
        hot_score, created_at, updated_at, expired)
      SELECT
        ${GENERATED_ID_PREFIX} || lpad(to_hex((f.n * 2654435761) & 68719476735), 9, '0'),
        f.slug || '-' || replace(replace(f.price_text, ',', ''), '.', '-') || CASE WHEN f.is_coupon THEN '-with-code-' || lower(f.code) ELSE '' END,
        'd',
        CASE WHEN f.is_coupon THEN 'coupon' ELSE 'deal' END,
        f.user_id,
        CASE WHEN f.is_coupon THEN ${coupons}::bigint ELSE ${hotDeals}::bigint END,
        f.store_id,
        f.category_id,
        f.name || ' – $' || f.price_text
          || CASE WHEN f.is_coupon THEN ' with Code ' || f.code ELSE '' END
          || ' (was $' || f.list_text || ')',
        '<p>' || f.store_title || ' has the <strong>' || f.name_html || '</strong> for <strong>$'
          || f.price_text || '</strong>, down from $' || f.list_text || ' (' || f.pct || '% off).</p>'
          || CASE WHEN f.is_coupon THEN '<p>Use code <strong>' || f.code || '</strong> at checkout.</p>' ELSE '' END
          || '<ul><li>Sold by ' || f.store_title || '</li><li>Prices change often; check before you buy</li></ul>',
        f.store_title || ' has the ' || f.name || ' for $' || f.price_text || ', down from $'
          || f.list_text || ' (' || f.pct || '% off).'
          || CASE WHEN f.is_coupon THEN ' Use code ' || f.code || ' at checkout.' ELSE '' END,
        f.image_url,
        f.price_cents / 100.0,
        f.list_cents / 100.0,
        round((1 - f.price_cents::numeric / f.list_cents) * 100)::int,
        'USD',
        (ARRAY['Hot Deal', 'Best Price', 'Free Shipping', 'Teacher Favorite', '', '', '', '', '', ''])[1 + f.h5 % 10],
        'https://www.' || f.domain || '/p/' || f.slug || '-' || f.n,
        f.domain || '/p/' || f.slug || '-' || f.n,
        CASE WHEN f.is_coupon THEN f.code ELSE '' END,
        f.expires_at,
        false,
        'active',
        f.views,
        post_hot_score(0, 0, 0, f.views, f.created_at),
        f.created_at,
        f.created_at,
        f.expires_at IS NOT NULL AND f.expires_at <= ${now}::timestamptz
      FROM f`.execute(tx);

  // One transaction: a failed run leaves nothing behind. When the load at least doubles the table,
  // the secondary indexes are dropped first and rebuilt at the end, which is several times faster
  // than updating them row by row (the GIN indexes of search and titles above all). The search
  // trigger stays on, so the search document is the schema's own. The listing counts' row trigger
  // is off and the counts are taken once at the end instead (migration 022).
  await db.transaction().execute(async (tx) => {
    const existing = await sql<{ n: number }>`SELECT count(*)::int AS n FROM posts`.execute(tx);
    const rebuild = total >= Math.max(10_000, existing.rows[0]?.n ?? 0);
    const indexes = rebuild ? await dropSecondaryIndexes(tx) : [];
    await sql`ALTER TABLE posts DISABLE TRIGGER posts_scope_counts_trg`.execute(tx);
    let done = 0;
    for (let from = first; from <= last; from += batchSize) {
      const to = Math.min(last, from + batchSize - 1);
      await insertBatch(tx, from, to);
      done += to - from + 1;
      options.onProgress?.(done, total);
    }
    await sql`ALTER TABLE posts ENABLE TRIGGER posts_scope_counts_trg`.execute(tx);
    await sql`SELECT refresh_post_scope_counts()`.execute(tx);
    for (const index of indexes) {
      const t = performance.now();
      await sql.raw(index.definition).execute(tx);
      options.log?.(
        `rebuilt index ${index.name} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    }
  });
  if (total > 0) {
    // Marks the new rows all-visible, so index-only scans skip the table, as autovacuum would after
    // a load (PGlite has none, record 0062); then the planner learns the new sizes.
    await sql`VACUUM posts`.execute(db);
    await sql`ANALYZE`.execute(db);
  }
  return { inserted: total, from: first, to: last, ms: Math.round(performance.now() - started) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      deals: { type: "string", default: "1000000" },
      "data-dir": { type: "string" },
      batch: { type: "string", default: "50000" },
    },
  });
  const deals = Number(values.deals);
  const batchSize = Number(values.batch);
  if (!Number.isInteger(deals) || deals < 0 || !Number.isInteger(batchSize) || batchSize < 1) {
    console.error("usage: npm run data:large -- --deals N [--data-dir DIR] [--batch ROWS]");
    process.exit(2);
  }
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = path.resolve(values["data-dir"] ?? (process.env.DATA_DIR || "./data"));
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);

  // The demo pictures go where the servers read media: the bucket of S3_BUCKET, else DIR/media.
  // Read before anything is opened, so a bad S3_* variable stops it with its one line.
  const config = loadConfig(process.env);
  const media = createMediaStorage({ ...config, dataDir });
  // The site's log format (core/log/logger.ts): one JSON object a line, at LOG_LEVEL.
  const log = createLogger({ level: config.logLevel });

  // PGlite has no lock between processes: refuse to run beside a server on the same folder.
  const release = databaseUrl ? () => {} : lockDataDir(dataDir);
  const handle = await createDb({ databaseUrl, dataDir });
  try {
    log.info(
      `database: ${databaseUrl ? databaseUrl.replace(/\/\/[^@/]*@/, "//***@") : `PGlite in ${dataDir}`}`,
    );
    const hasContent = await handle.db.selectFrom("posts").select("id").limit(1).executeTakeFirst();
    if (!hasContent) {
      log.info("empty database: adding the demo content");
      await seedDemoData(handle.db, { media });
      log.info(`demo content ready (${seconds()} s)`);
    }
    const result = await generateLargeData(handle.db, {
      deals,
      batchSize,
      log: (line) => log.info(line),
      onProgress: (done, total) =>
        log.info(
          `${done.toLocaleString("en-US")} / ${total.toLocaleString("en-US")} deals (${Math.round((done / total) * 100)}%) ${seconds()} s`,
        ),
    });
    const rate = result.ms > 0 ? Math.round(result.inserted / (result.ms / 1000)) : 0;
    log.info(
      `added ${result.inserted.toLocaleString("en-US")} deals in ${(result.ms / 1000).toFixed(1)} s (${rate.toLocaleString("en-US")}/s, incl. ANALYZE); total ${seconds()} s`,
    );
  } finally {
    await handle.close();
    release();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
