import type { DbOrTx } from "../../db/index.ts";

/** The forums in their set order. */
export function findForums(db: DbOrTx) {
  return db
    .selectFrom("forums")
    .select(["id", "title", "slug", "detail", "type"])
    .orderBy("position")
    .orderBy("id")
    .execute();
}

export type ForumRow = Awaited<ReturnType<typeof findForums>>[number];
