/** The console's SQL for the contact messages queue and its replies. */
import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import type { MessageStatus } from "./console-schema.ts";

const MESSAGE_COLUMNS = [
  "contact_messages.id",
  "contact_messages.name",
  "contact_messages.email",
  "contact_messages.mobile",
  "contact_messages.website",
  "contact_messages.category",
  "contact_messages.subject",
  "contact_messages.message",
  "contact_messages.user_id",
  "contact_messages.status",
  "contact_messages.resolved_at",
  "contact_messages.item_link",
  "contact_messages.created_at",
] as const;

const replyCount = sql<string>`(SELECT count(*) FROM contact_replies r WHERE r.message_id = contact_messages.id)`;

export interface MessagesFilter {
  category?: string;
  status?: MessageStatus;
}

function filtered(db: DbOrTx, filter: MessagesFilter) {
  let query = db.selectFrom("contact_messages");
  if (filter.category) query = query.where("contact_messages.category", "=", filter.category);
  if (filter.status) query = query.where("contact_messages.status", "=", filter.status);
  return query;
}

/** One page of messages, newest first, with how many replies each has had. */
export async function findMessagesPage(
  db: DbOrTx,
  filter: MessagesFilter,
  offset: number,
  limit: number,
) {
  const [rows, count] = await Promise.all([
    filtered(db, filter)
      .select([...MESSAGE_COLUMNS, replyCount.as("replies")])
      .orderBy("contact_messages.created_at", "desc")
      .orderBy("contact_messages.id", "desc")
      .offset(offset)
      .limit(limit)
      .execute(),
    filtered(db, filter)
      .select(sql<string>`count(*)`.as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export type MessageRow = Awaited<ReturnType<typeof findMessagesPage>>["rows"][number];

export function findMessage(db: DbOrTx, id: number) {
  return db
    .selectFrom("contact_messages")
    .select([...MESSAGE_COLUMNS, replyCount.as("replies")])
    .where("contact_messages.id", "=", id)
    .executeTakeFirst();
}

/** A message, locked until the transaction ends (its status and replies change together). */
export function lockMessage(db: DbOrTx, id: number) {
  return db
    .selectFrom("contact_messages")
    .select(MESSAGE_COLUMNS)
    .where("contact_messages.id", "=", id)
    .forUpdate()
    .executeTakeFirst();
}

export function findReplies(db: DbOrTx, messageId: number) {
  return db
    .selectFrom("contact_replies")
    .select(["id", "author_name", "body", "created_at"])
    .where("message_id", "=", messageId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

export type ReplyRow = Awaited<ReturnType<typeof findReplies>>[number];

export async function setMessageStatus(
  db: DbOrTx,
  id: number,
  status: MessageStatus,
  at: Date | null,
) {
  await db
    .updateTable("contact_messages")
    .set({ status, resolved_at: at })
    .where("id", "=", id)
    .execute();
}

export async function insertReply(
  db: DbOrTx,
  reply: { message_id: number; author_id: number; author_name: string; body: string },
) {
  const row = await db
    .insertInto("contact_replies")
    .values(reply)
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
