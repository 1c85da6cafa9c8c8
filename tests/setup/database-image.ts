import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb } from "../../db/index.ts";

/** Where test files find the migrated database image (tests/helpers/app.ts). */
export const DATABASE_IMAGE_ENV = "TEST_PGLITE_IMAGE";

/**
 * Vitest global setup: on PGlite, migrates one in-memory database once and writes its image to a
 * temporary file, so each test file's database starts from it (under a second) instead of
 * running every migration again (several seconds a file, a third of the suite's time). Test
 * files still seed their own demo data, dated by their own clock. The image is made afresh for
 * every run, from the migrations as they are.
 */
export default async function databaseImage() {
  if (process.env.DATABASE_URL) return;
  const handle = await createDb({ databaseUrl: "memory://" });
  const image = await handle.dumpImage!();
  await handle.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-db-image-"));
  const file = path.join(dir, "migrated.tar");
  fs.writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  process.env[DATABASE_IMAGE_ENV] = file;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
