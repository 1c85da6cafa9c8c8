import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";

/** The console dashboard's figures: three aggregate reads, whatever the size of the site. */

export interface RecentCount {
  what: "users" | "deals" | "discussions" | "comments" | "reports" | "contact_messages";
  day: number;
  week: number;
}

/** New rows of each kind since `dayAgo` and since `weekAgo`. */
export async function countRecent(db: DbOrTx, dayAgo: Date, weekAgo: Date) {
  const { rows } = await sql<RecentCount>`
    SELECT 'users' AS what, count(*) FILTER (WHERE created_at > ${dayAgo}) AS day, count(*) AS week
      FROM users WHERE created_at > ${weekAgo}
    UNION ALL
    SELECT 'deals', count(*) FILTER (WHERE created_at > ${dayAgo}), count(*)
      FROM posts WHERE post_type = 'd' AND created_at > ${weekAgo}
    UNION ALL
    SELECT 'discussions', count(*) FILTER (WHERE created_at > ${dayAgo}), count(*)
      FROM posts WHERE post_type = 'g' AND created_at > ${weekAgo}
    UNION ALL
    SELECT 'comments', count(*) FILTER (WHERE created_at > ${dayAgo}), count(*)
      FROM comments WHERE created_at > ${weekAgo}
    UNION ALL
    SELECT 'reports', count(*) FILTER (WHERE created_at > ${dayAgo}), count(*)
      FROM reports WHERE created_at > ${weekAgo}
    UNION ALL
    SELECT 'contact_messages', count(*) FILTER (WHERE created_at > ${dayAgo}), count(*)
      FROM contact_messages WHERE created_at > ${weekAgo}
  `.execute(db);
  return rows.map((row) => ({ ...row, day: Number(row.day), week: Number(row.week) }));
}

export interface QueueSizes {
  open_reports: number;
  reported_items: number;
  held_posts: number;
  hidden_posts: number;
  hidden_comments: number;
  open_messages: number;
}

/** What waits for staff: open reports (and the items they name), held and hidden items, mail. */
export async function countQueues(db: DbOrTx): Promise<QueueSizes> {
  const { rows } = await sql<QueueSizes>`
    SELECT
      (SELECT count(*) FROM reports WHERE status = 'open') AS open_reports,
      (SELECT count(*) FROM (SELECT 1 FROM reports WHERE status = 'open'
                             GROUP BY item_type, item_id) AS items) AS reported_items,
      (SELECT count(*) FROM posts WHERE status = 'pending') AS held_posts,
      (SELECT count(*) FROM posts WHERE status = 'hidden') AS hidden_posts,
      (SELECT count(*) FROM comments WHERE status = 'hidden') AS hidden_comments,
      (SELECT count(*) FROM contact_messages WHERE status = 'open') AS open_messages
  `.execute(db);
  const row = rows[0]!;
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, Number(value)]),
  ) as unknown as QueueSizes;
}

export interface DailyCount {
  /** YYYY-MM-DD (UTC). */
  day: string;
  posts: number;
  signups: number;
}

/**
 * New posts (deals and discussions, whatever their state) and sign-ups on each UTC day from
 * `firstDay` to `lastDay` (YYYY-MM-DD), days without any included as zeros.
 */
export async function countDaily(db: DbOrTx, firstDay: string, lastDay: string) {
  const { rows } = await sql<DailyCount>`
    WITH days AS (
      SELECT d::date AS day
      FROM generate_series(${firstDay}::date, ${lastDay}::date, interval '1 day') AS d
    ),
    start AS (SELECT (${firstDay}::date)::timestamp AT TIME ZONE 'UTC' AS at),
    posted AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n
      FROM posts WHERE created_at >= (SELECT at FROM start) GROUP BY 1
    ),
    joined AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n
      FROM users WHERE created_at >= (SELECT at FROM start) GROUP BY 1
    )
    SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
           coalesce(posted.n, 0) AS posts,
           coalesce(joined.n, 0) AS signups
    FROM days
    LEFT JOIN posted ON posted.day = days.day
    LEFT JOIN joined ON joined.day = days.day
    ORDER BY days.day
  `.execute(db);
  return rows.map((row) => ({
    day: row.day,
    posts: Number(row.posts),
    signups: Number(row.signups),
  }));
}
