import type { ColdReasonCounts as Counts } from "../../core/posts/reactions/cold-reason-counts.ts";

/**
 * "Cold votes: Expired 3 · Repost 1" under the vote buttons (record 0086). The page's data has
 * the counts only for the poster and moderators (core/posts/service.ts), and only a signed-in
 * viewer's page does, which the page cache never keeps.
 */
export function ColdReasonCounts({ counts }: { counts: Counts }) {
  const parts = counts.by_reason.map((entry) => `${entry.label} ${entry.count}`);
  if (counts.without_reason > 0) parts.push(`No reason ${counts.without_reason}`);
  return (
    <p className="cold-reason-counts">
      <strong>Cold votes:</strong> {parts.length > 0 ? parts.join(" · ") : "none"}
      <span className="cold-reason-counts-note"> (only the poster and moderators see this)</span>
    </p>
  );
}
