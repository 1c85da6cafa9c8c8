import type { LinkCheckOutcome, VerifiedBy } from "../../../db/schema.ts";
import { FEEDBACK_WINDOW_DAYS } from "../../constants.ts";

/** What the deal page's freshness panel shows, and the answers of the two calls carry. */
export interface Freshness {
  last_verified_at: string;
  /** Who saw it work last: posted, member (still works), coupon (worked), link_check. */
  last_verified_by: VerifiedBy;
  /** The link check's last run, when there was one. */
  link_check: { checked_at: string; outcome: LinkCheckOutcome } | null;
  /** Coupon deals only: answers of the last 30 days, and the viewer's own (null: none). */
  coupon: {
    worked: number;
    total: number;
    window_days: number;
    your_answer: boolean | null;
  } | null;
}

export function presentFreshness(input: {
  lastVerifiedAt: Date;
  lastVerifiedBy: VerifiedBy;
  check: { checked_at: Date | null; outcome: LinkCheckOutcome | null };
  coupon: { worked: number; total: number; yourAnswer: boolean | null } | null;
}): Freshness {
  return {
    last_verified_at: input.lastVerifiedAt.toISOString(),
    last_verified_by: input.lastVerifiedBy,
    link_check:
      input.check.checked_at && input.check.outcome
        ? { checked_at: input.check.checked_at.toISOString(), outcome: input.check.outcome }
        : null,
    coupon: input.coupon
      ? {
          worked: input.coupon.worked,
          total: input.coupon.total,
          window_days: FEEDBACK_WINDOW_DAYS,
          your_answer: input.coupon.yourAnswer,
        }
      : null,
  };
}

/** "Worked for 12 of 15 people in the last 30 days", or what to say before anyone answered. */
export function couponSummary(coupon: NonNullable<Freshness["coupon"]>): string {
  if (coupon.total === 0)
    return `No one has said whether this code worked in the last ${coupon.window_days} days.`;
  const people = coupon.total === 1 ? "person" : "people";
  return `Worked for ${coupon.worked} of ${coupon.total} ${people} in the last ${coupon.window_days} days`;
}

/** Who verified it, as the panel words it after "Last verified … ago". */
export const VERIFIED_BY_TEXT: Record<VerifiedBy, string> = {
  posted: "when it was posted",
  member: "by a member who saw it still work",
  coupon: "by a member whose code worked",
  link_check: "by our automatic link check",
};
