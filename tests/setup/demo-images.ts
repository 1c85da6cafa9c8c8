import path from "node:path";
import { renderImages } from "../../db/demo/images.ts";
import { buildDemoPlan, type DemoScale } from "../../db/demo/plan.ts";
import { createFolderStorage } from "../../core/media/storage.ts";

/**
 * Demo images drawn once, by content (db/demo/images.ts, `cacheDir`), for every seed the tests
 * make: kept between runs with the other tools' caches, gone with node_modules (so `npm ci`
 * starts afresh).
 */
export const DEMO_IMAGE_CACHE = path.resolve(
  import.meta.dirname,
  "../../node_modules/.cache/chalkboard-deals/demo-images",
);

/**
 * Puts the demo content's images for `scale` into the media folder `mediaDir` (its demo/), from
 * the cache: a server that seeds that content then finds them there and draws none.
 */
export async function placeDemoImages(mediaDir: string, scale: DemoScale): Promise<void> {
  await renderImages(createFolderStorage(mediaDir), buildDemoPlan(scale).images, {
    cacheDir: DEMO_IMAGE_CACHE,
  });
}
