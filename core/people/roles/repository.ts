import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import { keptPostCount } from "../../cards/deal-scope.ts";
import type { UserRole } from "../../../db/schema.ts";
import type { UsersQueryInput } from "./schema.ts";

const targetColumns = [
  "users.id",
  "users.name",
  "users.email",
  "users.role",
  "users.created_at",
  "users.suspended_at",
  "users.suspended_until",
  "users.suspension_reason",
  "users.verified_educator",
  "users.deleted_at",
] as const;

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUser>>>;

/** `%text%` for ILIKE, with the pattern characters of `text` taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The users list: search, filters and one page, newest accounts first, with each one's post count. */
export async function listUsers(
  db: DbOrTx,
  query: UsersQueryInput,
  now: Date,
  pageSize: number,
): Promise<{ rows: (UserRow & { posts_count: number })[]; total: number }> {
  let base = db.selectFrom("users");
  if (query.q) {
    const like = containing(query.q);
    const id = /^\d{1,15}$/.test(query.q) ? Number(query.q) : null;
    base = base.where((eb) =>
      eb.or([
        eb("users.name", "ilike", like),
        eb("users.email", "ilike", like),
        ...(id !== null ? [eb("users.id", "=", id)] : []),
      ]),
    );
  }
  if (query.role) base = base.where("users.role", "=", query.role);
  if (query.status === "deleted") base = base.where("users.deleted_at", "is not", null);
  if (query.status === "active" || query.status === "suspended") {
    base = base.where("users.deleted_at", "is", null);
    const inForce = sql<boolean>`(users.suspended_at IS NOT NULL AND (users.suspended_until IS NULL OR users.suspended_until > ${now}))`;
    base =
      query.status === "suspended" ? base.where(inForce) : base.where(sql<boolean>`NOT ${inForce}`);
  }
  const [counted, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
    base
      .select(targetColumns)
      // Every post of the member, whatever its status.
      .select(keptPostCount("user", "users.id", "all").as("posts_count"))
      .orderBy("users.id", "desc")
      .limit(pageSize)
      .offset((query.page - 1) * pageSize)
      .execute(),
  ]);
  return { rows, total: Number(counted.total) };
}

/** One account as it is now (after a change, to answer with). */
export function findUser(db: DbOrTx, id: number) {
  return db.selectFrom("users").select(targetColumns).where("users.id", "=", id).executeTakeFirst();
}

/** One account, locked for the change that follows. */
export function lockUser(db: DbOrTx, id: number) {
  return db
    .selectFrom("users")
    .select(targetColumns)
    .where("users.id", "=", id)
    .forUpdate()
    .executeTakeFirst();
}

/** A live account by address, case-insensitively, locked for the change that follows. */
export function lockLiveUserByEmail(db: DbOrTx, email: string) {
  return db
    .selectFrom("users")
    .select(targetColumns)
    .where(sql<string>`lower(users.email)`, "=", email.toLowerCase())
    .where("users.deleted_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Serialises the console's changes to people until the transaction ends: two administrators who
 * demote or suspend each other at the same moment are taken one after the other, and the second
 * sees what the first did.
 */
export async function lockPeopleChanges(tx: DbOrTx) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended('console:people', 0))`.execute(tx);
}

/** Administrators of live accounts whose suspension (if any) is not in force, other than `exceptId`. */
export async function countOtherUsableAdmins(db: DbOrTx, exceptId: number, now: Date) {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("role", "=", "admin")
    .where("deleted_at", "is", null)
    .where("id", "<>", exceptId)
    .where((eb) =>
      eb.or([
        eb("suspended_at", "is", null),
        eb.and([eb("suspended_until", "is not", null), eb("suspended_until", "<=", now)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setRole(db: DbOrTx, id: number, role: UserRole, at: Date) {
  await db.updateTable("users").set({ role, updated_at: at }).where("id", "=", id).execute();
}

export async function setSuspension(
  db: DbOrTx,
  id: number,
  suspension: { at: Date; until: Date | null; reason: string },
) {
  await db
    .updateTable("users")
    .set({
      suspended_at: suspension.at,
      suspended_until: suspension.until,
      suspension_reason: suspension.reason,
      updated_at: suspension.at,
    })
    .where("id", "=", id)
    .execute();
}

export async function clearSuspension(db: DbOrTx, id: number, at: Date) {
  await db
    .updateTable("users")
    .set({ suspended_at: null, suspended_until: null, suspension_reason: "", updated_at: at })
    .where("id", "=", id)
    .execute();
}

export async function setVerifiedEducator(db: DbOrTx, id: number, verified: boolean, at: Date) {
  await db
    .updateTable("users")
    .set({ verified_educator: verified, updated_at: at })
    .where("id", "=", id)
    .execute();
}
