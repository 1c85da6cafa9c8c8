import { z } from "zod";
import { TRUE, count, isoDateTime } from "../../responses.ts";

const recent = z.strictObject({ last_24h: count, last_7d: count });

export const AdminDashboardResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    recent: z.strictObject({
      users: recent,
      deals: recent,
      discussions: recent,
      comments: recent,
      reports: recent,
      contact_messages: recent,
    }),
    queues: z.strictObject({
      open_reports: count,
      reported_items: count.describe("distinct items with open reports"),
      held_posts: count.describe("posts with status 'pending'"),
      hidden_posts: count,
      hidden_comments: count,
      open_messages: count.describe("contact messages with status 'open'"),
    }),
    daily: z
      .array(
        z.strictObject({
          day: z.string().describe("YYYY-MM-DD (UTC)"),
          posts: count,
          signups: count,
        }),
      )
      .describe("the last 30 days, oldest first"),
    generated_at: isoDateTime,
  }),
});
