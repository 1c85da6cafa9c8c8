import { timeAgo } from "../lib/time-ago.ts";

/** A deal verified more than this after it was posted shows it on its card. */
const SHOW_AFTER_MS = 60 * 60 * 1000;

/**
 * On a card, compactly: "✓ 3 hours ago" when someone (a member, a coupon that worked, the link
 * check) saw the deal work after it was posted; nothing when the posting is the last word, which
 * the card's age already says. Reads only the card's own column (posts.last_verified_at).
 */
export function VerifiedTag({
  deal,
  now,
}: {
  deal: { created_at: string; last_verified_at?: string };
  now: Date;
}) {
  if (!deal.last_verified_at) return null;
  const verified = new Date(deal.last_verified_at);
  if (verified.getTime() - new Date(deal.created_at).getTime() < SHOW_AFTER_MS) return null;
  const ago = timeAgo(verified, now);
  return (
    <span className="card-tag card-tag-verified" title={`Last verified ${ago.toLowerCase()}`}>
      <span aria-hidden="true">✓ </span>
      <span className="visually-hidden">Verified </span>
      {ago}
    </span>
  );
}
