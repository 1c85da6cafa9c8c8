import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db, DbOrTx } from "../../../db/index.ts";
import { readOrMakeSiteSecret } from "../../auth/site-secrets.ts";
import { isEmailKind, type EmailKind } from "./email-kinds.ts";

/**
 * One-click unsubscribe links (RFC 8058; docs/decisions/0044-notifications-and-unsubscribe.md).
 * A token names a member and a mail kind and is signed with HMAC-SHA256 under a secret made once
 * and kept in site_secrets: it needs no sign-in, never expires, and stops working only if that
 * secret is replaced. A token changed in any way fails the signature check.
 */

const SECRET_NAME = "unsubscribe_hmac";

export interface UnsubscribeKeys {
  /** The token for `userId`'s mails of `kind`. `tx`: the caller's transaction, if one is open. */
  sign(userId: number, kind: EmailKind, tx?: DbOrTx): Promise<string>;
  /** The member and kind a token names, or null when it is malformed or its signature is wrong. */
  verify(token: string, tx?: DbOrTx): Promise<{ userId: number; kind: EmailKind } | null>;
}

function mac(secret: string, userId: number, kind: string): string {
  return createHmac("sha256", secret).update(`unsubscribe:${userId}:${kind}`).digest("base64url");
}

/**
 * The keys over the site's database. The secret is read once and kept in memory. With PGlite the
 * database has one connection, so inside a transaction the secret is read (or made) through that
 * transaction; one made there is not kept in memory until read again, since a rollback drops it
 * (and with it the mail that would have carried a token signed with it).
 */
export function createUnsubscribeKeys(db: Db): UnsubscribeKeys {
  let cached: string | undefined;

  async function secret(tx?: DbOrTx): Promise<string> {
    if (cached) return cached;
    const value = await readOrMakeSiteSecret(tx ?? db, SECRET_NAME);
    if (!tx) cached = value;
    return value;
  }

  return {
    async sign(userId, kind, tx) {
      return `${userId}.${kind}.${mac(await secret(tx), userId, kind)}`;
    },
    async verify(token, tx) {
      const match = /^([1-9][0-9]{0,15})\.([a-z_]{1,40})\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
      if (!match) return null;
      const userId = Number(match[1]);
      const kind = match[2]!;
      if (!Number.isSafeInteger(userId) || !isEmailKind(kind)) return null;
      const expected = Buffer.from(mac(await secret(tx), userId, kind));
      const given = Buffer.from(match[3]!);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      return { userId, kind };
    },
  };
}
