import { z } from "zod";
import { ListPagination, TRUE, isoDateTime } from "../responses.ts";

const ContactMessageItem = z.strictObject({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  mobile: z.string(),
  website: z.string(),
  category: z.string(),
  subject: z.string(),
  message: z.string(),
  user_id: z.number().nullable(),
  status: z.enum(["open", "resolved"]),
  resolved_at: isoDateTime.nullable(),
  item_link: z.string().describe("a path of this site the message names, or ''"),
  replies: z.number().int(),
  created_at: isoDateTime,
});

export const ContactMessagesResponse = z.strictObject({
  status: TRUE,
  messages: z.array(ContactMessageItem),
  pagination: ListPagination,
});

export const ContactMessageResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  contact_message: ContactMessageItem.extend({
    history: z.array(
      z.strictObject({
        id: z.number(),
        author_name: z.string(),
        body: z.string(),
        created_at: isoDateTime,
      }),
    ),
  }),
});
