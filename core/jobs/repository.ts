import type { DbOrTx } from "../../db/index.ts";

/** Deletes sessions that expired before `before`; they can never be used again. */
export async function deleteExpiredSessions(db: DbOrTx, before: Date): Promise<number> {
  const result = await db
    .deleteFrom("sessions")
    .where("expires_at", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes mailed-link codes (used or not) that expired before `before`. */
export async function deleteExpiredEmailTokens(db: DbOrTx, before: Date): Promise<number> {
  const result = await db
    .deleteFrom("email_tokens")
    .where("expires_at", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
