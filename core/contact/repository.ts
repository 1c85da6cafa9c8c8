import type { DbOrTx } from "../../db/index.ts";
import type { ContactMessage } from "./schema.ts";

export function insertContactMessage(
  db: DbOrTx,
  message: ContactMessage & { user_id: number | null; item_link: string },
) {
  return db
    .insertInto("contact_messages")
    .values(message)
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
}
