import { expect } from "vitest";
import type { Db } from "../../db/index.ts";
import { multipartBody } from "./multipart.ts";
import type { TestClient } from "./session.ts";

export interface DealWithImage {
  title: string;
  description: string;
  /** The link's path stem; the time is added so every post's link is new. */
  linkStem: string;
  price: number;
  fileName: string;
}

/**
 * Posts a deal with a JPEG through `POST /api/save_deal` as `member`, in the first deal forum
 * category, store and category; the stored post's id, unique_id and image_url.
 */
export async function postDealWithImage(
  db: Db,
  member: { id: number; client: TestClient },
  image: Buffer,
  deal: DealWithImage,
) {
  const [forumCategory, store, category] = await Promise.all([
    db
      .selectFrom("forum_categories")
      .select("id")
      .where("kind", "=", "deal")
      .executeTakeFirstOrThrow(),
    db.selectFrom("stores").select("id").executeTakeFirstOrThrow(),
    db.selectFrom("categories").select("id").executeTakeFirstOrThrow(),
  ]);
  const body = await multipartBody(
    {
      user_id: member.id,
      deal_category: forumCategory.id,
      store_id: store.id,
      category_id: category.id,
      title: deal.title,
      deal_description: deal.description,
      link: `https://www.example-shop.com/p/${deal.linkStem}-${Date.now()}`,
      price: deal.price,
    },
    { name: deal.fileName, type: "image/jpeg", bytes: image },
  );
  const response = await member.client.request({ method: "POST", url: "/api/save_deal", ...body });
  expect(response.statusCode, response.body).toBe(200);
  return db
    .selectFrom("posts")
    .select(["id", "unique_id", "image_url"])
    .where("unique_id", "=", response.json().response.unique_id)
    .executeTakeFirstOrThrow();
}

/**
 * The image_url of a demo deal's picture: any one, or the newest (`"newest"`), whose variants
 * the tests before it have not asked for.
 */
export async function demoPictureUrl(db: Db, which: "any" | "newest" = "any"): Promise<string> {
  let query = db
    .selectFrom("posts")
    .select("image_url")
    .where("image_url", "like", "/media/demo/deal-%");
  if (which === "newest") query = query.orderBy("id", "desc");
  return (await query.executeTakeFirstOrThrow()).image_url;
}
