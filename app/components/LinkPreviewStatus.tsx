import { Link } from "react-router";
import type { LinkPreviewState } from "../lib/link-preview.ts";
import { formatPrice } from "../lib/format.ts";

/** "title, price and picture" */
function listed(names: string[]): string {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * Under Submit Deal's link field: what reading the pasted link is doing (a live region, so a
 * screen reader hears "Reading the page…" and then what was filled or why nothing was), then the
 * deals already posted for the same product and its lowest price in 90 days, before the member
 * submits (docs/decisions/0110-post-from-a-link.md).
 */
export function LinkPreviewStatus({ id, state }: { id: string; state: LinkPreviewState }) {
  const preview = state.phase === "read" ? state.preview : null;
  const duplicates = preview?.duplicates ?? [];
  const lowest = preview?.lowest_price_90_days ?? null;
  return (
    <div className="link-preview">
      <p
        id={id}
        className={`link-preview-status link-preview-${state.phase}`}
        role="status"
        aria-live="polite"
      >
        {state.phase === "reading" && "Reading the page…"}
        {state.phase === "read" &&
          (state.filled.length
            ? `Filled in from the page: ${listed(state.filled)}. Check them before you submit.`
            : "The page gave nothing to fill in that you have not typed already.")}
        {state.phase === "read" && state.priceNote && ` ${state.priceNote}`}
        {state.phase === "failed" && `${state.message} You can fill in the form yourself.`}
      </p>
      {(duplicates.length > 0 || lowest) && (
        <section className="link-preview-found" aria-labelledby={`${id}-found`}>
          <h2 id={`${id}-found`} className="link-preview-heading">
            {duplicates.length > 0 ? "Already posted" : "Price history"}
          </h2>
          {duplicates.length > 0 && (
            <ul className="link-preview-duplicates">
              {duplicates.map((deal) => (
                <li key={deal.unique_id}>
                  <Link to={deal.url} target="_blank" rel="noopener">
                    {deal.title}
                    <span className="visually-hidden"> (opens in a new tab)</span>
                  </Link>
                  {deal.price !== null && <span> · {formatPrice(deal.price)}</span>}
                  {deal.expired && <span className="link-preview-expired"> · expired</span>}
                </li>
              ))}
            </ul>
          )}
          {lowest && (
            <p className="link-preview-lowest">
              Lowest price in the last 90 days:{" "}
              <strong>{formatPrice(lowest.price, lowest.currency)}</strong> (
              <Link to={lowest.url} target="_blank" rel="noopener">
                see the deal
                <span className="visually-hidden"> (opens in a new tab)</span>
              </Link>
              )
            </p>
          )}
        </section>
      )}
    </div>
  );
}
