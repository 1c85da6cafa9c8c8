import { randomBytes } from "node:crypto";
import type { DbOrTx } from "../../db/index.ts";

/**
 * The server-side secret called `name` in site_secrets, made by `make` (32 random bytes unless a
 * secret needs another shape, such as a key pair) the first time it is asked for. Every process over the same database gets the same value: a second maker's insert
 * does nothing and it reads the first one's. Never shown, never logged.
 */
export async function readOrMakeSiteSecret(
  db: DbOrTx,
  name: string,
  make: () => string = () => randomBytes(32).toString("base64url"),
): Promise<string> {
  const found = await db
    .selectFrom("site_secrets")
    .select("value")
    .where("name", "=", name)
    .executeTakeFirst();
  if (found) return found.value;
  await db
    .insertInto("site_secrets")
    .values({ name, value: make() })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const made = await db
    .selectFrom("site_secrets")
    .select("value")
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
  return made.value;
}
