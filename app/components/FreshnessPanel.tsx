import { useState } from "react";
import { Link, useLocation } from "react-router";
import { FiCheckCircle, FiThumbsDown, FiThumbsUp } from "react-icons/fi";
import {
  couponSummary,
  VERIFIED_BY_TEXT,
  type Freshness,
} from "../../core/posts/freshness/presenter.ts";
import type { PostDetails } from "../../core/posts/service.ts";
import { apiCall } from "../lib/api.ts";
import { messageOf } from "../lib/api-form.ts";
import { loginPath } from "../lib/pending-action.ts";
import { timeAgo } from "../lib/time-ago.ts";

/** "Last verified 3 hours ago" / "Last verified just now". */
export function verifiedLabel(at: string | Date, now: Date): string {
  const ago = timeAgo(at, now);
  return `Last verified ${ago === "Just now" ? "just now" : ago}`;
}

interface FreshnessPanelProps {
  details: PostDetails;
  viewerId: number | null;
  /** The page's clock (pageClock), so the label reads the same after hydration. */
  at: Date;
}

/**
 * Is this deal still good? (record 0038): when it was last seen to work and by whom; on a
 * coupon deal, how many people it worked for in the last 30 days, with Worked / Didn't work; on
 * any other deal, a "Still works" confirmation. Members answer; a visitor is offered to sign in;
 * the poster, and anyone on a deal that is not public or has expired, only reads.
 */
export function FreshnessPanel({ details, viewerId, at }: FreshnessPanelProps) {
  const post = details.product_details;
  const location = useLocation();
  const [freshness, setFreshness] = useState<Freshness | null>(details.freshness);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  if (!freshness) return null;

  const canAnswer =
    !details.moderation && !post.is_expired && (viewerId === null || viewerId !== post.user_id);
  const coupon = freshness.coupon;

  async function send(path: "/coupon_feedback" | "/confirm_deal", body: Record<string, unknown>) {
    setBusy(true);
    const result = await apiCall(path, {
      unique_id: post.unique_id,
      ...body,
    });
    setBusy(false);
    if (result.ok && result.data.freshness) setFreshness(result.data.freshness);
    setMessage(messageOf(result.data, "Sorry, your answer could not be sent. Please try again."));
  }

  const verifiedAt = new Date(freshness.last_verified_at);
  return (
    <section className="freshness" aria-labelledby="freshness-heading">
      <h2 id="freshness-heading" className="visually-hidden">
        Is this deal still good?
      </h2>
      <p className="freshness-verified">
        <FiCheckCircle aria-hidden="true" />
        <span>
          <time
            dateTime={freshness.last_verified_at}
            title={verifiedAt.toUTCString()}
            data-testid="last-verified"
          >
            {verifiedLabel(verifiedAt, at)}
          </time>{" "}
          <span className="freshness-by">{VERIFIED_BY_TEXT[freshness.last_verified_by]}</span>
        </span>
      </p>
      {coupon && (
        <p className="freshness-coupon" data-testid="coupon-worked">
          {couponSummary(coupon)}
        </p>
      )}
      {canAnswer && viewerId === null && (
        <p className="freshness-ask">
          <Link to={loginPath(location.pathname + location.search)}>Sign in</Link>{" "}
          {coupon ? "to say whether the code worked for you." : "to confirm this deal still works."}
        </p>
      )}
      {canAnswer && viewerId !== null && coupon && (
        <div className="freshness-answer" role="group" aria-labelledby="freshness-question">
          <span id="freshness-question">Did the code work for you?</span>
          <button
            type="button"
            className="btn btn-outline freshness-button"
            aria-pressed={coupon.your_answer === true}
            disabled={busy}
            onClick={() => send("/coupon_feedback", { worked: true })}
          >
            <FiThumbsUp aria-hidden="true" /> Worked
          </button>
          <button
            type="button"
            className="btn btn-outline freshness-button"
            aria-pressed={coupon.your_answer === false}
            disabled={busy}
            onClick={() => send("/coupon_feedback", { worked: false })}
          >
            <FiThumbsDown aria-hidden="true" /> Didn&rsquo;t work
          </button>
        </div>
      )}
      {canAnswer && viewerId !== null && !coupon && (
        <div className="freshness-answer">
          <span id="freshness-question">Just used this deal?</span>
          <button
            type="button"
            className="btn btn-outline freshness-button"
            aria-describedby="freshness-question"
            disabled={busy}
            onClick={() => send("/confirm_deal", {})}
          >
            <FiCheckCircle aria-hidden="true" /> Still works
          </button>
        </div>
      )}
      <p className="freshness-message" role="status">
        {message}
      </p>
    </section>
  );
}
