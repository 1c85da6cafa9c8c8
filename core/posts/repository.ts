import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import { postCardQuery } from "../cards/deal-card-query.ts";
import { prepared, preparedStatement } from "../../db/prepared.ts";

/**
 * A post of any status with everything its detail page shows: the deal card's columns plus the
 * description, category, the author's account state and the moderation state. One row by the
 * unique_id index. The service decides who may see a post that is not active.
 */
export function findPostDetail(db: DbOrTx, uniqueId: string) {
  return prepared(postCardQuery(db))
    .leftJoin("categories", "categories.id", "posts.category_id")
    .leftJoin(
      "member_reputation as author_reputation",
      "author_reputation.user_id",
      "posts.user_id",
    )
    .select([
      "posts.status",
      "posts.moderation_reason",
      "posts.description",
      "posts.description_text",
      "posts.updated_at",
      "categories.title as category_title",
      "categories.slug as category_slug",
      "users.deleted_at as user_deleted_at",
      "stores.affiliate_template as store_affiliate_template",
      // The author's badge, from the join that already gives their name (decision 0041).
      "users.verified_educator as user_verified_educator",
      // The author's reputation level for the byline (record 0088).
      "author_reputation.level as user_level",
      "posts.product_id",
    ])
    .where("posts.unique_id", "=", uniqueId)
    .executeTakeFirst();
}

export type PostDetailRow = NonNullable<Awaited<ReturnType<typeof findPostDetail>>>;

/**
 * Every comment and reply of a post, oldest first (the comments_post_idx index), whatever their
 * moderation status: the presenter leaves out what the viewer may not see.
 */
export function findComments(db: DbOrTx, postId: number) {
  return prepared(db.selectFrom("comments"))
    .leftJoin("users", "users.id", "comments.user_id")
    .leftJoin(
      "member_reputation as author_reputation",
      "author_reputation.user_id",
      "comments.user_id",
    )
    .select([
      "comments.id",
      "comments.post_id",
      "comments.parent_id",
      "comments.body",
      "comments.created_at",
      "comments.deleted_at",
      "comments.status",
      "comments.user_id",
      "comments.likes_count",
      "users.name as user_name",
      "users.image_url as user_image",
      "users.deleted_at as user_deleted_at",
      "users.verified_educator as user_verified_educator",
      "author_reputation.level as user_level",
    ])
    .where("comments.post_id", "=", postId)
    .orderBy("comments.created_at")
    .orderBy("comments.id")
    .execute();
}

export type CommentRow = Awaited<ReturnType<typeof findComments>>[number];

/** One visitor's view of a post on one day (the visitor key as core/posts/service.ts makes it). */
export interface PostView {
  postId: number;
  day: string;
  visitorKey: string;
}

/**
 * Records views of posts, one or many at once: only each visitor's first view of a post on a day
 * counts, and each post's views go up by the number that counted (its trending score follows from
 * the trigger of db/migrations/011_vote_damping.sql), in one statement. Views of posts deleted
 * since are left out. Returns how many views counted. A named statement planned once: each
 * rendered deal page runs it, and planning it cost more than running it.
 */
export async function recordViews(db: DbOrTx, views: readonly PostView[]): Promise<number> {
  if (views.length === 0) return 0;
  const { rows } = await sql<{ n: number }>`${preparedStatement}
    WITH noted AS (
      SELECT * FROM unnest(
        ${views.map((v) => v.postId)}::bigint[],
        ${views.map((v) => v.day)}::date[],
        ${views.map((v) => v.visitorKey)}::text[]
      ) AS noted (post_id, day, visitor_key)
    ), first_views AS (
      INSERT INTO post_views (post_id, day, visitor_key)
      SELECT noted.post_id, noted.day, noted.visitor_key
      FROM noted JOIN posts ON posts.id = noted.post_id
      ON CONFLICT DO NOTHING
      RETURNING post_id
    ), counted AS (
      SELECT post_id, count(*)::int AS n FROM first_views GROUP BY post_id
    )
    UPDATE posts SET views = posts.views + counted.n
    FROM counted WHERE posts.id = counted.post_id
    RETURNING counted.n
  `.execute(db);
  return rows.reduce((sum, row) => sum + row.n, 0);
}
