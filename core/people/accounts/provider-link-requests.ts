import type { DbOrTx } from "../../../db/index.ts";
import type { OAuthProvider } from "../../auth/oauth.ts";

/**
 * Pending links of a provider identity to an existing account (migration 012): a social sign-in
 * whose verified address belongs to an account mails its owner a single-use code; the link is made
 * only when that code comes back with the same provider identity (docs/decisions/0026).
 */

export async function insertLinkRequest(
  db: DbOrTx,
  request: {
    userId: number;
    provider: OAuthProvider;
    subject: string;
    tokenHash: string;
    expiresAt: Date;
  },
) {
  await db
    .insertInto("oauth_link_requests")
    .values({
      user_id: request.userId,
      provider: request.provider,
      provider_user_id: request.subject,
      token_hash: request.tokenHash,
      expires_at: request.expiresAt,
    })
    .execute();
}

/** Only the newest code for an account and provider works. */
export async function retireLinkRequests(
  db: DbOrTx,
  userId: number,
  provider: OAuthProvider,
  now: Date,
) {
  await db
    .updateTable("oauth_link_requests")
    .set({ used_at: now })
    .where("user_id", "=", userId)
    .where("provider", "=", provider)
    .where("used_at", "is", null)
    .execute();
}

/** An unused, unexpired request with this code's hash, whose account is live; locked when `lock`. */
export function findUsableLinkRequest(
  db: DbOrTx,
  tokenHash: string,
  now: Date,
  options: { lock?: boolean } = {},
) {
  let query = db
    .selectFrom("oauth_link_requests")
    .innerJoin("users", "users.id", "oauth_link_requests.user_id")
    .select([
      "oauth_link_requests.id",
      "oauth_link_requests.user_id",
      "oauth_link_requests.provider",
      "oauth_link_requests.provider_user_id",
    ])
    .where("oauth_link_requests.token_hash", "=", tokenHash)
    .where("oauth_link_requests.used_at", "is", null)
    .where("oauth_link_requests.expires_at", ">", now)
    .where("users.deleted_at", "is", null);
  if (options.lock) query = query.forUpdate("oauth_link_requests");
  return query.executeTakeFirst();
}

export async function markLinkRequestUsed(db: DbOrTx, id: number, now: Date) {
  await db.updateTable("oauth_link_requests").set({ used_at: now }).where("id", "=", id).execute();
}
