/** The console's SQL for the footer's social links (the public read is ./repository.ts). */
import type { DbOrTx } from "../../db/index.ts";

const COLUMNS = ["id", "name", "social_url", "social_image", "position"] as const;

export function findSocialLinkRows(db: DbOrTx) {
  return db.selectFrom("social_links").select(COLUMNS).orderBy("position").orderBy("id").execute();
}

export function findSocialLink(db: DbOrTx, id: number, lock = false) {
  const query = db.selectFrom("social_links").select(COLUMNS).where("id", "=", id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export type SocialLinkRow = NonNullable<Awaited<ReturnType<typeof findSocialLink>>>;

export type SocialLinkValues = {
  name: string;
  social_url: string;
  social_image: string;
};

export async function insertSocialLink(
  db: DbOrTx,
  values: SocialLinkValues,
  position: number,
): Promise<number> {
  const row = await db
    .insertInto("social_links")
    .values({ ...values, position })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSocialLink(db: DbOrTx, id: number, values: SocialLinkValues) {
  await db.updateTable("social_links").set(values).where("id", "=", id).execute();
}

export async function deleteSocialLink(db: DbOrTx, id: number) {
  await db.deleteFrom("social_links").where("id", "=", id).execute();
}
