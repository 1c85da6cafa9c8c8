/**
 * `npm run bench -- --only alerts --pg postgres://…`: how long the one matching statement
 * (core/member/alerts/repository.ts matchDeal) takes to find the alerts a newly published deal matches
 * among 100,000 varied alerts, on PostgreSQL. Everything lives in a schema of its own, dropped at
 * the end. See docs/decisions/0045-alert-matching.md.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { matchDeal } from "../core/member/alerts/repository.ts";
import { createDb, type Db, type DbOrTx } from "../db/index.ts";
import { seedDemoData } from "../db/demo/seed.ts";
import { createFolderStorage } from "../core/media/storage.ts";

const WORDS = (
  "crayon marker pencil pen eraser notebook binder folder stapler scissors glue tape ruler " +
  "calculator laptop tablet projector whiteboard chalk easel globe backpack lunchbox paper " +
  "printer ink toner laminator sharpener highlighter sticker poster book reader headphones " +
  "speaker microphone camera keyboard mouse monitor charger cable desk chair lamp rug bin " +
  "basket organizer shelf clock timer magnet puzzle game lego blocks paint brush canvas clay"
).split(" ");

/** Made-up product words (letters only, so no stemming merges them): a shop's long tail. */
const SYLLABLES = "ka lo mi nu pe ra si to vu ze ba co du fe gi".split(" ");
const GENERATED = Array.from({ length: 3000 }, (_, n) => {
  let word = "";
  for (let x = n + 15 * 15; x > 0; x = Math.floor(x / SYLLABLES.length)) {
    word += SYLLABLES[x % SYLLABLES.length];
  }
  return `${word}x`;
});
const VOCABULARY = [...WORDS, ...GENERATED];

/**
 * 2,000 members ("bench-N@example.com"), each with up to 50 alerts: 1–3 keywords from the
 * vocabulary (95%) or filters only (5%); a quarter with a store, a third with a maximum price,
 * some with a minimum discount, a tenth only hot, a tenth paused; a third each instant, daily and
 * site only. Also bench/push.ts's alerts.
 */
export async function seedBenchAlerts(db: Db, count: number) {
  await sql`
    INSERT INTO users (name, email, user_type, email_verified_at)
    SELECT 'Bench ' || g, 'bench-' || g || '@example.com', 'Teacher', now()
    FROM generate_series(1, 2000) AS g`.execute(db);
  await sql`
    WITH v AS (SELECT ${VOCABULARY}::text[] AS w),
    raw AS (
      SELECT g,
        CASE WHEN g % 100 = 0 THEN ''
          ELSE array_to_string(ARRAY(
            SELECT v.w[1 + ((g * 7919 + k * 104729) % array_length(v.w, 1))]
            FROM generate_series(1, 1 + g % 3) AS k), ' ')
        END AS kw
      FROM generate_series(1, ${count}) AS g, v
    )
    INSERT INTO alerts (user_id, keywords, query, lexemes, store_ids, max_price, min_discount,
      only_hot, delivery, paused, rss_token_hash)
    SELECT (SELECT min(id) FROM users WHERE email LIKE 'bench-%') + g % 2000, kw,
      CASE WHEN kw = '' THEN NULL ELSE websearch_to_tsquery('english', kw) END,
      CASE WHEN kw = '' THEN '{}' ELSE tsvector_to_array(to_tsvector('english', kw)) END,
      CASE WHEN g % 4 = 0 THEN ARRAY[(SELECT min(id) FROM stores) + g % 5]::bigint[] ELSE '{}' END,
      CASE WHEN g % 3 = 0 OR kw = '' THEN 10 + g % 90 ELSE NULL END,
      CASE WHEN g % 7 = 0 THEN g % 50 ELSE NULL END,
      g % 10 = 0, (ARRAY['instant','daily','site'])[1 + g % 3], g % 10 = 5,
      'bench-' || g
    FROM raw`.execute(db);
}

/** A deal's title for bench deal `i`: three vocabulary words, so it matches some alerts. */
export function benchDealWords(i: number): string[] {
  return [0, 1, 2].map(
    (k) => VOCABULARY[(i * 7919 + k * 104729 + (i % 3) * 7) % VOCABULARY.length]!,
  );
}

/** The member who posts the bench's deals and the stores they are from: the demo data's first. */
export async function benchDealAuthors(db: DbOrTx) {
  const poster = await db.selectFrom("users").select("id").orderBy("id").executeTakeFirstOrThrow();
  const stores = await db.selectFrom("stores").select("id").orderBy("id").limit(5).execute();
  return { poster: poster.id, stores: stores.map((s) => s.id) };
}

/** The bench's `i`th deal, public at once, its title drawn from the alerts' vocabulary. */
export async function insertBenchDeal(
  db: DbOrTx,
  deal: { i: number; prefix: string; posterId: number; stores: number[] },
) {
  const { i, prefix } = deal;
  const words = benchDealWords(i);
  return db
    .insertInto("posts")
    .values({
      unique_id: `${prefix}${i}${randomBytes(4).toString("hex")}`,
      slug: `${prefix}-${i}`,
      post_type: "d",
      kind: "deal",
      status: "active",
      user_id: deal.posterId,
      store_id: deal.stores[i % deal.stores.length]!,
      title: `Classroom ${words.join(" ")}s value pack`,
      description: "<p>A benchmark deal.</p>",
      description_text: `A benchmark deal with ${words[0]}s.`,
      price: 5 + (i % 60),
      discount: i % 60,
      created_at: new Date(),
      updated_at: new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

export async function benchAlerts(options: { pg: string; alerts: number; deals: number }) {
  const schema = `bench_alerts_${randomBytes(4).toString("hex")}`;
  const handle = await createDb({ databaseUrl: options.pg, schema });
  const { db } = handle;
  try {
    await seedDemoData(db, {
      scale: "small",
      media: createFolderStorage(fs.mkdtempSync(path.join(os.tmpdir(), "bench-alerts-"))),
    });
    console.log(`Creating ${options.alerts.toLocaleString("en-US")} alerts in ${schema}…`);
    await seedBenchAlerts(db, options.alerts);
    await sql`ANALYZE alerts`.execute(db);
    const { poster, stores } = await benchDealAuthors(db);
    const times: number[] = [];
    let matched = 0;
    for (let i = 0; i < options.deals; i++) {
      const post = await insertBenchDeal(db, { i, prefix: "bench", posterId: poster, stores });
      const started = performance.now();
      const rows = await db
        .transaction()
        .execute((tx) => matchDeal(tx, post.id, false, new Date()));
      times.push(performance.now() - started);
      matched += rows.length;
    }
    const { rows: plan } = await sql<{ "QUERY PLAN": string }>`
      EXPLAIN SELECT a.id FROM alerts a WHERE NOT a.paused AND a.query IS NOT NULL
        AND a.lexemes && (SELECT tsvector_to_array(search) FROM posts ORDER BY id DESC LIMIT 1)`.execute(
      db,
    );
    times.sort((a, b) => a - b);
    const pick = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    console.log(
      `alerts: ${options.alerts.toLocaleString("en-US")} alerts, ${options.deals} deals published: ` +
        `match median ${pick(0.5).toFixed(1)} ms, p99 ${pick(0.99).toFixed(1)} ms, ` +
        `max ${times[times.length - 1]!.toFixed(1)} ms; ${(matched / options.deals).toFixed(0)} matches per deal`,
    );
    console.log(`candidate search plan: ${plan.map((r) => r["QUERY PLAN"].trim()).join(" | ")}`);
  } finally {
    await handle.close();
    if (process.env.BENCH_KEEP_SCHEMA) {
      console.log(`kept ${schema}`);
    } else {
      const admin = await createDb({ databaseUrl: options.pg });
      await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(admin.db);
      await admin.close();
    }
  }
}
