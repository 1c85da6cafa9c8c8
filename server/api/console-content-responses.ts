import { z } from "zod";

/**
 * What the console's content calls answer (dashboard, posts, comments, audit log), in the style of
 * server/api/responses.ts: strict objects, checked for every call by the contract test. Kept
 * beside server/api/console-content.ts, the module that answers them.
 */

const TRUE = z.literal("true");
const isoDateTime = z.string().describe("ISO 8601 date and time");
const count = z.number().int();
const pagination = z.strictObject({ total: count, current_page: count, last_page: count });
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

const postStatus = z.enum(["active", "pending", "hidden", "removed"]);

const ConsolePost = z.strictObject({
  unique_id: z.string(),
  post_type: z.enum(["d", "g"]),
  kind: z.enum(["deal", "coupon", "discussion"]),
  title: z.string(),
  path: z.string(),
  status: postStatus,
  moderation_reason: z.string(),
  is_featured: z.boolean(),
  is_expired: z.boolean(),
  expires_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  store: z.strictObject({ id: z.number(), title: z.string() }).nullable(),
  category: z.strictObject({ id: z.number(), title: z.string() }).nullable(),
  author: z.strictObject({ id: z.number(), name: z.string() }).nullable(),
  likes: count,
  unlikes: count,
  comments: count,
  views: count,
});

export const AdminPostsResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ posts: z.array(ConsolePost), pagination }),
});

export const AdminPostUpdatedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  changed: z.array(z.string()).describe("the fields the edit changed"),
  response: z.strictObject({
    unique_id: z.string(),
    title: z.string(),
    slug: z.string(),
    path: z.string(),
  }),
});

export const AdminPostsBulkResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  action: z.string(),
  changed: z.array(z.string()).describe("unique_ids the action changed"),
  unchanged: z.array(z.string()).describe("unique_ids that already were as asked"),
  removed: z
    .strictObject({ comments: count, likes: count, views: count })
    .optional()
    .describe("deletes: the rows that went with the posts"),
});

const ConsoleComment = z.strictObject({
  id: z.number(),
  text: z.string().describe("plain text, shortened"),
  status: z.enum(["active", "hidden", "removed"]),
  is_deleted: z.boolean(),
  created_at: isoDateTime,
  parent_id: z.number().nullable(),
  replies: count,
  author: z.strictObject({ id: z.number(), name: z.string() }).nullable(),
  post: z.strictObject({
    unique_id: z.string(),
    post_type: z.enum(["d", "g"]),
    title: z.string(),
    status: postStatus,
    path: z.string(),
  }),
});

export const AdminCommentsResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ comments: z.array(ConsoleComment), pagination }),
});

export const AdminCommentsActionResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  action: z.string(),
  changed: z.array(z.number()),
  unchanged: z.array(z.number()),
  placeholders: z
    .array(z.number())
    .optional()
    .describe("deletes: comments kept as “This comment was deleted.” for their replies"),
});

const AuditEntry = z.strictObject({
  id: z.number(),
  actor_id: z.number().nullable(),
  actor_name: z.string(),
  action: z.string(),
  item_type: z.string(),
  item_id: z.string(),
  item_label: z.string(),
  item_link: z.string().describe("the item's page, where it still exists"),
  reason: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  changes: z.array(z.strictObject({ field: z.string(), before: z.unknown(), after: z.unknown() })),
  created_at: isoDateTime,
});

export const AdminAuditResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ entries: z.array(AuditEntry), pagination }),
});
