import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";

/** Vote integrity's own SQL (docs/decisions/0091-vote-integrity.md). */

/** The member the console page is about, whatever their state. */
export function findMember(db: DbOrTx, userId: number) {
  return db
    .selectFrom("users")
    .select(["id", "name", "role", "created_at", "deleted_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
}

/** Locks the member's row, so that two staff acting on one member's voting take turns. */
export function lockMember(db: DbOrTx, userId: number) {
  return db
    .selectFrom("users")
    .select(["id", "name", "role", "deleted_at"])
    .where("id", "=", userId)
    .forUpdate()
    .executeTakeFirst();
}

/** One page of the member's votes on posts, newest first, with the post and its poster. */
export function findVotes(db: DbOrTx, userId: number, offset: number, limit: number) {
  return db
    .selectFrom("likes as l")
    .innerJoin("posts as p", "p.id", "l.post_id")
    .leftJoin("users as poster", "poster.id", "p.user_id")
    .select([
      "l.reaction",
      "l.reason",
      "l.created_at",
      "l.voter_network",
      "p.unique_id",
      "p.slug",
      "p.post_type",
      "p.title",
      "p.status",
      "p.user_id as poster_id",
      "poster.name as poster_name",
    ])
    .where("l.user_id", "=", userId)
    .orderBy("l.created_at", "desc")
    .orderBy("l.post_id", "desc")
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function countVotes(db: DbOrTx, userId: number): Promise<number> {
  const row = await db
    .selectFrom("likes")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The member's warnings and blocks, newest first. */
export function findRestrictions(db: DbOrTx, userId: number) {
  return db
    .selectFrom("voting_restrictions")
    .select(["id", "kind", "reason", "created_at", "ends_at", "lifted_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

/** The latest warning given since `since`, if any. */
export function findWarningSince(db: DbOrTx, userId: number, since: Date) {
  return db
    .selectFrom("voting_restrictions")
    .select(["id", "created_at"])
    .where("user_id", "=", userId)
    .where("kind", "=", "warning")
    .where("created_at", ">=", since)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
}

export function insertRestriction(
  db: DbOrTx,
  row: {
    user_id: number;
    kind: "warning" | "block";
    reason: string;
    created_at: Date;
    ends_at: Date | null;
  },
) {
  return db
    .insertInto("voting_restrictions")
    .values(row)
    .returning(["id", "kind", "reason", "created_at", "ends_at", "lifted_at"])
    .executeTakeFirstOrThrow();
}

/** Lifts every block of the member in force at `at`; returns those lifted. */
export function liftBlocks(db: DbOrTx, userId: number, at: Date) {
  return db
    .updateTable("voting_restrictions")
    .set({ lifted_at: at })
    .where("user_id", "=", userId)
    .where("kind", "=", "block")
    .where("lifted_at", "is", null)
    .where("ends_at", ">", at)
    .returning(["id", "reason", "ends_at"])
    .execute();
}

// The serial-voting job --------------------------------------------------------------------------

/**
 * (a) Members who voted one way on at least `min` posts of one poster since `since` (not their
 * own posts): voter, poster, direction, how many, and the newest such vote.
 */
export function findSerialVoters(db: DbOrTx, since: Date, min: number) {
  return db
    .selectFrom("likes as l")
    .innerJoin("posts as p", "p.id", "l.post_id")
    .select([
      "l.user_id as voter_id",
      "p.user_id as poster_id",
      "l.reaction",
      sql<number>`count(*)::int`.as("votes"),
      sql<Date>`max(l.created_at)`.as("last_vote_at"),
    ])
    .where("l.created_at", ">=", since)
    .whereRef("p.user_id", "<>", "l.user_id")
    .groupBy(["l.user_id", "p.user_id", "l.reaction"])
    .having(sql<number>`count(*)`, ">=", min)
    .orderBy("l.user_id")
    .orderBy("p.user_id")
    .execute();
}

/**
 * (b) Posts on which at least `min` accounts created after `youngerThan` voted one way from one
 * network since `since`: the post, network, direction, the accounts and the newest such vote.
 */
export function findNetworkNewcomers(db: DbOrTx, since: Date, youngerThan: Date, min: number) {
  return db
    .selectFrom("likes as l")
    .innerJoin("users as u", "u.id", "l.user_id")
    .innerJoin("posts as p", "p.id", "l.post_id")
    .select([
      "p.id as post_id",
      "p.unique_id",
      "p.post_type",
      "l.voter_network",
      "l.reaction",
      sql<number[]>`array_agg(l.user_id ORDER BY l.user_id)`.as("voter_ids"),
      sql<Date>`max(l.created_at)`.as("last_vote_at"),
    ])
    .where("l.created_at", ">=", since)
    .where("l.voter_network", "is not", null)
    .where("u.created_at", ">", youngerThan)
    .where("u.deleted_at", "is", null)
    .groupBy(["p.id", "p.unique_id", "p.post_type", "l.voter_network", "l.reaction"])
    .having(sql<number>`count(*)`, ">=", min)
    .orderBy("p.id")
    .execute();
}

export function findNames(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("users").select(["id", "name"]).where("id", "in", ids).execute();
}

/**
 * Whether the finding is already reported: open, or resolved after its newest vote (a moderator
 * looked at it; only a newer vote makes it news again).
 */
export async function isReported(db: DbOrTx, finding: string, lastVoteAt: Date) {
  const row = await db
    .selectFrom("reports")
    .select("id")
    .where("finding", "=", finding)
    .where("reporter_id", "is", null)
    .where((eb) => eb.or([eb("status", "=", "open"), eb("resolved_at", ">=", lastVoteAt)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** Files the site's report of a finding; false when one is already open (the unique index). */
export async function fileFinding(
  db: DbOrTx,
  report: {
    item_type: "user" | "d" | "g";
    item_id: string;
    finding: string;
    note: string;
    created_at: Date;
  },
): Promise<boolean> {
  const rows = await db
    .insertInto("reports")
    .values({ ...report, reporter_id: null, reason: "serial voting" })
    .onConflict((oc) =>
      oc
        .columns(["item_type", "item_id", "reason", "finding"])
        .where("status", "=", "open")
        .where("reporter_id", "is", null)
        .doNothing(),
    )
    .returning("id")
    .execute();
  return rows.length > 0;
}
