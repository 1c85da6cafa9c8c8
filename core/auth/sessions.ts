import { createHash, randomBytes } from "node:crypto";
import type { DbOrTx } from "../../db/index.ts";
import type { UserRole } from "../../db/schema.ts";
import { prepared } from "../../db/prepared.ts";

/** Sessions last 30 days from their last use. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at / expires_at are moved forward at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export interface CurrentUser {
  id: number;
  name: string;
  email: string;
  image_url: string | null;
  user_type: string;
  email_verified: boolean;
  /** member, moderator or admin: checked by the features' policies, never only in the UI. */
  role: UserRole;
  sessionId: number;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * A new opaque session token (256 bits); only its hash is stored. Its times are the app's clock
 * (`now`), which also judges how recent the sign-in is (core/people/accounts/policy.ts).
 */
export async function createSession(db: DbOrTx, userId: number, userAgent = "", now = new Date()) {
  const token = randomBytes(32).toString("base64url");
  await db
    .insertInto("sessions")
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      user_agent: userAgent.slice(0, 300),
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + SESSION_TTL_MS),
    })
    .execute();
  return { token, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) };
}

export async function findSessionUser(
  db: DbOrTx,
  token: string,
  now = new Date(),
): Promise<CurrentUser | null> {
  if (!token || token.length > 200) return null;
  // Prepared (db/prepared.ts): every request of a signed-in member starts with it.
  const row = await prepared(db.selectFrom("sessions"))
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.id as session_id",
      "sessions.last_seen_at",
      "users.id",
      "users.name",
      "users.email",
      "users.image_url",
      "users.user_type",
      "users.email_verified_at",
      "users.role",
    ])
    .where("sessions.token_hash", "=", hashToken(token))
    .where("sessions.expires_at", ">", now)
    .where("users.deleted_at", "is", null)
    // A suspended user's sessions are ended when the suspension starts; this is the backstop.
    .where((eb) =>
      eb.or([
        eb("users.suspended_at", "is", null),
        eb.and([
          eb("users.suspended_until", "is not", null),
          eb("users.suspended_until", "<=", now),
        ]),
      ]),
    )
    .executeTakeFirst();
  if (!row) return null;
  if (now.getTime() - row.last_seen_at.getTime() > TOUCH_INTERVAL_MS) {
    await db
      .updateTable("sessions")
      .set({ last_seen_at: now, expires_at: new Date(now.getTime() + SESSION_TTL_MS) })
      .where("id", "=", row.session_id)
      .execute();
  }
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    image_url: row.image_url,
    user_type: row.user_type,
    email_verified: row.email_verified_at !== null,
    role: row.role,
    sessionId: row.session_id,
  };
}

export async function deleteSession(db: DbOrTx, sessionId: number) {
  await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}

/** Ends every session of a user, or every one but `exceptSessionId`. */
export async function deleteUserSessions(db: DbOrTx, userId: number, exceptSessionId?: number) {
  let query = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (exceptSessionId !== undefined) query = query.where("id", "<>", exceptSessionId);
  await query.execute();
}
