import type { DbOrTx } from "../../db/index.ts";

export function findGeneralSettings(db: DbOrTx) {
  return db
    .selectFrom("general_settings")
    .leftJoin("posts", (join) =>
      join
        .onRef("posts.unique_id", "=", "general_settings.educator_post_unique_id")
        .on("posts.status", "=", "active"),
    )
    .select([
      "general_settings.website_name",
      "general_settings.website_logo",
      "general_settings.website_keywords",
      "general_settings.website_description",
      "posts.unique_id as educator_unique_id",
      "posts.slug as educator_slug",
    ])
    .where("general_settings.id", "=", 1)
    .executeTakeFirst();
}

export function findFooterSettings(db: DbOrTx) {
  return db.selectFrom("footer_settings").selectAll().orderBy("id").execute();
}

export function findSocialLinks(db: DbOrTx) {
  return db.selectFrom("social_links").selectAll().orderBy("position").orderBy("id").execute();
}

export interface GeneralSettingsChange {
  website_name?: string;
  website_logo?: string;
  website_keywords?: string;
  website_description?: string;
  educator_post_unique_id?: string;
}

/** Changes the one general-settings row (id 1), creating it when there is none yet. */
export async function saveGeneralSettings(db: DbOrTx, change: GeneralSettingsChange, at: Date) {
  await db
    .insertInto("general_settings")
    .values({ id: 1, ...change, updated_at: at })
    .onConflict((oc) => oc.column("id").doUpdateSet({ ...change, updated_at: at }))
    .execute();
}
