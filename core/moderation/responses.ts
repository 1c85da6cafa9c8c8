import { z } from "zod";
import { postType } from "../cards/responses.ts";
import { ListPagination, MessageResponse, TRUE, isoDateTime, message } from "../responses.ts";

/** The state of an item that is not public, for the author and moderators who still see it. */
export const ModerationBanner = z
  .strictObject({
    status: z.enum(["pending", "hidden", "removed"]),
    label: z
      .string()
      .describe("Waiting for review, Hidden pending review, Removed by a moderator…"),
    reason: z.string(),
  })
  .describe("only on an item that is not public, shown to its author and moderators");

// The report queue (record 0031) ---------------------------------------------------------------

export const ReportSentResponse = MessageResponse;

const ReportedItemType = z.enum(["d", "g", "comment", "user"]);

const ReportGroup = z.strictObject({
  item_type: ReportedItemType,
  item_id: z.string().describe("the post's unique_id, the comment's id or the user's id"),
  title: z.string(),
  excerpt: z.string(),
  link: z.string().describe("the item's public address ('' when it no longer exists)"),
  item_status: z.enum([
    "active",
    "pending",
    "hidden",
    "removed",
    "deleted",
    "suspended",
    "missing",
  ]),
  author: z.strictObject({ id: z.number(), name: z.string() }).nullable(),
  reports: z.number().int().describe("open reports, one per member"),
  reasons: z.array(z.strictObject({ reason: z.string(), count: z.number().int() })),
  notes: z
    .array(
      z.strictObject({
        note: z.string(),
        reason: z.string(),
        reporter_name: z.string(),
        created_at: isoDateTime,
      }),
    )
    .describe("the newest notes, at most 3"),
  first_reported_at: isoDateTime,
  last_reported_at: isoDateTime,
});

const HeldPost = z.strictObject({
  unique_id: z.string(),
  post_type: postType,
  title: z.string(),
  excerpt: z.string(),
  link: z.string(),
  author: z.strictObject({ id: z.number(), name: z.string(), joined_at: z.string() }).nullable(),
  created_at: isoDateTime,
});

export const ReportQueueResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    items: z.array(ReportGroup),
    pagination: ListPagination,
    held_posts: z.array(HeldPost).describe("posts held for review, oldest first (at most 50)"),
    held_total: z.number().int(),
  }),
});

export const ModerateResponse = z.strictObject({
  ...message,
  response: z.strictObject({
    item_type: ReportedItemType,
    item_id: z.string(),
    status: z.enum(["active", "pending", "hidden", "removed"]),
  }),
});
