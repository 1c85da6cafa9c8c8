import { Link } from "react-router";
import { FiEye, FiMessageSquare, FiThumbsUp } from "react-icons/fi";
import type { DealCard as DealCardData } from "../../core/deals/presenter.ts";
import { postPath } from "../../core/posts/paths.ts";
import { formatPrice } from "../lib/format.ts";
import { IMAGE_SIZES, ResponsiveImage } from "./ResponsiveImage.tsx";

export function DealCard({
  deal,
  headingLevel = 3,
  imagePriority = false,
}: {
  deal: DealCardData;
  headingLevel?: 2 | 3 | 4;
  /** The card's image is the page's first: loaded at once, not lazily (ResponsiveImage). */
  imagePriority?: boolean;
}) {
  const Heading = `h${headingLevel}` as const;
  const href = postPath(deal);
  const merchant = deal.merchant_title || deal.store_title;
  return (
    <article className={deal.is_expired ? "deal-card expired" : "deal-card"}>
      <Link to={href} className="deal-card-image" tabIndex={-1} aria-hidden="true">
        {deal.image_url ? (
          <ResponsiveImage
            src={deal.image_url}
            alt=""
            width={400}
            height={300}
            sizes={IMAGE_SIZES.card}
            priority={imagePriority}
          />
        ) : (
          <span className="deal-card-noimage" />
        )}
        {deal.is_expired ? (
          <span className="deal-badge expired-badge">Expired</span>
        ) : deal.deal_badge ? (
          <span className="deal-badge">{deal.deal_badge}</span>
        ) : null}
      </Link>
      <div className="deal-card-body">
        {merchant && <p className="deal-card-store">{merchant}</p>}
        <Heading className="deal-card-title">
          <Link to={href}>{deal.title}</Link>
        </Heading>
        <p className="deal-card-price">
          {deal.type === "coupon" && <span className="coupon-tag">Coupon</span>}
          {deal.price !== null && <strong>{formatPrice(deal.price, deal.currency)}</strong>}
          {deal.list_price !== null && deal.price !== null && deal.list_price > deal.price && (
            <s aria-label={`was ${formatPrice(deal.list_price, deal.currency)}`}>
              {formatPrice(deal.list_price, deal.currency)}
            </s>
          )}
          {deal.discount ? <span className="deal-discount">{deal.discount}% off</span> : null}
        </p>
        <p className="deal-card-stats">
          <span title="Rating">
            <FiThumbsUp aria-hidden="true" /> <span className="visually-hidden">Rating </span>
            {deal.rating}
          </span>
          <span title="Comments">
            <FiMessageSquare aria-hidden="true" />{" "}
            <span className="visually-hidden">Comments </span>
            {deal.comments}
          </span>
          <span title="Views">
            <FiEye aria-hidden="true" /> <span className="visually-hidden">Views </span>
            {deal.views}
          </span>
          {deal.user_name && <span className="deal-card-user">by {deal.user_name}</span>}
        </p>
      </div>
    </article>
  );
}

export function DealGrid({
  deals,
  headingLevel,
  priorityFirst = false,
}: {
  deals: DealCardData[];
  headingLevel?: 2 | 3 | 4;
  /** The grid is the page's first content: its first card's image is not lazy. */
  priorityFirst?: boolean;
}) {
  if (deals.length === 0) return <p className="no-data">No Data Found</p>;
  return (
    <div className="deal-grid">
      {deals.map((deal, i) => (
        <DealCard
          key={deal.unique_id}
          deal={deal}
          headingLevel={headingLevel}
          imagePriority={priorityFirst && i === 0}
        />
      ))}
    </div>
  );
}
