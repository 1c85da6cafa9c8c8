/** The SQL of verified educators: requests, the school-domain list, teachers' own wishlist entries. */
import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import type { EducatorRequestMethod, EducatorRequestStatus } from "../../../db/schema.ts";

// The member's account ---------------------------------------------------------------------------

/** The live account, locked until the transaction ends: one request at a time per member. */
export function lockMember(db: DbOrTx, userId: number) {
  return db
    .selectFrom("users")
    .select(["id", "name", "email", "verified_educator", "deleted_at"])
    .where("id", "=", userId)
    .where("deleted_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
}

export async function markVerified(db: DbOrTx, userId: number, at: Date) {
  await db
    .updateTable("users")
    .set({ verified_educator: true, updated_at: at })
    .where("id", "=", userId)
    .execute();
}

// Requests ---------------------------------------------------------------------------------------

const REQUEST_COLUMNS = [
  "educator_requests.id",
  "educator_requests.user_id",
  "educator_requests.method",
  "educator_requests.school_email",
  "educator_requests.note",
  "educator_requests.status",
  "educator_requests.token_expires_at",
  "educator_requests.decided_at",
  "educator_requests.reason",
  "educator_requests.created_at",
] as const;

/** The member's newest request, or undefined. */
export function findLatestRequest(db: DbOrTx, userId: number) {
  return db
    .selectFrom("educator_requests")
    .select(REQUEST_COLUMNS)
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export type RequestRow = NonNullable<Awaited<ReturnType<typeof findLatestRequest>>>;

/** The member's open request, locked. */
export function lockOpenRequest(db: DbOrTx, userId: number) {
  return db
    .selectFrom("educator_requests")
    .select(REQUEST_COLUMNS)
    .where("user_id", "=", userId)
    .where("status", "=", "pending")
    .forUpdate()
    .executeTakeFirst();
}

/** Closes the member's open school-address request whose link has expired. */
export async function expireStaleRequests(db: DbOrTx, userId: number, at: Date) {
  await db
    .updateTable("educator_requests")
    .set({ status: "expired" })
    .where("user_id", "=", userId)
    .where("status", "=", "pending")
    .where("method", "=", "school_email")
    .where("token_expires_at", "<=", at)
    .execute();
}

export async function countRequestsSince(db: DbOrTx, userId: number, since: Date) {
  const row = await db
    .selectFrom("educator_requests")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertRequest(
  db: DbOrTx,
  values: {
    userId: number;
    method: EducatorRequestMethod;
    schoolEmail?: string;
    note?: string;
    tokenHash?: string;
    tokenExpiresAt?: Date;
    at: Date;
  },
): Promise<number> {
  const row = await db
    .insertInto("educator_requests")
    .values({
      user_id: values.userId,
      method: values.method,
      school_email: values.schoolEmail ?? "",
      note: values.note ?? "",
      token_hash: values.tokenHash ?? null,
      token_expires_at: values.tokenExpiresAt ?? null,
      created_at: values.at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The request a mailed link names (whatever its state), locked. */
export function lockRequestByToken(db: DbOrTx, tokenHash: string) {
  return db
    .selectFrom("educator_requests")
    .innerJoin("users", "users.id", "educator_requests.user_id")
    .select([...REQUEST_COLUMNS, "users.deleted_at as user_deleted_at", "users.name as user_name"])
    .where("educator_requests.token_hash", "=", tokenHash)
    .forUpdate()
    .executeTakeFirst();
}

/** A request by id, locked, with its member's name. */
export function lockRequest(db: DbOrTx, id: number) {
  return db
    .selectFrom("educator_requests")
    .innerJoin("users", "users.id", "educator_requests.user_id")
    .select([...REQUEST_COLUMNS, "users.name as user_name", "users.deleted_at as user_deleted_at"])
    .where("educator_requests.id", "=", id)
    .forUpdate("educator_requests")
    .executeTakeFirst();
}

/**
 * Closes a request; its link's hash stays, so a second click is told the link was used. Answers
 * whether this call closed it (two clicks racing each other cannot both succeed).
 */
export async function closeRequest(
  db: DbOrTx,
  id: number,
  change: { status: EducatorRequestStatus; at: Date; by?: number | null; reason?: string },
): Promise<boolean> {
  const result = await db
    .updateTable("educator_requests")
    .set({
      status: change.status,
      decided_at: change.at,
      decided_by: change.by ?? null,
      reason: change.reason ?? "",
    })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The moderators' queue: open review requests, oldest first, with who asked. */
export function listPendingReviews(db: DbOrTx, limit: number) {
  return db
    .selectFrom("educator_requests")
    .innerJoin("users", "users.id", "educator_requests.user_id")
    .select([
      ...REQUEST_COLUMNS,
      "users.name as user_name",
      "users.email as user_email",
      "users.user_type",
      "users.created_at as user_joined",
    ])
    .where("educator_requests.status", "=", "pending")
    .where("educator_requests.method", "=", "review")
    .where("users.deleted_at", "is", null)
    .orderBy("educator_requests.created_at")
    .orderBy("educator_requests.id")
    .limit(limit)
    .execute();
}

export type PendingReviewRow = Awaited<ReturnType<typeof listPendingReviews>>[number];

export async function countPendingReviews(db: DbOrTx) {
  const row = await db
    .selectFrom("educator_requests")
    .innerJoin("users", "users.id", "educator_requests.user_id")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("educator_requests.status", "=", "pending")
    .where("educator_requests.method", "=", "review")
    .where("users.deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

// School domains ---------------------------------------------------------------------------------

export async function listSchoolDomains(db: DbOrTx): Promise<string[]> {
  const rows = await db.selectFrom("school_domains").select("domain").orderBy("domain").execute();
  return rows.map((row) => row.domain);
}

/** Adds a domain; false when it was already listed. */
export async function insertSchoolDomain(db: DbOrTx, domain: string, by: number) {
  const row = await db
    .insertInto("school_domains")
    .values({ domain, created_by: by })
    .onConflict((oc) => oc.column("domain").doNothing())
    .returning("domain")
    .executeTakeFirst();
  return row !== undefined;
}

/** Removes a domain; false when it was not listed. */
export async function deleteSchoolDomain(db: DbOrTx, domain: string) {
  const result = await db
    .deleteFrom("school_domains")
    .where("domain", "=", domain)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

// Teachers' own wishlist entries -----------------------------------------------------------------

const WISHLIST_COLUMNS = [
  "teachers_wishlist.id",
  "teachers_wishlist.first_name",
  "teachers_wishlist.last_name",
  "teachers_wishlist.school_location",
  "teachers_wishlist.amazon_wishlist",
  "teachers_wishlist.status",
  "teachers_wishlist.user_id",
  "teachers_wishlist.review_reason",
  "teachers_wishlist.created_at",
] as const;

export async function insertOwnWishlistEntry(
  db: DbOrTx,
  values: {
    first_name: string;
    last_name: string;
    school_location: string;
    amazon_wishlist: string;
  },
  userId: number,
  at: Date,
): Promise<number> {
  const row = await db
    .insertInto("teachers_wishlist")
    // Pending entries stand outside the ordered list (position 0) until approved.
    .values({ ...values, user_id: userId, status: "pending", position: 0, created_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The member's own entries, newest first. */
export function listOwnWishlistEntries(db: DbOrTx, userId: number) {
  return db
    .selectFrom("teachers_wishlist")
    .select(WISHLIST_COLUMNS)
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

export async function countOpenOwnEntries(db: DbOrTx, userId: number) {
  const row = await db
    .selectFrom("teachers_wishlist")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Entries waiting for review, oldest first, with who sent them. */
export function listPendingWishlist(db: DbOrTx, limit: number) {
  return db
    .selectFrom("teachers_wishlist")
    .leftJoin("users", "users.id", "teachers_wishlist.user_id")
    .select([...WISHLIST_COLUMNS, "users.name as user_name"])
    .where("teachers_wishlist.status", "=", "pending")
    .orderBy("teachers_wishlist.created_at")
    .orderBy("teachers_wishlist.id")
    .limit(limit)
    .execute();
}

export type PendingWishlistRow = Awaited<ReturnType<typeof listPendingWishlist>>[number];

export function lockWishlistEntry(db: DbOrTx, id: number) {
  return db
    .selectFrom("teachers_wishlist")
    .select(WISHLIST_COLUMNS)
    .where("id", "=", id)
    .forUpdate()
    .executeTakeFirst();
}

export async function approveWishlistEntry(db: DbOrTx, id: number) {
  // Approved entries join the end of the public list.
  await sql`UPDATE teachers_wishlist SET status = 'approved', review_reason = '',
    position = (SELECT coalesce(max(position), 0) + 1 FROM teachers_wishlist WHERE status = 'approved')
    WHERE id = ${id}`.execute(db);
}

export async function rejectWishlistEntry(db: DbOrTx, id: number, reason: string) {
  await db
    .updateTable("teachers_wishlist")
    .set({ status: "rejected", review_reason: reason })
    .where("id", "=", id)
    .execute();
}
