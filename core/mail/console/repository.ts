import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";

/**
 * The Mail page's reading of the mail tables (migration 031) and its one write, a clear. The mail
 * job writes them (core/mail); the job queue's own table is read by core/jobs/queue.ts.
 */

export interface DailyMailCount {
  /** YYYY-MM-DD (UTC). */
  day: string;
  sent: number;
  failed: number;
  suppressed: number;
}

/**
 * Mail sent, failed and suppressed on each UTC day from `firstDay` to `lastDay` (YYYY-MM-DD),
 * newest first, a day with no row as zeros.
 */
export async function findDailyCounts(
  db: DbOrTx,
  firstDay: string,
  lastDay: string,
): Promise<DailyMailCount[]> {
  const { rows } = await sql<DailyMailCount>`
    SELECT to_char(d::date, 'YYYY-MM-DD') AS day,
           coalesce(c.sent, 0) AS sent,
           coalesce(c.failed, 0) AS failed,
           coalesce(c.suppressed, 0) AS suppressed
    FROM generate_series(${firstDay}::date, ${lastDay}::date, interval '1 day') AS d
    LEFT JOIN mail_daily_counts c ON c.day = d::date
    ORDER BY d DESC
  `.execute(db);
  return rows.map((row) => ({
    day: row.day,
    sent: Number(row.sent),
    failed: Number(row.failed),
    suppressed: Number(row.suppressed),
  }));
}

export async function countUndeliverable(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom("undeliverable_addresses")
    .select(sql<number>`count(*)`.as("total"))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** One page of the undeliverable addresses, the latest failure first. */
export function findUndeliverable(db: DbOrTx, page: { limit: number; offset: number }) {
  return db
    .selectFrom("undeliverable_addresses")
    .select(["address", "reason", "failed_at"])
    .orderBy("failed_at", "desc")
    .orderBy("address")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function findUndeliverableAddress(db: DbOrTx, address: string) {
  return db
    .selectFrom("undeliverable_addresses")
    .select(["address", "reason", "failed_at"])
    .where("address", "=", address)
    .executeTakeFirst();
}

/** Takes `address` off the list; the row it was, or undefined when it was not listed. */
export function deleteUndeliverable(tx: DbOrTx, address: string) {
  return tx
    .deleteFrom("undeliverable_addresses")
    .where("address", "=", address)
    .returning(["address", "reason", "failed_at"])
    .executeTakeFirst();
}

export type UndeliverableRow = NonNullable<Awaited<ReturnType<typeof findUndeliverableAddress>>>;
