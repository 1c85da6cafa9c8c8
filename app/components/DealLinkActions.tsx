import { useId, useState, type KeyboardEvent } from "react";
import { FiExternalLink, FiInfo } from "react-icons/fi";

/** The honest-link fields of a deal (core/posts/links/presenter.ts). */
export interface DealLinkFields {
  go_url: string;
  is_affiliate: boolean;
  clean_link: string;
}

/**
 * GRAB DEAL's rel: "sponsored" when someone is paid for the click (docs/decisions/0039), and
 * always nofollow and noopener. The referrer is kept: /go tells the store only the site's origin.
 */
export function grabDealRel(post: Pick<DealLinkFields, "is_affiliate">): string {
  return post.is_affiliate ? "sponsored nofollow noopener" : "nofollow noopener";
}

export const AFFILIATE_TIP =
  "We may earn a commission if you buy through this link, at no extra cost to you. The clean link goes to the store without affiliate or tracking codes.";

/**
 * "Affiliate link" with its explanation: a button that shows a tooltip on hover, on keyboard focus
 * and on a tap, and that screen readers announce through aria-describedby. Escape hides it.
 */
function AffiliateLabel() {
  const tipId = useId();
  const [open, setOpen] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    setOpen(false);
    setDismissed(true);
  };
  const className = ["link-tip", open && "is-open", dismissed && "is-dismissed"]
    .filter(Boolean)
    .join(" ");
  return (
    <span
      className={className}
      onKeyDown={onKeyDown}
      onMouseLeave={() => setDismissed(false)}
      onBlur={() => {
        setOpen(false);
        setDismissed(false);
      }}
    >
      <button
        type="button"
        className="affiliate-label"
        aria-describedby={tipId}
        onClick={() => {
          setOpen((was) => !was);
          setDismissed(false);
        }}
      >
        <FiInfo aria-hidden="true" /> Affiliate link
      </button>
      <span role="tooltip" id={tipId} className="link-tooltip">
        {AFFILIATE_TIP}
      </span>
    </span>
  );
}

/**
 * Beside GRAB DEAL (record 0039): the "Affiliate link" label when someone is paid for
 * the click, and the clean link — the stored link without tracking and affiliate parameters,
 * opened straight at the store (not through /go) and with no referrer.
 */
export function DealLinkActions({ post }: { post: DealLinkFields }) {
  if (!post.go_url && !post.clean_link) return null;
  return (
    <p className="deal-link-actions">
      {post.is_affiliate && <AffiliateLabel />}
      {post.clean_link && (
        <a
          className="clean-link"
          href={post.clean_link}
          target="_blank"
          rel="nofollow noopener noreferrer"
        >
          Clean link
          <span className="visually-hidden">
            {" "}
            (the store&rsquo;s page without tracking or affiliate codes, opens in a new tab)
          </span>
          <FiExternalLink aria-hidden="true" />
        </a>
      )}
    </p>
  );
}
