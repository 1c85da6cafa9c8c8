/**
 * "Lowest price in 90 days" on a deal card and the deal page: precomputed when the product's deals
 * change (core/posts/prices, decision 0040), so showing it costs nothing. Not on an expired deal: its
 * price is gone.
 */
export function LowestPriceBadge({
  deal,
}: {
  deal: { lowest_in_90d: boolean; is_expired: boolean };
}) {
  if (!deal.lowest_in_90d || deal.is_expired) return null;
  return (
    <span
      className="card-tag card-tag-lowest"
      title="No price posted here for this product in the 90 days before this deal was lower, and none since"
    >
      Lowest price in 90 days
    </span>
  );
}
