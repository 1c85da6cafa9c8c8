import { requireConfirmedUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import type { Deps } from "../../deps.ts";
import { ForbiddenError, NotFoundError, RejectedError } from "../../errors.ts";
import type { DbOrTx } from "../../../db/index.ts";
import { feedbackRefusal } from "./policy.ts";
import { presentFreshness, type Freshness } from "./presenter.ts";
import * as repo from "./repository.ts";
import { FEEDBACK_WINDOW_DAYS } from "../../constants.ts";
import { FRESHNESS_MESSAGES, type ConfirmDealInput, type CouponFeedbackInput } from "./schema.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The start of the window "in the last 30 days" counts from. */
const windowStart = (at: Date) => new Date(at.getTime() - FEEDBACK_WINDOW_DAYS * DAY_MS);

/**
 * A post's freshness as the deal page shows it: last verified, the last link check, and for a
 * coupon deal the last 30 days' answers and the viewer's own. Two small reads by the post's id.
 */
export async function loadFreshness(
  db: DbOrTx,
  post: { id: number; coupon_code: string },
  viewerId: number | null,
  at: Date,
): Promise<Freshness | null> {
  const [row, counts, own] = await Promise.all([
    repo.findFreshness(db, post.id),
    post.coupon_code ? repo.countCouponFeedback(db, post.id, windowStart(at)) : null,
    post.coupon_code && viewerId !== null ? repo.findOwnAnswer(db, post.id, viewerId) : null,
  ]);
  if (!row) return null;
  return presentFreshness({
    lastVerifiedAt: row.last_verified_at,
    lastVerifiedBy: row.last_verified_by,
    check: { checked_at: row.checked_at, outcome: row.outcome },
    coupon: counts ? { ...counts, yourAnswer: own ? own.worked : null } : null,
  });
}

function refuse(refusal: NonNullable<ReturnType<typeof feedbackRefusal>>): never {
  const message = FRESHNESS_MESSAGES[refusal.reason];
  if (refusal.status === "not_found") throw new NotFoundError(message);
  if (refusal.status === "forbidden") throw new ForbiddenError(message);
  throw new RejectedError(message);
}

/**
 * Members' word on deals (record 0038, "Freshness"): Worked / Didn't work on coupon deals, and
 * "Still works" on the others. Either one that says the deal works moves its "last verified"
 * forward.
 */
export function createFreshnessService({ db, now, changes }: Deps) {
  async function answer(
    user: CurrentUser | null,
    uniqueId: string,
    kind: "coupon" | "confirm",
    write: (tx: DbOrTx, post: { id: number }, member: CurrentUser, at: Date) => Promise<boolean>,
  ) {
    const member = requireConfirmedUser(user);
    const at = now();
    const { post, moved } = await db.transaction().execute(async (tx) => {
      const post = await repo.lockPostForFeedback(tx, uniqueId);
      if (!post) throw new NotFoundError(FRESHNESS_MESSAGES.notFound);
      const refusal = feedbackRefusal(post, member.id, kind, at);
      if (refusal) refuse(refusal);
      return { post, moved: await write(tx, post, member, at) };
    });
    // The cards show "verified … ago": cached lists drop their copies.
    if (moved) changes.emit("posts");
    const freshness = await loadFreshness(db, post, member.id, at);
    return freshness!;
  }

  return {
    /**
     * `POST /api/coupon_feedback`: one answer per member and deal, a later one replacing the
     * earlier. "Worked" also moves the deal's last verified forward.
     */
    async couponFeedback(user: CurrentUser | null, input: CouponFeedbackInput) {
      const freshness = await answer(
        user,
        input.unique_id,
        "coupon",
        async (tx, post, member, at) => {
          await repo.saveCouponFeedback(tx, {
            post_id: post.id,
            user_id: member.id,
            worked: input.worked,
            answered_at: at,
          });
          return input.worked ? repo.markVerified(tx, post.id, at, "coupon") : false;
        },
      );
      return {
        message: input.worked ? FRESHNESS_MESSAGES.worked : FRESHNESS_MESSAGES.didNotWork,
        freshness,
      };
    },

    /** `POST /api/confirm_deal`: "Still works" on a deal without a coupon code. */
    async confirm(user: CurrentUser | null, input: ConfirmDealInput) {
      const freshness = await answer(user, input.unique_id, "confirm", (tx, post, _member, at) =>
        repo.markVerified(tx, post.id, at, "member"),
      );
      return { message: FRESHNESS_MESSAGES.confirmed, freshness };
    },
  };
}

export type FreshnessService = ReturnType<typeof createFreshnessService>;
