import { z } from "zod";
import { TRUE, isoDateTime, message } from "../../responses.ts";

const ConsoleUser = z.strictObject({
  id: z.number(),
  name: z.string(),
  email: z.string().describe("'' for a deleted account"),
  role: z.enum(["member", "moderator", "admin"]),
  joined: isoDateTime,
  posts_count: z.number().int(),
  status: z.enum(["active", "suspended", "deleted"]),
  suspended_until: isoDateTime.nullable().describe("null: until lifted, or not suspended"),
  suspension_reason: z.string(),
  verified_educator: z.boolean(),
});

export const ConsoleUsersResponse = z.strictObject({
  status: TRUE,
  users: z.array(ConsoleUser),
  page: z.number().int(),
  last_page: z.number().int(),
  total: z.number().int(),
});

export const ConsoleUserResponse = z.strictObject({ ...message, user: ConsoleUser });

export const ConsoleUserDeletedResponse = z.strictObject({ ...message, user_id: z.number() });
