import { z } from "zod";
import { pageNumber } from "../list-query.ts";
import { flag, recordId } from "../console/content-fields.ts";
import { CONTACT_CATEGORIES } from "../constants.ts";
import { text } from "../validation.ts";

export const MESSAGE_STATUSES = ["open", "resolved"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** `?category=&status=&page=` of the messages queue; anything unknown reads as "all", page 1. */
const MessagesQuery = z.object({
  category: z.enum(CONTACT_CATEGORIES).optional().catch(undefined),
  status: z.enum(MESSAGE_STATUSES).optional().catch(undefined),
  page: pageNumber.catch(1),
});

export type MessagesQueryInput = z.output<typeof MessagesQuery>;

export function messagesQueryOf(query: unknown): MessagesQueryInput {
  const source = query && typeof query === "object" ? query : {};
  const read = (value: unknown) => (value === "" ? undefined : value);
  const { category, status, page } = source as Record<string, unknown>;
  return MessagesQuery.parse({ category: read(category), status: read(status), page });
}

/** `POST /api/admin/messages/view`, `/resolve`, `/reopen`. */
export const ContactMessageIdBody = z.object({ id: recordId("id") });
export type ContactMessageIdInput = z.output<typeof ContactMessageIdBody>;

export const REPLY_MAX = 10_000;

/** `POST /api/admin/messages/reply`: mailed to the sender; `resolve` closes the message too. */
export const ContactReplyBody = z.object({
  id: recordId("id"),
  body: text({ error: "Write the reply.", multiline: true })
    .trim()
    .min(1, "Write the reply.")
    .max(REPLY_MAX, `The reply must be at most ${REPLY_MAX} characters.`),
  resolve: flag,
});
export type ContactReplyInput = z.output<typeof ContactReplyBody>;
