import type { Config } from "../../config/env.ts";
import { createMediaStorage } from "../../core/media/storage.ts";
import type { Db } from "../index.ts";
import { seedDemoData } from "./seed.ts";

/** DEMO_DATA=auto|on fills a database that has no content yet; off never does. */
export async function seedIfEmpty(
  db: Db,
  config: Config,
  log: (line: string) => void,
): Promise<boolean> {
  if (config.demoData === "off") return false;
  // Any content at all (settings, posts, or people who registered while demo data was off) means
  // the database is in use: demo content is only ever added to an empty one.
  const [settings, post, user] = await Promise.all([
    db.selectFrom("general_settings").select("id").executeTakeFirst(),
    db.selectFrom("posts").select("id").limit(1).executeTakeFirst(),
    db.selectFrom("users").select("id").limit(1).executeTakeFirst(),
  ]);
  if (settings || post || user) return false;
  const started = Date.now();
  log("empty database: filling it with demo content");
  await seedDemoData(db, { media: createMediaStorage(config) });
  log(`demo content ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}
