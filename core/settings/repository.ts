import { sql } from "kysely";
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
      "general_settings.app_theme_color",
      "general_settings.app_background_color",
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
  report_hide_threshold?: number;
  hold_new_user_posts?: boolean;
  hold_new_user_days?: number;
  expiry_mark_threshold?: number;
  newcomer_link_posts?: number;
  newcomer_until_level?: string;
  newcomer_link_cap?: number;
  app_theme_color?: string;
  app_background_color?: string;
}

/** Changes the one general-settings row (id 1), creating it when there is none yet. */
export async function saveGeneralSettings(db: DbOrTx, change: GeneralSettingsChange, at: Date) {
  await db
    .insertInto("general_settings")
    .values({ id: 1, ...change, updated_at: at })
    .onConflict((oc) => oc.column("id").doUpdateSet({ ...change, updated_at: at }))
    .execute();
}

// The console's settings page ---------------------------------------------------------------

/** The general-settings row as stored (defaults when there is none yet), for editing. */
export async function findGeneralSettingsRow(db: DbOrTx) {
  const row = await db
    .selectFrom("general_settings")
    .select([
      "website_name",
      "website_logo",
      "website_keywords",
      "website_description",
      "educator_post_unique_id",
      "report_hide_threshold",
      "hold_new_user_posts",
      "hold_new_user_days",
      "expiry_mark_threshold",
      "newcomer_link_posts",
      "newcomer_until_level",
      "newcomer_link_cap",
      "app_theme_color",
      "app_background_color",
    ])
    .where("id", "=", 1)
    .executeTakeFirst();
  return row ?? null;
}

/** The footer the site shows: the first footer-settings row (the spec reads footer_setting[0]). */
export async function findFirstFooterRow(db: DbOrTx) {
  return (
    (await db
      .selectFrom("footer_settings")
      .select([
        "id",
        "copyright_text",
        "playstore_url",
        "app_store_url",
        "play_store_image",
        "app_store_image",
      ])
      .orderBy("id")
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}

export interface FooterSettingsChange {
  copyright_text?: string;
  playstore_url?: string;
  app_store_url?: string;
  play_store_image?: string;
  app_store_image?: string;
}

/** Changes the first footer row, creating it when there is none. */
export async function saveFooterSettings(db: DbOrTx, change: FooterSettingsChange, at: Date) {
  const first = await findFirstFooterRow(db);
  if (first) {
    await db
      .updateTable("footer_settings")
      .set({ ...change, updated_at: at })
      .where("id", "=", first.id)
      .execute();
  } else {
    await db
      .insertInto("footer_settings")
      .values({ ...change, updated_at: at })
      .execute();
  }
}

/** Whether a live educator post (a discussion) has this unique id: the Educators link's target. */
export async function liveEducatorPostExists(db: DbOrTx, uniqueId: string): Promise<boolean> {
  const row = await db
    .selectFrom("posts")
    .select("id")
    .where("unique_id", "=", uniqueId)
    .where("post_type", "=", "g")
    .where("status", "=", "active")
    .executeTakeFirst();
  return row !== undefined;
}

/** Serialises edits of the settings, so each audit entry's "before" is what the edit replaced. */
export async function lockSettings(tx: DbOrTx) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended('console:settings', 0))`.execute(tx);
}
