import type { DbOrTx } from "../../../db/index.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { hasRole } from "../../auth/policy.ts";
import { COLD_REASON_LABELS, COLD_REASONS, type ColdReason } from "./cold-reasons.ts";

/*
 * The counts of a post's cold votes by reason (record 0086), for its poster and moderators: read
 * by the post's page and `POST /api/product_details` (core/posts/service.ts), apart from the
 * reactions' repository, which only that feature imports.
 */

/**
 * Who sees a post's cold votes by reason: its poster, to mend the deal (mark it expired, fix the
 * price), and moderators, to act on reposts and spam. Other members and visitors see the counts
 * of likes and unlikes only: a list of reasons next to a deal would read as a verdict on it.
 */
export function canSeeColdReasons(viewer: CurrentUser | null, authorId: number | null): boolean {
  if (!viewer) return false;
  return hasRole(viewer, "moderator") || (authorId !== null && viewer.id === authorId);
}

export interface ColdReasonCounts {
  /** The reasons given at least once, in the menu's order. */
  by_reason: { reason: ColdReason; label: string; count: number }[];
  /** Cold votes that gave no reason. */
  without_reason: number;
}

/** The post's cold votes by reason, every vote counted (damping is the temperature's business). */
export async function findColdReasonCounts(db: DbOrTx, postId: number): Promise<ColdReasonCounts> {
  const rows = await db
    .selectFrom("likes")
    .select(["reason", (eb) => eb.fn.countAll<string>().as("count")])
    .where("post_id", "=", postId)
    .where("reaction", "=", "unlike")
    .groupBy("reason")
    .execute();
  const counts = new Map(rows.map((row) => [row.reason, Number(row.count)]));
  return {
    by_reason: COLD_REASONS.filter((reason) => counts.has(reason)).map((reason) => ({
      reason,
      label: COLD_REASON_LABELS[reason],
      count: counts.get(reason)!,
    })),
    without_reason: counts.get(null) ?? 0,
  };
}
