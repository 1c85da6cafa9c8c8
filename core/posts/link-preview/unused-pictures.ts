import { sql } from "kysely";
import type { Db } from "../../../db/index.ts";
import type { Deps } from "../../deps.ts";
import { removeStoredFile, type MediaFolder } from "../../media/images.ts";
import { MEDIA_URL_PREFIX } from "../../media/media-path.ts";

/**
 * Where a link preview's copy of a shop's picture is stored (docs/decisions/0110): a folder of its
 * own, written by nothing else, so that a copy can be told from every other upload by its path
 * alone — an avatar, a deal's uploaded or posted picture, a store's — without a column to mark it.
 */
export const PREVIEW_PICTURE_FOLDER = "link-previews" satisfies MediaFolder;

/** How long a preview's picture waits for its deal to be posted before the nightly sweep takes it. */
export const PREVIEW_PICTURE_KEPT_MS = 24 * 60 * 60 * 1000;

/** Rows deleted, and their files removed, at a time: a stopped sweep strands at most one batch's files. */
const BATCH = 200;

type SweepDeps = { db: Db; media: Deps["media"]; log: Pick<Deps["log"], "warn"> };

/**
 * Deletes the pictures link previews copied more than PREVIEW_PICTURE_KEPT_MS before `at` that no
 * post shows as its picture — whatever the post's status, so a held, hidden or soft-deleted post
 * keeps its own — each its `media` row, then its file with every variant (as releaseUserImage lets
 * go of an upload). Returns how many it deleted.
 */
export async function deleteUnusedPreviewPictures(deps: SweepDeps, at: Date): Promise<number> {
  const cutoff = new Date(at.getTime() - PREVIEW_PICTURE_KEPT_MS);
  let deleted = 0;
  for (;;) {
    const rows = await deps.db
      .deleteFrom("media")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("media as m")
          .select("m.id")
          .where("m.path", "like", `${PREVIEW_PICTURE_FOLDER}/%`)
          .where("m.created_at", "<", cutoff)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom("posts")
                  .select(sql<number>`1`.as("one"))
                  .whereRef("posts.image_url", "=", sql<string>`${MEDIA_URL_PREFIX} || m.path`),
              ),
            ),
          )
          .orderBy("m.id")
          .limit(BATCH),
      )
      .returning("path")
      .execute();
    for (const { path } of rows) await removeStoredFile(deps, path);
    deleted += rows.length;
    if (rows.length < BATCH) return deleted;
  }
}
