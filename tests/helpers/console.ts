import type { FastifyInstance } from "fastify";
import type { StaffRole } from "../../core/auth/policy.ts";
import { newUniqueId, slugify } from "../../core/posts/identity.ts";
import type { Db } from "../../db/index.ts";
import type { NewPost } from "../../db/schema.ts";
import { TestClient } from "./session.ts";
import { createTestUser } from "./users.ts";

/** Staff, posts and comments for the console's tests. */

/** A signed-in member of staff with `role`. */
export async function signedInStaff(app: FastifyInstance, db: Db, role: StaffRole) {
  const id = await createTestUser(db, { name: `Test ${role}` });
  await db.updateTable("users").set({ role }).where("id", "=", id).execute();
  const client = new TestClient(app);
  await client.signInAs(db, id);
  return { id, client };
}

/** A post written straight to the database (active deal unless told otherwise). */
export async function insertPost(db: Db, values: Partial<NewPost> = {}) {
  const title = values.title ?? `Console test deal ${newUniqueId(6)}`;
  const at = new Date();
  return db
    .insertInto("posts")
    .values({
      unique_id: newUniqueId(),
      slug: slugify(title),
      post_type: "d",
      kind: values.post_type === "g" ? "discussion" : "deal",
      status: "active",
      description: "<p>A test post.</p>",
      description_text: "A test post.",
      created_at: at,
      updated_at: at,
      ...values,
      title,
    })
    .returning(["id", "unique_id", "slug", "title", "post_type"])
    .executeTakeFirstOrThrow();
}

/** A live comment (or a reply to `parentId`), with the post's comment count moved as posting does. */
export async function insertComment(
  db: Db,
  comment: { postId: number; userId: number | null; parentId?: number | null; body?: string },
) {
  const row = await db
    .insertInto("comments")
    .values({
      post_id: comment.postId,
      user_id: comment.userId,
      parent_id: comment.parentId ?? null,
      body: comment.body ?? "<p>A test comment.</p>",
      created_at: new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .updateTable("posts")
    .set((eb) => ({ comments_count: eb("comments_count", "+", 1) }))
    .where("id", "=", comment.postId)
    .execute();
  return row.id;
}

/** The audit entries about one item, oldest first. */
export function auditOf(db: Db, itemType: string, itemId: string | number) {
  return db
    .selectFrom("audit_log")
    .selectAll()
    .where("item_type", "=", itemType)
    .where("item_id", "=", String(itemId))
    .orderBy("id")
    .execute();
}
