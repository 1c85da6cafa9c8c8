/**
 * The `media` rows: which stored image each user uploaded. Every feature that stores a user's image
 * (avatars, post images) records it here, so that only a user's own uploads are ever deleted.
 */
import type { DbOrTx } from "../../db/index.ts";
import type { StoredImage } from "./images.ts";

/** Records an image a user uploaded, so that only their own uploads are ever deleted later. */
export async function insertMediaRecord(db: DbOrTx, userId: number, image: StoredImage) {
  await db
    .insertInto("media")
    .values({
      user_id: userId,
      path: image.path,
      mime: "image/webp",
      width: image.width,
      height: image.height,
      bytes: image.bytes,
    })
    .execute();
}

/** Forgets an upload of this user (its row); returns whether there was one. */
export async function deleteMediaRecord(
  db: DbOrTx,
  userId: number,
  path: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom("media")
    .where("user_id", "=", userId)
    .where("path", "=", path)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Forgets an upload of the site's own (a store's or category's picture), whoever uploaded it. */
export async function deleteSiteMediaRecord(db: DbOrTx, path: string): Promise<boolean> {
  const result = await db.deleteFrom("media").where("path", "=", path).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
