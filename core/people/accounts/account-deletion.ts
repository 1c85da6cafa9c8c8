import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Database } from "../../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { releaseUserImage } from "../../media/images.ts";
import { anonymiseUser } from "./repository.ts";

/**
 * Deleting an account (docs/decisions/0014-account-deletion.md): the one piece of logic behind a
 * member's own deletion and an administrator's. The person's data goes and the row stays as an
 * anonymous "Deleted user", in one transaction; `inTransaction` runs first inside it (the console
 * checks and locks the account and writes its audit entry there, so all or nothing is written).
 * After the commit, every cache that showed the name, the picture or the likes drops them, and an
 * uploaded avatar is removed.
 */
export async function deleteAccount(
  deps: Pick<Deps, "db" | "changes" | "now" | "media" | "log">,
  userId: number,
  inTransaction?: (tx: Transaction<Database>) => Promise<void>,
): Promise<void> {
  const at = deps.now();
  const tombstone = `deleted-user-${userId}-${randomBytes(6).toString("hex")}`;
  const { avatarUrl } = await deps.db.transaction().execute(async (tx) => {
    await inTransaction?.(tx);
    return anonymiseUser(tx, userId, at, tombstone);
  });
  // Cards showed the name and picture; the person's likes are gone from the counts.
  deps.changes.emit("users");
  deps.changes.emit("reactions");
  await releaseUserImage(deps, userId, avatarUrl);
}
